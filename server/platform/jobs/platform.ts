import type { Logger } from "pino";
import type { Db } from "#server/platform/db/client";
import type { Metrics } from "#server/platform/metrics/metrics";
import { repeat, type Repeating } from "./repeat";
import { createScheduler, type ScheduledJob, type Scheduler, type SchedulerOptions } from "./scheduler";

/** Work counted in memory and written in batches (bio page views, the search log): the platform owns its timer. */
export type Flushable = {
  /** How often the platform flushes it. */
  readonly flushEveryMs: number;
  /** Writes what waits; never rejects (a failed write keeps its counts for the next try and reports itself). */
  flush(): Promise<void>;
  /** Takes nothing more and writes what waits. */
  close(): Promise<void>;
};

/** A queue's work loop (server/platform/jobs/work-loop.ts) or anything shaped like one: started on registration, closed with the platform. */
export type Worker = { start?(): void; close(): Promise<void> };

/**
 * The job platform of one process: periodic work (once across processes), the queues' work loops,
 * and the in-memory buffers flushed on a timer. The composition root builds it, registers each
 * piece of background work with it, and closes it: the loops and the scheduler stop (bounded
 * waits for work under way), then every buffer is flushed a last time.
 */
export type JobPlatform = {
  /** Starts the periodic jobs (once; ADR 0042). */
  schedule(jobs: readonly ScheduledJob[], options?: Partial<Omit<SchedulerOptions, "db" | "jobs" | "logger" | "metrics">>): Scheduler;
  /** Starts a queue's work loop and closes it with the platform. */
  work<T extends Worker>(name: string, worker: T): T;
  /** Flushes `buffer` every `buffer.flushEveryMs` and on close. */
  flush<T extends Flushable>(name: string, buffer: T): T;
  /** Why background work looks stuck, or null (readiness reports it). */
  stuck(now?: Date): string | null;
  close(): Promise<void>;
};

export type JobPlatformOptions = { db: Db; logger: Logger; metrics?: Metrics };

export function createJobPlatform({ db, logger, metrics }: JobPlatformOptions): JobPlatform {
  let scheduler: Scheduler | null = null;
  const workers: { name: string; worker: Worker }[] = [];
  const buffers: { name: string; buffer: Flushable; timer: Repeating }[] = [];
  let closed = false;
  const open = (what: string) => {
    if (closed) throw new Error(`The job platform is closed: ${what} cannot start`);
  };

  return {
    schedule(jobs, options = {}) {
      open("the scheduler");
      if (scheduler) throw new Error("The periodic jobs are scheduled once per process");
      scheduler = createScheduler({ ...options, db, jobs, logger, metrics });
      scheduler.start();
      return scheduler;
    },
    work(name, worker) {
      open(name);
      workers.push({ name, worker });
      worker.start?.();
      return worker;
    },
    flush(name, buffer) {
      open(name);
      const timer = repeat(buffer.flushEveryMs, () => buffer.flush().catch((error: unknown) => logger.warn({ err: error, buffer: name }, "flush failed; the next one tries again")));
      buffers.push({ name, buffer, timer });
      return buffer;
    },
    stuck: (now) => scheduler?.stuck(now) ?? null,
    async close() {
      if (closed) return;
      closed = true;
      for (const { timer } of buffers) timer.stop();
      // The newest first, as the composition root closes what it built; each waits a bounded time.
      await scheduler?.close();
      for (const { name, worker } of workers.reverse()) {
        logger.debug({ worker: name }, "closing");
        await worker.close();
      }
      // Last: what the loops above counted while they stopped is written too.
      for (const { name, buffer } of buffers) {
        await buffer.close().catch((error: unknown) => logger.warn({ err: error, buffer: name }, "last flush failed; its counts are lost"));
      }
    },
  };
}
