import type { FailureLog } from "#server/platform/db/unavailable";
/**
 * The worker loop of a database outbox (queued mail, sandbox payment events):
 * claim the next due row, deliver it, repeat until none is due; one round at
 * a time per process, with a round asked for during one run again right
 * after it. What a row is, how it is claimed (leased with `for update skip
 * locked`, so several processes share a queue) and delivered, and when it is
 * retried stay with the outbox.
 */
export type DeliveryLoop = {
  /** Delivers every row that is due, now; how many went. */
  deliverDue(): Promise<number>;
  /** Asks for a round soon without waiting for it (after a row was stored). */
  kick(): void;
  /** Polls every `pollMs` (retries, rows left by an earlier run), starting with a round now. */
  start(): void;
  /** Stops polling and waits, at most `drainMs`, for a round under way; queued rows stay queued. */
  close(): Promise<void>;
};

export type DeliveryLoopOptions<Row> = {
  /** The next due row, leased to this process, or null. */
  claimNext(): Promise<Row | null>;
  /** Delivers one claimed row (and records the outcome); true when it went. */
  deliverOne(row: Row): Promise<boolean>;
  pollMs: number;
  drainMs: number;
  /**
   * How a round that could not read the queue is logged (the next poll tries again): a database
   * outage once when it starts and once when it ends (server/platform/db/unavailable.ts).
   */
  failures: FailureLog;
};

export function createDeliveryLoop<Row>({ claimNext, deliverOne, pollMs, drainMs, failures }: DeliveryLoopOptions<Row>): DeliveryLoop {
  let running: Promise<number> | null = null;
  let again = false;
  let closed = false;
  let poll: NodeJS.Timeout | null = null;

  async function drain(): Promise<number> {
    let delivered = 0;
    do {
      again = false;
      while (!closed) {
        const row = await claimNext();
        if (!row) break;
        if (await deliverOne(row)) delivered += 1;
      }
    } while (again && !closed);
    return delivered;
  }

  function deliverDue(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = null;
    });
    return running;
  }

  function kick() {
    if (closed) return;
    deliverDue().then(
      () => failures.succeeded(),
      (error: unknown) => failures.failed(error),
    );
  }

  return {
    deliverDue,
    kick,
    start() {
      if (poll || closed) return;
      poll = setInterval(kick, pollMs);
      poll.unref();
      setImmediate(kick);
    },
    async close() {
      closed = true;
      if (poll) clearInterval(poll);
      const underWay = running;
      if (!underWay) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([underWay.catch(() => 0), new Promise((resolve) => (timer = setTimeout(resolve, drainMs)))]);
      clearTimeout(timer);
    },
  };
}
