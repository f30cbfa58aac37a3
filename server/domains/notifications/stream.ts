/**
 * The live unread count (SPEC §7.2 "unread_alerts by uid", ADR 0024): every open tab
 * of a signed-in user holds one server-sent-events stream; when that user's notifications change
 * (told by the database, `changes.ts`), the count is read ONCE and written to all their streams.
 * The hub knows nothing of HTTP: a stream is anything that takes text and can be ended
 * (`http-stream.ts` adapts a Node response).
 */

import { refusal, success, type Refusal, type Result } from "#server/platform/errors";
import { repeat } from "#server/platform/jobs/repeat";

export type StreamSink = {
  write(chunk: string): void;
  end(): void;
};

export type StreamLimits = {
  /** Streams one user may hold open at once (one per tab); the oldest goes first. */
  perUser: number;
  /** Streams this process holds at most; past it new ones are refused (503, the client retries). */
  total: number;
  /** A comment line this often keeps proxies and NATs from cutting an idle stream. */
  heartbeatMs: number;
  /**
   * A stream ends after about this long and the browser opens a new one: a proxy's connection
   * budget is never held forever, a revoked session is asked again, and load spreads after a
   * deploy. Each stream's lifetime is shortened by up to a fifth at random so reconnections spread.
   */
  lifetimeMs: number;
  /** How often a stream's session is asked again, so a revoked one does not keep listening. */
  sessionCheckMs: number;
  /** Changes for one user within this window are counted once. */
  coalesceMs: number;
  /** The browser's wait before reconnecting (the `retry:` field). */
  retryMs: number;
};

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perUser: 20,
  total: 10_000,
  heartbeatMs: 25_000,
  lifetimeMs: 20 * 60_000,
  sessionCheckMs: 2 * 60_000,
  coalesceMs: 25,
  retryMs: 2_000,
};

export type OpenStreamOptions = {
  uid: string;
  sink: StreamSink;
  /** Streams opened with one session share its re-check. */
  sessionKey: string;
  /** Whether the session behind the stream still stands (not signed out, revoked or disabled). */
  sessionValid(): Promise<boolean>;
};

/** An open stream (and how to let it go), or the hub is full or closing: the client retries. */
export type OpenResult = Result<{ close(): void }, Refusal<"unavailable", "STREAMS_FULL">>;

type Stream = {
  uid: string;
  sink: StreamSink;
  sessionKey: string;
  sessionValid(): Promise<boolean>;
  endsAt: number;
  lastCount: number | null;
};

export type NotificationStreams = ReturnType<typeof createNotificationStreams>;

export function unreadEvent(count: number): string {
  return `event: unread\ndata: ${JSON.stringify({ count })}\n\n`;
}

export function createNotificationStreams(options: {
  countUnread(uid: string): Promise<number>;
  limits?: Partial<StreamLimits>;
  onError?(error: unknown, uid: string): void;
  now?(): number;
  random?(): number;
}) {
  const limits: StreamLimits = { ...DEFAULT_STREAM_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const byUser = new Map<string, Set<Stream>>();
  let total = 0;
  let closedForGood = false;

  // Coalescing: uids whose count must be sent, the ones being counted now, and the ones that
  // changed again while being counted (counted once more afterwards, so an older count never
  // overtakes a newer one).
  const pending = new Set<string>();
  const counting = new Set<string>();
  const changedWhileCounting = new Set<string>();
  let flushTimer: NodeJS.Timeout | null = null;
  let flushes = 0;
  let idleWaiters: Array<() => void> = [];

  const sessionChecks = new Map<string, number>();

  function remove(stream: Stream) {
    const set = byUser.get(stream.uid);
    if (!set?.delete(stream)) return;
    total--;
    if (set.size === 0) byUser.delete(stream.uid);
  }

  function end(stream: Stream) {
    remove(stream);
    try {
      stream.sink.end();
    } catch {
      // Already gone.
    }
  }

  function write(stream: Stream, chunk: string) {
    try {
      stream.sink.write(chunk);
    } catch {
      end(stream);
    }
  }

  function scheduleFlush() {
    if (flushTimer || closedForGood) return;
    flushTimer = setTimeout(flush, limits.coalesceMs);
  }

  function flush() {
    flushTimer = null;
    const uids = [...pending];
    pending.clear();
    for (const uid of uids) {
      if (!byUser.has(uid)) continue;
      if (counting.has(uid)) {
        changedWhileCounting.add(uid);
        continue;
      }
      counting.add(uid);
      flushes++;
      options
        .countUnread(uid)
        .then(
          (count) => send(uid, count),
          (error: unknown) => options.onError?.(error, uid),
        )
        .finally(() => {
          counting.delete(uid);
          flushes--;
          if (changedWhileCounting.delete(uid)) {
            pending.add(uid);
            scheduleFlush();
          }
          if (flushes === 0 && pending.size === 0 && !flushTimer) {
            const waiters = idleWaiters;
            idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
    }
    if (flushes === 0 && pending.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function send(uid: string, count: number) {
    const event = unreadEvent(count);
    for (const stream of byUser.get(uid) ?? []) {
      // A stream that already shows this number hears nothing new.
      if (stream.lastCount === count) continue;
      stream.lastCount = count;
      write(stream, event);
    }
  }

  async function recheckSession(key: string, streams: Stream[]) {
    let valid: boolean;
    try {
      valid = await streams[0]!.sessionValid();
    } catch {
      // Unknown: keep the streams; the next check or their lifetime decides.
      valid = true;
    }
    if (!valid) {
      sessionChecks.delete(key);
      for (const stream of streams) end(stream);
    }
  }

  /** Heartbeats, lifetimes and session checks: one timer for every stream, not one per stream. */
  function tick() {
    const at = now();
    const dueSessions = new Map<string, Stream[]>();
    for (const set of [...byUser.values()]) {
      for (const stream of [...set]) {
        if (stream.endsAt <= at) {
          end(stream);
          continue;
        }
        write(stream, ": keep-alive\n\n");
        const checkedAt = sessionChecks.get(stream.sessionKey) ?? 0;
        if (at - checkedAt >= limits.sessionCheckMs) {
          const group = dueSessions.get(stream.sessionKey);
          if (group) group.push(stream);
          else dueSessions.set(stream.sessionKey, [stream]);
        }
      }
    }
    for (const [key, streams] of dueSessions) {
      sessionChecks.set(key, at);
      void recheckSession(key, streams);
    }
    // Forget sessions no stream uses any more.
    if (sessionChecks.size > total) {
      const live = new Set<string>();
      for (const set of byUser.values()) for (const stream of set) live.add(stream.sessionKey);
      for (const key of sessionChecks.keys()) if (!live.has(key)) sessionChecks.delete(key);
    }
  }

  // The platform's timer primitive: a per-process pass over every stream, not a timer per connection.
  const ticker = repeat(limits.heartbeatMs, tick);

  return {
    limits,

    /** Streams open in this process now (read by the metrics at scrape time). */
    openCount: () => total,

    /** Adds a stream; the caller has sent the response headers. Sends the current count soon. */
    open({ uid, sink, sessionKey, sessionValid }: OpenStreamOptions): OpenResult {
      if (closedForGood || total >= limits.total) return refusal("unavailable", "STREAMS_FULL", "Too many open streams; try again in a moment");
      let set = byUser.get(uid);
      if (!set) {
        set = new Set();
        byUser.set(uid, set);
      }
      // One user with many tabs: the oldest stream makes room (its tab reconnects, pushing out
      // the next oldest, which is fine: no tab is starved for long and the total stays bounded).
      while (set.size >= limits.perUser) end(set.values().next().value!);
      const stream: Stream = {
        uid,
        sink,
        sessionKey,
        sessionValid,
        endsAt: now() + limits.lifetimeMs * (1 - 0.2 * random()),
        lastCount: null,
      };
      // The first stream of a session counts as checked now: the request was just authenticated.
      if (!sessionChecks.has(sessionKey)) sessionChecks.set(sessionKey, now());
      // set may have been emptied (and dropped from byUser) by the loop above.
      byUser.set(uid, set);
      set.add(stream);
      total++;
      write(stream, `retry: ${limits.retryMs}\n\n`);
      pending.add(uid);
      scheduleFlush();
      return success({ close: () => remove(stream) });
    },

    /** This user's notifications changed (any process, any writer). */
    changed(uid: string) {
      if (!byUser.has(uid)) return;
      pending.add(uid);
      scheduleFlush();
    },

    /** After a gap in the change feed: every connected user's count is sent again if it moved. */
    refreshAll() {
      for (const uid of byUser.keys()) pending.add(uid);
      scheduleFlush();
    },

    /** Ends every stream of a user (signed out here). */
    closeUser(uid: string) {
      for (const stream of [...(byUser.get(uid) ?? [])]) end(stream);
    },

    /** Shutdown: ends every stream so the HTTP server can close; the browsers reconnect elsewhere. */
    closeAll() {
      closedForGood = true;
      ticker.stop();
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      pending.clear();
      for (const set of [...byUser.values()]) for (const stream of [...set]) end(stream);
    },

    /** Ends every stream, and takes new ones again (a test hook: "the server dropped the stream"). */
    dropAll() {
      for (const set of [...byUser.values()]) for (const stream of [...set]) end(stream);
    },

    /** Resolves once no count is waiting or under way (tests and the benchmark). */
    settled(): Promise<void> {
      if (flushes === 0 && pending.size === 0 && !flushTimer) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    /** Runs the heartbeat/lifetime/session pass now (tests). */
    tick,

    get size() {
      return total;
    },
    streamsOf(uid: string): number {
      return byUser.get(uid)?.size ?? 0;
    },
  };
}
