/** A timer that calls something again and again until stopped. */
export type Repeating = { stop(): void };

/**
 * Calls `tick` every `everyMs` until `stop()`: the one interval timer of server code (a convention
 * test keeps `setInterval` inside server/platform/jobs/), so every piece of background work has an
 * owner that stops it on shutdown. Never keeps a finished process (or a test run) alive. A tick
 * that throws or rejects is the caller's to log: pass one that catches.
 */
export function repeat(everyMs: number, tick: () => unknown, { now = false }: { now?: boolean } = {}): Repeating {
  if (!(everyMs > 0)) throw new Error(`repeat: "everyMs" must be a positive number of milliseconds, not ${everyMs}`);
  const timer = setInterval(tick, everyMs);
  timer.unref();
  const first = now ? setImmediate(tick) : null;
  return {
    stop() {
      clearInterval(timer);
      if (first) clearImmediate(first);
    },
  };
}
