import type { Db } from "#server/platform/db/client";
import { logs } from "#server/platform/db/schema";

/**
 * The search log of SPEC §7.2 ("Search activity is logged with type such as
 * search tag_{tag}"), written in batches.
 *
 * A search only counts in memory: `(uid, collection, term) → count`. Every few
 * seconds (the job platform's timer), or as soon as enough distinct terms wait, one multi-row INSERT
 * writes one `logs` row per distinct key with its `count`. So the rows written
 * depend on how many different things were searched in a window, not on how
 * many requests arrived: a client repeating a search a million times adds one
 * row per window, and the database grows with time at most, never with traffic.
 *
 * The buffer is bounded: once `maxKeys` distinct keys wait (while a flush is
 * still running, say), searches for new keys are dropped and counted in
 * `stats().dropped`, and the next flush logs how many. `close()` writes what
 * is left; the server calls it on shutdown.
 */

export const MAX_TERM_CHARS = 100;

export type SearchLogOptions = {
  /** How often the job platform flushes it (it keeps no timer of its own; server/platform/jobs/platform.ts). */
  flushEveryMs?: number;
  /** Flush early once this many distinct keys wait. */
  flushAtKeys?: number;
  /** Never hold more distinct keys than this; beyond it, searches are dropped and counted. */
  maxKeys?: number;
  onDropped?(dropped: number): void;
  onError?(error: unknown): void;
  /** A batch was written (after failures: the database is back). */
  onFlushed?(): void;
};

export type SearchLog = {
  readonly flushEveryMs: number;
  record(uid: string | null, collection: string, terms: string[]): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): { pendingKeys: number; dropped: number; flushes: number };
};

type Pending = { uid: string | null; collection: string; term: string; count: number; firstAt: Date };

export function createSearchLog(db: Db, options: SearchLogOptions = {}): SearchLog {
  const { flushEveryMs = 5_000, flushAtKeys = 500, maxKeys = 2_000 } = options;
  let pending = new Map<string, Pending>();
  let dropped = 0;
  let droppedSinceReport = 0;
  let flushes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  let closed = false;

  function record(uid: string | null, collection: string, terms: string[]) {
    if (closed) return;
    for (const raw of terms) {
      // Terms are bounded here too, whatever a caller validated: a log is no place for a megabyte.
      const term = raw.replaceAll("\0", "").slice(0, MAX_TERM_CHARS);
      const key = `${uid ?? ""}\u0001${collection}\u0001${term}`;
      const entry = pending.get(key);
      if (entry) {
        entry.count += 1;
      } else if (pending.size >= maxKeys) {
        dropped += 1;
        droppedSinceReport += 1;
      } else {
        pending.set(key, { uid, collection, term, count: 1, firstAt: new Date() });
      }
    }
    if (pending.size >= flushAtKeys) void flush();
  }

  function flush(): Promise<void> {
    // One flush at a time, in order: the next one starts after the running one ends.
    inFlight = inFlight.then(write, write);
    return inFlight;
  }

  async function write() {
    if (droppedSinceReport > 0) {
      options.onDropped?.(droppedSinceReport);
      droppedSinceReport = 0;
    }
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    flushes += 1;
    const rows = (withUid: boolean) =>
      batch.map((e) => ({
        uid: withUid ? e.uid : null,
        collection: e.collection,
        description: "search",
        subtype: e.term,
        type: "search",
        created: e.firstAt,
        count: e.count,
      }));
    try {
      await db.insert(logs).values(rows(true));
      options.onFlushed?.();
    } catch (error) {
      // Most likely an account deleted since its search (uid is a foreign key):
      // keep the counts without the names rather than lose the whole batch.
      try {
        await db.insert(logs).values(rows(false));
        options.onFlushed?.();
      } catch {
        dropped += batch.reduce((sum, e) => sum + e.count, 0);
        options.onError?.(error);
      }
    }
  }

  async function close() {
    closed = true;
    await flush();
  }

  return { flushEveryMs, record, flush, close, stats: () => ({ pendingKeys: pending.size, dropped, flushes }) };
}
