import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { queuedTasks } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { createTaskQueue, queuedTaskRows, type TaskQueue, type TaskRun } from "./task-queue";

const logger = pino({ level: "silent" });

describe.each(ENGINES)("the task queue on %s", (engine) => {
  const database = migratedDatabase(engine);
  const made: TaskQueue[] = [];
  // A clock the test moves, so retries and leases come due without waiting.
  let time = Date.UTC(2026, 10, 28, 12, 0, 0);
  const now = () => new Date(time);
  const queue = (options: Partial<Parameters<typeof createTaskQueue>[0]> = {}) => {
    const built = createTaskQueue({ db: database.db, logger, now, drainMs: 50, ...options });
    made.push(built);
    return built;
  };

  afterEach(async () => {
    await Promise.all(made.splice(0).map((q) => q.close()));
    await database.db.delete(queuedTasks);
  });

  it("runs a queued task once, oldest first, and keeps no row of it", async () => {
    const ran: string[] = [];
    const tasks = queue({ lanes: 1 });
    tasks.handle("note", async ({ payload }) => void ran.push(String(payload.n)));
    for (const n of [1, 2, 3]) {
      await tasks.enqueue("note", { n });
      time += 1;
    }
    // Not started (as in a tool's process): nothing ran until asked.
    expect(ran).toEqual([]);
    expect(await tasks.deliverDue()).toBe(3);
    expect(ran).toEqual(["1", "2", "3"]);
    expect(await queuedTaskRows(database.db)).toEqual([]);
    expect(await tasks.deliverDue()).toBe(0);
  });

  it("loses nothing when the process that queued a task stops before running it, or dies while running it", async () => {
    // Queued by a process that never ran it (closed, or killed, before its loop came round).
    const first = queue();
    await first.enqueue("note", { n: "left behind" });
    await first.close();
    expect((await queuedTaskRows(database.db))[0]).toMatchObject({ attempts: 0, payload: { n: "left behind" } });
    // Claimed by a process that hangs mid-run (as one that was killed): its lease runs out.
    const dying = queue({ leaseMs: 60_000 });
    dying.handle("note", () => new Promise<void>(() => {}));
    void dying.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await queuedTaskRows(database.db))[0]).toMatchObject({ attempts: 1 });

    const ran: TaskRun[] = [];
    const survivor = queue();
    survivor.handle("note", async (task) => void ran.push(task));
    // Still leased to the dying process: not taken.
    expect(await survivor.deliverDue()).toBe(0);
    time += 60_001;
    expect(await survivor.deliverDue()).toBe(1);
    expect(ran).toMatchObject([{ payload: { n: "left behind" }, attempt: 2 }]);
    expect(await queuedTaskRows(database.db)).toEqual([]);
    made.splice(made.indexOf(dying), 1);
  });

  it("retries a failing task after each delay, then keeps it as failed with its error", async () => {
    let calls = 0;
    const tasks = queue({ retryDelaysMs: [1_000, 5_000] });
    tasks.handle("flaky", async () => {
      calls += 1;
      throw new Error(`down (${calls})`);
    });
    await tasks.enqueue("flaky", {});
    expect(await tasks.deliverDue()).toBe(0);
    expect(calls).toBe(1);
    // Not due before its delay.
    time += 999;
    await tasks.deliverDue();
    expect(calls).toBe(1);
    time += 1;
    await tasks.deliverDue();
    expect(calls).toBe(2);
    time += 5_000;
    await tasks.deliverDue();
    expect(calls).toBe(3);
    expect(await queuedTaskRows(database.db)).toEqual([]);
    const [failed] = await queuedTaskRows(database.db, "failed");
    expect(failed).toMatchObject({ kind: "flaky", attempts: 3, lastError: "down (3)" });
    time += 3_600_000;
    await tasks.deliverDue();
    expect(calls).toBe(3);
  });

  it("lets a task of a kind it has no handler for wait for a process that has one", async () => {
    const without = queue();
    await without.enqueue("unknown-here", { n: 1 });
    expect(await without.deliverDue()).toBe(0);
    const ran: unknown[] = [];
    const withHandler = queue();
    withHandler.handle("unknown-here", async ({ payload }) => void ran.push(payload));
    time += 5_000;
    expect(await withHandler.deliverDue()).toBe(1);
    expect(ran).toEqual([{ n: 1 }]);
  });

  it("stores a task with the caller's transaction: rolled back, there is none", async () => {
    const tasks = queue();
    await database.db
      .transaction(async (tx) => {
        await tasks.enqueue("note", { n: "rolled back" }, tx);
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await queuedTaskRows(database.db)).toEqual([]);
  });

  it("started, runs what is queued soon after without being asked", async () => {
    const ran: unknown[] = [];
    const tasks = queue({ now: () => new Date(), pollMs: 60_000 });
    tasks.handle("note", async ({ payload }) => void ran.push(payload));
    tasks.start();
    await tasks.enqueue("note", { n: "kicked" });
    await expect.poll(() => ran, { timeout: 5_000 }).toEqual([{ n: "kicked" }]);
  });
});
