import { and, asc, eq, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Logger } from "pino";
import type { Db } from "#server/platform/db/client";
import { queuedTasks } from "#server/platform/db/schema";
import { failureLog } from "#server/platform/db/unavailable";
import { createWorkLoop } from "./work-loop";

/** What a task is handed: its input as queued, and which attempt this is (1 for the first). */
export type TaskRun = { id: string; payload: Record<string, unknown>; attempt: number };

/**
 * Runs one task. It may run more than once (a process that died after the work but before the
 * row was deleted, or a retry after a failure): a second run must do no harm.
 */
export type TaskHandler = (task: TaskRun) => Promise<void>;

/** What a request needs to hand work off: store it, and have it run soon. */
export type TaskSink = {
  /**
   * Stores the task (in the caller's transaction when given; then it runs once that commits) and,
   * where this process runs tasks (the queue was started), asks for a round now. Returns its id.
   */
  enqueue(kind: string, payload: Record<string, unknown>, tx?: Pick<Db, "insert">): Promise<string>;
};

export type TaskQueue = TaskSink & {
  /** Says what runs tasks of `kind`; once per kind, before start. */
  handle(kind: string, handler: TaskHandler): void;
  /** Runs every task that is due, now; how many succeeded. Tests wait on it instead of on timers. */
  deliverDue(): Promise<number>;
  kick(): void;
  start(): void;
  close(): Promise<void>;
};

export type TaskQueueOptions = {
  db: Db;
  logger: Logger;
  /** Waits between attempts; after the last one the task is kept as `failed`. */
  retryDelaysMs?: readonly number[];
  /** Tasks under way at once in this process. */
  lanes?: number;
  pollMs?: number;
  /** How long a claimed task stays this process's; after a crash another one retakes it then. */
  leaseMs?: number;
  drainMs?: number;
  now?: () => Date;
};

/** 5 s, 30 s, 2 min, 10 min, 1 h: a database or mail server away for a while does not lose the work. */
export const DEFAULT_TASK_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;

type Row = typeof queuedTasks.$inferSelect;

/**
 * Durable work handed off by a request (ADR 0063): a row in `queued_tasks`, stored before the
 * answer goes and run afterwards by the work loop of whichever process claims it, so neither the
 * answer's timing shows what the work found nor does a killed process lose it. Tasks run in the
 * order they were queued (oldest first, `lanes` at a time); a failed one waits for its next attempt (backoff) and after
 * the last stays `failed`; a task of a kind this process has no handler for waits like a failure.
 */
export function createTaskQueue(options: TaskQueueOptions): TaskQueue {
  const { db, logger, retryDelaysMs = DEFAULT_TASK_RETRY_DELAYS_MS, lanes = 2, pollMs = 1_000, leaseMs = 5 * 60_000, drainMs = 10_000 } = options;
  const now = options.now ?? (() => new Date());
  const handlers = new Map<string, TaskHandler>();
  let started = false;

  async function claim(limit: number): Promise<Row[]> {
    const at = now();
    // Due by the millisecond: rows are stamped to the microsecond, a JS date has milliseconds.
    const dueBy = new Date(at.getTime() + 1);
    const rows = await db
      .update(queuedTasks)
      .set({ attempts: sql`${queuedTasks.attempts} + 1`, nextAttemptAt: new Date(at.getTime() + leaseMs) })
      .where(
        sql`${queuedTasks.id} in (select id from queued_tasks where status = 'queued' and next_attempt_at < ${dueBy}
              order by next_attempt_at, created_at limit ${limit} for update skip locked)`,
      )
      .returning();
    return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  async function work(row: Row): Promise<boolean> {
    const handler = handlers.get(row.kind);
    try {
      if (!handler) throw new Error(`no handler for tasks of kind "${row.kind}" in this process`);
      await handler({ id: row.id, payload: row.payload, attempt: row.attempts });
      await db.delete(queuedTasks).where(eq(queuedTasks.id, row.id));
      logger.info({ taskId: row.id, kind: row.kind, attempts: row.attempts }, "task done");
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = retryDelaysMs[row.attempts - 1];
      if (delay === undefined) {
        await db.update(queuedTasks).set({ status: "failed", lastError: message.slice(0, 2000) }).where(eq(queuedTasks.id, row.id));
        logger.error({ taskId: row.id, kind: row.kind, attempts: row.attempts, err: error }, "task failed; giving up");
      } else {
        await db
          .update(queuedTasks)
          .set({ lastError: message.slice(0, 2000), nextAttemptAt: new Date(now().getTime() + delay) })
          .where(eq(queuedTasks.id, row.id));
        logger.warn({ taskId: row.id, kind: row.kind, attempts: row.attempts, retryInMs: delay, err: error }, "task failed; will retry");
      }
      return false;
    }
  }

  const loop = createWorkLoop<Row>({
    claim,
    work,
    // Claimed but not started: due again at once rather than after the lease.
    release: async (rows) => {
      for (const row of rows) {
        await db
          .update(queuedTasks)
          .set({ attempts: sql`${queuedTasks.attempts} - 1`, nextAttemptAt: row.createdAt })
          .where(and(eq(queuedTasks.id, row.id), eq(queuedTasks.attempts, row.attempts)))
          .catch((error: unknown) => logger.warn({ err: error, taskId: row.id }, "unstarted task not released; it runs when its lease runs out"));
      }
    },
    lanes,
    pollMs,
    drainMs,
    failures: failureLog(logger, "queued tasks", "task queue could not be read; the next poll tries again"),
  });

  return {
    async enqueue(kind, payload, tx) {
      const id = `task_${nanoid(20)}`;
      await (tx ?? db).insert(queuedTasks).values({ id, kind, payload, nextAttemptAt: now(), createdAt: now() });
      // Logged in the request that queued it, so its request id leads to the task's own lines.
      logger.info({ taskId: id, kind }, "task queued");
      if (started && !tx) loop.kick();
      return id;
    },
    handle(kind, handler) {
      if (handlers.has(kind)) throw new Error(`Tasks of kind "${kind}" already have a handler`);
      handlers.set(kind, handler);
    },
    deliverDue: loop.deliverDue,
    kick: loop.kick,
    start() {
      started = true;
      loop.start();
    },
    close: loop.close,
  };
}

/** Tasks still waiting or given up, oldest first (tests, operators). */
export async function queuedTaskRows(db: Db, status: "queued" | "failed" = "queued") {
  return db.select().from(queuedTasks).where(eq(queuedTasks.status, status)).orderBy(asc(queuedTasks.createdAt));
}
