import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The back office's audit log: one row per staff action (grant, suspend, remove, refund, a
 * report's outcome, a reconciliation run …). Append-only: a trigger (migration
 * 0032_audit_log_append_only) refuses UPDATE, DELETE and TRUNCATE, so nobody, not even the app,
 * can rewrite it. `actor_id` is null for the command line and scheduled jobs; `actor_label` says
 * who it was in words that survive the account (an email, "command line", "scheduled job").
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid().primaryKey().defaultRandom(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorId: text(),
    actorLabel: text().notNull(),
    action: text().notNull(),
    subjectType: text().notNull(),
    subjectId: text().notNull(),
    reason: text(),
    before: jsonb(),
    after: jsonb(),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_subject_idx").on(t.subjectType, t.subjectId)],
);
