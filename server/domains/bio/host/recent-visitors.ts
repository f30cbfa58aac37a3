import { createHmac, randomBytes } from "node:crypto";
import { rateLimitSubject } from "#server/platform/abuse/client-ip";

/**
 * Which client networks this process already counted on which page, so that
 * one client cannot inflate a page's views or a link's clicks
 * (docs/decisions/0028-one-view-per-network.md).
 *
 * A client network is what the rate limits count (server/platform/abuse/client-ip.ts):
 * an IPv4 address, or an IPv6 /64. A visit counts when that network has no
 * counted visit of the same thing (the page, or one of its links) within the
 * window; the first counted visit starts the window, later ones do not extend
 * it, so a person who keeps the page open counts again every window.
 *
 * Entries are keyed hashes (HMAC with `salt`; no address is held in a
 * readable form) kept in insertion order, which is also time order, so
 * expired entries go from the front and, when `maxEntries` is reached, the
 * oldest goes first (a visitor forgotten early is only checked again against
 * the database, see below).
 *
 * Across processes: this memory is only the first filter, so that reloads
 * never reach the database. A first visit in this process returns its key,
 * and the view counter (view-counter.ts) checks that key against
 * `bio_counted_visits` when it writes its batch, where a network counted by
 * another process within the window adds nothing. For that, every process on
 * one database must hash with the same salt (the composition root derives it
 * from the session secret).
 */
export type RecentVisitors = {
  /** The visit's key when this is the first visit of `what` on `pageId` from the client's network within the window in this process (then it is remembered); null otherwise. */
  firstVisit(clientAddress: string, pageId: string, what: string): string | null;
  size(): number;
};

export type RecentVisitorsOptions = { windowMs: number; maxEntries: number; now: () => number; salt?: Uint8Array | string };

export function createRecentVisitors({ windowMs, maxEntries, now, salt = randomBytes(16) }: RecentVisitorsOptions): RecentVisitors {
  const countedAt = new Map<string, number>();

  const forgetExpired = (time: number) => {
    for (const [key, at] of countedAt) {
      if (time - at < windowMs) break;
      countedAt.delete(key);
    }
  };

  return {
    firstVisit(clientAddress, pageId, what) {
      const time = now();
      forgetExpired(time);
      const key = createHmac("sha256", salt).update(`${rateLimitSubject(clientAddress)}\u0000${pageId}\u0000${what}`).digest("base64url").slice(0, 22);
      if (countedAt.has(key)) return null;
      countedAt.set(key, time);
      if (countedAt.size > maxEntries) countedAt.delete(countedAt.keys().next().value!);
      return key;
    },
    size: () => countedAt.size,
  };
}
