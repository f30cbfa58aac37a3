import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per scheduled job (server/platform/jobs/): when it is next due and who holds it now. A process
 * takes a due job by setting `lease_owner`/`lease_until` in one UPDATE that only matches a row
 * nobody holds, so a job runs in one process at a time across every process sharing the database;
 * a lease left by a process that died runs out, and the job is taken again.
 */
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text().primaryKey(),
  nextRunAt: timestamp({ withTimezone: true }).notNull(),
  lastStartedAt: timestamp({ withTimezone: true }),
  lastFinishedAt: timestamp({ withTimezone: true }),
  lastSucceededAt: timestamp({ withTimezone: true }),
  lastError: text(),
  consecutiveFailures: integer().notNull().default(0),
  leaseOwner: text(),
  leaseUntil: timestamp({ withTimezone: true }),
});
