import { and, desc, gte, lte } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { reconciliationRuns } from "#server/platform/db/schema";
import { readJobs } from "#server/platform/jobs/job-table";
import { nextDue } from "#server/platform/jobs/timing";
import { DAILY_AT_UTC, DAILY_JOB } from "./daily";
import { yesterdayUtc } from "./run";

/**
 * Whether today's reconciliation has happened: today's run is the one that covers yesterday (UTC),
 * the scheduled job's period. A run a member of staff started today over a period that holds all of
 * yesterday counts as well: yesterday has then been compared, whoever asked.
 */
export type ReconciliationToday = {
  /** Yesterday, YYYY-MM-DD: the day today's run compares. */
  day: string;
  /** Today's run covering `day`, the latest when there were several; null before it has happened. */
  run: { finishedAt: Date; compared: number; differences: number } | null;
  /** When the scheduled job runs next (it may be due already and about to start). */
  nextRunAt: Date;
};

export async function reconciliationToday(db: Db, now = new Date()): Promise<ReconciliationToday> {
  const yesterday = yesterdayUtc(now);
  const [[run], [job]] = await Promise.all([
    db
      .select({ finishedAt: reconciliationRuns.finishedAt, compared: reconciliationRuns.movementsCompared, differences: reconciliationRuns.differenceCount })
      .from(reconciliationRuns)
      // By reconciliation_runs_started_idx: only today's runs are read.
      .where(and(gte(reconciliationRuns.startedAt, yesterday.to), lte(reconciliationRuns.periodStart, yesterday.from), gte(reconciliationRuns.periodEnd, yesterday.to)))
      .orderBy(desc(reconciliationRuns.startedAt))
      .limit(1),
    readJobs(db, [DAILY_JOB]),
  ]);
  // A server whose scheduler never registered the job (a fresh database) runs it at its next slot.
  const nextRunAt = job?.nextRunAt ?? nextDue({ dailyAtUtc: DAILY_AT_UTC }, now, now);
  return { day: yesterday.from.toISOString().slice(0, 10), run: run ?? null, nextRunAt };
}
