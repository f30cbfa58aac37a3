import type { FailureLog } from "#server/platform/db/unavailable";
import { repeat, type Repeating } from "./repeat";

/**
 * The worker loop of every database queue (queued mail, the sandbox's payment events, outgoing
 * webhooks, queued tasks): claim due items, work them, repeat until none is due. What an item is,
 * how it is claimed (leased, with `for update skip locked`, so several processes share a queue and
 * a killed one's items are retaken when their lease runs out), worked, retried and given up stays
 * with the queue's owner; this is the loop they all share.
 */
export type WorkLoop = {
  /** Works every item that is due, now, on every lane; how many were done. Tests and tools. */
  deliverDue(): Promise<number>;
  /** Asks for a round soon without waiting for it (after an item was stored). */
  kick(): void;
  /** Polls every `pollMs` (retries, items left by an earlier run or another process), starting with a round now. */
  start(): void;
  /** Stops polling and waits, at most `drainMs`, for items under way; claimed but unstarted ones are released. */
  close(): Promise<void>;
};

export type WorkLoopOptions<Item> = {
  /** Up to `limit` due items, leased to this process, in the order they should go; none when nothing is due. */
  claim(limit: number): Promise<Item[]>;
  /** Works one claimed item and records its outcome (done, retry later, given up); true when it was done. */
  work(item: Item): Promise<boolean>;
  /** Gives claimed, unstarted items back at close rather than leaving them until their lease runs out. */
  release?(items: Item[]): Promise<void>;
  /** Items under way at once in this process (each lane works one at a time). Default 1: strictly one after another. */
  lanes?: number;
  pollMs: number;
  drainMs: number;
  /**
   * How a round that could not read the queue is logged (the next poll tries again): a database
   * outage once when it starts and once when it ends (server/platform/db/unavailable.ts).
   */
  failures: FailureLog;
};

type Lane = { running: Promise<number> | null; again: boolean; busy: boolean };

/**
 * Lanes: each works one item at a time. Items are claimed in batches of up to one per lane, one
 * claim at a time per process (a busy queue costs a claim per batch, not per item; a claimed item
 * waits at most for one lane's work, well within its lease); a lane that got an item wakes the
 * free ones while claimed items are left, so the lanes at work grow with the queue and an idle
 * loop polls with one query. A round asked for while one runs runs again right after it.
 */
export function createWorkLoop<Item>({ claim, work, release, lanes: laneCount = 1, pollMs, drainMs, failures }: WorkLoopOptions<Item>): WorkLoop {
  if (!(laneCount >= 1)) throw new Error("A work loop needs at least one lane");
  const lanes: Lane[] = Array.from({ length: laneCount }, () => ({ running: null, again: false, busy: false }));
  const claimed: Item[] = [];
  let claiming: Promise<void> | null = null;
  let closed = false;
  let poll: Repeating | null = null;

  async function next(lane: Lane): Promise<Item | null> {
    if (claimed.length === 0 && !closed) {
      claiming ??= claim(laneCount)
        .then((items) => void claimed.push(...items))
        .finally(() => (claiming = null));
      await claiming;
    }
    const item = claimed.shift();
    if (item === undefined) return null;
    lane.busy = true;
    // Items left over: every free lane takes one.
    if (claimed.length > 0) for (const other of lanes) if (!other.busy) kickLane(other);
    return item;
  }

  async function drain(lane: Lane): Promise<number> {
    let done = 0;
    do {
      lane.again = false;
      while (!closed) {
        const item = await next(lane);
        if (item === null) break;
        try {
          if (await work(item)) done += 1;
        } finally {
          lane.busy = false;
        }
      }
    } while (lane.again && !closed);
    return done;
  }

  function runLane(lane: Lane): Promise<number> {
    if (lane.running) {
      lane.again = true;
      return lane.running;
    }
    lane.running = drain(lane).finally(() => (lane.running = null));
    return lane.running;
  }

  function kickLane(lane: Lane) {
    if (closed) return;
    runLane(lane).then(
      () => failures.succeeded(),
      (error: unknown) => failures.failed(error),
    );
  }

  // A lane not held by slow work, so that a new item does not wait behind it.
  const kick = () => kickLane(lanes.find((lane) => !lane.busy) ?? lanes[0]!);

  return {
    kick,
    async deliverDue() {
      const counts = await Promise.all(lanes.map(runLane));
      return counts.reduce((sum, count) => sum + count, 0);
    },
    start() {
      if (poll || closed) return;
      poll = repeat(pollMs, kick, { now: true });
    },
    async close() {
      closed = true;
      poll?.stop();
      const underWay = lanes.flatMap((lane) => (lane.running ? [lane.running.catch(() => 0)] : []));
      if (underWay.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(underWay), new Promise((resolve) => (timer = setTimeout(resolve, drainMs)))]);
        clearTimeout(timer);
      }
      await claiming?.catch(() => {});
      const unstarted = claimed.splice(0);
      if (unstarted.length > 0 && release) await release(unstarted);
    },
  };
}
