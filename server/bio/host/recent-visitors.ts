import { createHash, randomBytes } from "node:crypto";
import { rateLimitSubject } from "#server/abuse/client-ip";

/**
 * Which client networks were already counted on which page, so that one
 * client cannot inflate a page's views or a link's clicks (item 21;
 * docs/decisions/0028-one-view-per-network.md).
 *
 * A client network is what the rate limits count (server/abuse/client-ip.ts):
 * an IPv4 address, or an IPv6 /64. A visit counts when that network has no
 * counted visit of the same thing (the page, or one of its links) within the
 * window; the first counted visit starts the window, later ones do not extend
 * it, so a person who keeps the page open counts again every window.
 *
 * Memory is bounded: entries are kept as salted hashes (no address is held in
 * a readable form; the salt is this process's own, new at each start) in
 * insertion order, which is also time order, so expired entries go from the
 * front and, when `maxEntries` is reached, the oldest goes first (a visitor
 * forgotten early may be counted once more, never a flood).
 *
 * Per process: with several app processes, one client may be counted once in
 * each of the processes its requests reach within a window; a balancer that
 * keeps a client on one process (or a single process) gives one.
 */
export type RecentVisitors = {
  /** True when this is the first visit of `what` on `pageId` from the client's network within the window (then it is remembered). */
  firstVisit(clientAddress: string, pageId: string, what: string): boolean;
  size(): number;
};

export type RecentVisitorsOptions = { windowMs: number; maxEntries: number; now: () => number };

export function createRecentVisitors({ windowMs, maxEntries, now }: RecentVisitorsOptions): RecentVisitors {
  const salt = randomBytes(16);
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
      const key = createHash("sha256").update(salt).update(`${rateLimitSubject(clientAddress)}\u0000${pageId}\u0000${what}`).digest("base64url").slice(0, 22);
      if (countedAt.has(key)) return false;
      countedAt.set(key, time);
      if (countedAt.size > maxEntries) countedAt.delete(countedAt.keys().next().value!);
      return true;
    },
    size: () => countedAt.size,
  };
}
