import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { scheduledJobs } from "#server/platform/db/schema";

/** The statements the scheduler runs on `scheduled_jobs`; each is one statement, the same on PostgreSQL and PGlite. */
export type JobRow = typeof scheduledJobs.$inferSelect;

/**
 * Makes sure every job has its row: a new job is due at once. A row already there keeps its
 * times, except that a due time later than the job's next slot from now is brought forward (the
 * job's cadence was shortened since).
 */
export async function registerJobs(db: Db, jobs: { name: string; soonest: Date }[], now: Date): Promise<void> {
  for (const job of jobs) {
    await db
      .insert(scheduledJobs)
      .values({ name: job.name, nextRunAt: now })
      .onConflictDoUpdate({ target: scheduledJobs.name, set: { nextRunAt: sql`least(${scheduledJobs.nextRunAt}, ${job.soonest})` } });
  }
}

export async function readJobs(db: Db, names: string[]): Promise<JobRow[]> {
  return db.select().from(scheduledJobs).where(inArray(scheduledJobs.name, names));
}

/**
 * Takes a due job that nobody holds (or whose holder's lease ran out) for `owner` until
 * `leaseUntil`, in one UPDATE: of two processes asking at once, PostgreSQL lets the second
 * re-check the row after the first committed, and it no longer matches. Null when not taken.
 */
export async function claimJob(db: Db, name: string, owner: string, now: Date, leaseUntil: Date): Promise<JobRow | null> {
  const [row] = await db
    .update(scheduledJobs)
    .set({ leaseOwner: owner, leaseUntil, lastStartedAt: now })
    .where(and(eq(scheduledJobs.name, name), lte(scheduledJobs.nextRunAt, now), or(isNull(scheduledJobs.leaseUntil), lt(scheduledJobs.leaseUntil, now))))
    .returning();
  return row ?? null;
}

/** Extends a lease still held by `owner`; false when it was lost (it ran out and another process took the job). */
export async function renewLease(db: Db, name: string, owner: string, leaseUntil: Date): Promise<boolean> {
  const renewed = await db
    .update(scheduledJobs)
    .set({ leaseUntil })
    .where(and(eq(scheduledJobs.name, name), eq(scheduledJobs.leaseOwner, owner)))
    .returning({ name: scheduledJobs.name });
  return renewed.length === 1;
}

/** Records a finished run and releases the lease, only if `owner` still holds it. False otherwise. */
export async function finishJob(
  db: Db,
  name: string,
  owner: string,
  outcome: { finishedAt: Date; nextRunAt: Date } & ({ succeeded: true } | { succeeded: false; error: string }),
): Promise<boolean> {
  const done = await db
    .update(scheduledJobs)
    .set({
      nextRunAt: outcome.nextRunAt,
      lastFinishedAt: outcome.finishedAt,
      leaseOwner: null,
      leaseUntil: null,
      ...(outcome.succeeded
        ? { lastSucceededAt: outcome.finishedAt, lastError: null, consecutiveFailures: 0 }
        : { lastError: outcome.error.slice(0, 2000), consecutiveFailures: sql`${scheduledJobs.consecutiveFailures} + 1` }),
    })
    .where(and(eq(scheduledJobs.name, name), eq(scheduledJobs.leaseOwner, owner)))
    .returning({ name: scheduledJobs.name });
  return done.length === 1;
}
