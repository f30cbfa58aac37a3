import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import type { Db } from "#server/platform/db/client";
import type { Metrics } from "#server/platform/metrics/metrics";
import { claimJob, finishJob, readJobs, registerJobs, renewLease, type JobRow } from "./job-table";
import { repeat, type Repeating } from "./repeat";
import { nextDue, periodOf, retryAfter, wallTime, type Cadence } from "./timing";
import { failureLog, isDatabaseUnavailable } from "#server/platform/db/unavailable";

/** What a job's run is handed. */
export type JobContext = {
  /** The time the run was started at (the scheduler's clock). */
  now: Date;
  /** Aborted when the process shuts down or the lease was lost: a long job stops between steps. */
  signal: AbortSignal;
};

/**
 * A periodic job. It runs in one process at a time across every process sharing the database,
 * once per period; a run cut short (the process died) runs again once its lease ran out, so
 * `run` must be idempotent: running it twice for the same period changes nothing more.
 */
export type ScheduledJob = Cadence & {
  name: string;
  run(context: JobContext): Promise<void>;
  /** How long a run may go without this process renewing its hold (renewed while it runs). Default 5 min. */
  leaseMs?: number;
};

export type Scheduler = {
  /** Starts ticking: a tick now, then every `tickMs`. */
  start(): void;
  /** One round: claims and starts every due job nobody holds. The loop calls it; so can tests. Resolves when the claims are made. */
  tick(): Promise<void>;
  /** Runs under way in this process, to wait for in tests. */
  idle(): Promise<void>;
  /** When the last tick finished (null before the first). */
  lastTickAt(): Date | null;
  /** Why background work looks stuck (no tick finished for too long), or null: readiness reports it. */
  stuck(now?: Date): string | null;
  /** Stops ticking, aborts runs under way and waits for them (at most `drainMs`); their leases then run out. */
  close(): Promise<void>;
};

export type SchedulerOptions = {
  db: Db;
  jobs: readonly ScheduledJob[];
  logger: Logger;
  metrics?: Metrics;
  tickMs?: number;
  drainMs?: number;
  /** Longer than this without a finished tick is "stuck". Default: 4 ticks, at least a minute. */
  stuckAfterMs?: number;
  now?: () => Date;
  /** Names this process in `lease_owner` (host and pid by default). */
  processName?: string;
};

const DEFAULT_LEASE_MS = 5 * 60_000;

/**
 * The scheduler of periodic jobs (ADR 0042): a row per job in `scheduled_jobs`, a tick every few
 * seconds in every process, and one atomic UPDATE deciding which process runs a due job. Works the
 * same on PostgreSQL with N processes and on the embedded database in one process.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, jobs, logger, metrics, tickMs = 5_000, drainMs = 10_000 } = options;
  const clock = options.now ?? (() => new Date());
  const stuckAfterMs = options.stuckAfterMs ?? Math.max(4 * tickMs, 60_000);
  const processName = options.processName ?? `${hostname()}:${process.pid}`;
  const byName = new Map(jobs.map((job) => [job.name, job]));
  for (const job of jobs) {
    if ("dailyAtUtc" in job) wallTime(job.dailyAtUtc);
    else if (!(job.every > 0)) throw new Error(`Scheduled job ${job.name}: "every" must be a positive number of milliseconds`);
  }
  if (byName.size !== jobs.length) throw new Error("Two scheduled jobs have the same name");

  const running = new Map<string, Promise<void>>();
  const shutdown = new AbortController();
  let registered: Promise<void> | null = null;
  let ticking: Promise<void> | null = null;
  let timer: Repeating | null = null;
  let lastTick: Date | null = null;
  const startedAt = clock();

  const register = () => {
    const now = clock();
    registered ??= registerJobs(db, jobs.map((job) => ({ name: job.name, soonest: new Date(now.getTime() + periodOf(job)) })), now).catch((error: unknown) => {
      registered = null;
      throw error;
    });
    return registered;
  };

  function observe(rows: JobRow[]) {
    if (!metrics) return;
    for (const row of rows) {
      metrics.jobs.nextRunSeconds.set({ job: row.name }, row.nextRunAt.getTime() / 1000);
      if (row.lastFinishedAt) metrics.jobs.lastRunSeconds.set({ job: row.name }, row.lastFinishedAt.getTime() / 1000);
      metrics.jobs.consecutiveFailures.set({ job: row.name }, row.consecutiveFailures);
    }
  }

  async function runClaimed(job: ScheduledJob, row: JobRow, owner: string, startedAt: Date) {
    const leaseMs = job.leaseMs ?? DEFAULT_LEASE_MS;
    const lost = new AbortController();
    const signal = AbortSignal.any([shutdown.signal, lost.signal]);
    // The hold is renewed while the run goes on, so only a process that stopped loses it.
    const renewal = repeat(Math.max(10, Math.floor(leaseMs / 3)), () => {
      renewLease(db, job.name, owner, new Date(clock().getTime() + leaseMs))
        .then((held) => {
          if (!held) lost.abort(new Error("lease lost"));
        })
        .catch((error: unknown) => logger.warn({ err: error, job: job.name }, "scheduled job: lease not renewed; trying again"));
    });
    const stopDuration = metrics?.jobs.duration.startTimer({ job: job.name });
    let outcome: { succeeded: true } | { succeeded: false; error: string };
    try {
      await job.run({ now: startedAt, signal });
      outcome = { succeeded: true };
    } catch (error) {
      outcome = { succeeded: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      renewal.stop();
      stopDuration?.();
    }
    const finishedAt = clock();
    const failures = row.consecutiveFailures + 1;
    const nextRunAt = outcome.succeeded ? nextDue(job, row.nextRunAt, finishedAt) : retryAfter(job, failures, finishedAt);
    metrics?.jobs.runs.inc({ job: job.name, outcome: outcome.succeeded ? "succeeded" : "failed" });
    if (outcome.succeeded) logger.info({ job: job.name, ms: finishedAt.getTime() - startedAt.getTime(), nextRunAt }, "scheduled job done");
    else logger.warn({ job: job.name, failures, error: outcome.error, retryAt: nextRunAt }, "scheduled job failed; retrying later");
    const recorded = await finishJob(db, job.name, owner, { finishedAt, nextRunAt, ...outcome });
    if (!recorded) logger.warn({ job: job.name }, "scheduled job finished after its lease ran out; another process may have run it too");
  }

  async function tickOnce() {
    await register();
    const now = clock();
    const rows = await readJobs(db, [...byName.keys()]);
    observe(rows);
    for (const row of rows) {
      const job = byName.get(row.name);
      if (!job || running.has(job.name) || shutdown.signal.aborted || row.nextRunAt > now) continue;
      // A fresh token per run: a late finish of an earlier run can never release a later one's lease.
      const owner = `${processName}:${randomBytes(6).toString("hex")}`;
      const claimed = await claimJob(db, job.name, owner, now, new Date(now.getTime() + (job.leaseMs ?? DEFAULT_LEASE_MS)));
      if (!claimed) {
        metrics?.jobs.runs.inc({ job: job.name, outcome: "skipped" });
        continue;
      }
      const run = runClaimed(job, claimed, owner, now)
        .catch((error: unknown) =>
          // In a database outage this is expected, and the outage is logged where it starts.
          logger[isDatabaseUnavailable(error) ? "warn" : "error"]({ err: error, job: job.name }, "scheduled job: its outcome could not be recorded; the lease runs out and it runs again"),
        )
        .finally(() => running.delete(job.name));
      running.set(job.name, run);
    }
    lastTick = clock();
  }

  function tick(): Promise<void> {
    ticking ??= tickOnce().finally(() => {
      ticking = null;
    });
    return ticking;
  }

  const tickFailures = failureLog(logger, "scheduled jobs", "scheduled jobs could not be read; the next tick tries again");
  const tickLogged = () => {
    tick().then(
      () => tickFailures.succeeded(),
      (error: unknown) => tickFailures.failed(error),
    );
  };

  return {
    start() {
      if (timer || shutdown.signal.aborted) return;
      timer = repeat(tickMs, tickLogged, { now: true });
    },
    tick,
    async idle() {
      await Promise.all(running.values());
    },
    lastTickAt: () => lastTick,
    stuck(now = clock()) {
      const since = lastTick ?? startedAt;
      const quietMs = now.getTime() - since.getTime();
      if (quietMs <= stuckAfterMs) return null;
      return lastTick
        ? `background work stuck: the job scheduler has not ticked for ${Math.round(quietMs / 1000)} s`
        : `background work stuck: the job scheduler has not ticked since start (${Math.round(quietMs / 1000)} s)`;
    },
    async close() {
      timer?.stop();
      timer = null;
      shutdown.abort(new Error("shutting down"));
      const underWay = Promise.all([ticking?.catch(() => {}), ...running.values()]);
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([underWay, new Promise((resolve) => (wait = setTimeout(resolve, drainMs)))]);
      clearTimeout(wait);
    },
  };
}
