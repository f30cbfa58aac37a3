import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";

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

/**
 * An account staff suspended (ADR 0051): who, when, why and until when; and, once lifted, when, by
 * whom and why. While a row is open (lifted_at null) the account is `user.disabled`; at most one
 * is open per account. Kept after lifting as the account's history.
 */
export const accountSuspensions = pgTable(
  "account_suspensions",
  {
    id: uuid().primaryKey().defaultRandom(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    suspendedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    suspendedById: text(),
    suspendedByLabel: text().notNull(),
    reason: text().notNull(),
    // Null: until staff lift it. Otherwise it ends by itself at this instant.
    until: timestamp({ withTimezone: true }),
    liftedAt: timestamp({ withTimezone: true }),
    liftedById: text(),
    liftedByLabel: text(),
    liftReason: text(),
  },
  (t) => [
    index("account_suspensions_uid_idx").on(t.uid, t.suspendedAt),
    uniqueIndex("account_suspensions_one_open_idx").on(t.uid).where(sql`${t.liftedAt} is null`),
    // The expiry job's probe: open suspensions with an end date.
    index("account_suspensions_due_idx").on(t.until).where(sql`${t.liftedAt} is null and ${t.until} is not null`),
  ],
);
