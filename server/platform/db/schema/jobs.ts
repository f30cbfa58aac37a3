import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

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

/**
 * Work a request hands off to run after its answer (server/platform/jobs/task-queue.ts): durable,
 * so a process killed before it ran loses nothing. A process claims a due row by moving
 * `next_attempt_at` one lease ahead (`for update skip locked`, so several processes share the
 * queue); done, the row is deleted; failed, it waits for its next attempt, and after the last it
 * stays as `failed` for the operator. `payload` is the task's input, as small as it can be.
 */
export const queuedTasks = pgTable(
  "queued_tasks",
  {
    id: text().primaryKey(),
    kind: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<"queued" | "failed">().notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("queued_tasks_due_idx").on(table.nextAttemptAt).where(sql`${table.status} = 'queued'`)],
);
