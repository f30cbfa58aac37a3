import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * One reconciliation run (server/features/reconciliation/, ADR 0054): the period it
 * compared, when, who asked (a staff member's label or "scheduled job …"),
 * how many movements it compared and the differences it found, kept as JSON so
 * a run reads the same later, whatever happens to the ledger since.
 */
export const reconciliationRuns = pgTable(
  "reconciliation_runs",
  {
    id: uuid().primaryKey().defaultRandom(),
    periodStart: timestamp({ withTimezone: true }).notNull(),
    periodEnd: timestamp({ withTimezone: true }).notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }).notNull(),
    triggeredBy: text().notNull(),
    provider: text().notNull(),
    providerTransactions: integer().notNull(),
    ledgerEntries: integer().notNull(),
    movementsCompared: integer().notNull(),
    differenceCount: integer().notNull(),
    differences: jsonb().$type<unknown[]>().notNull(),
  },
  (t) => [index("reconciliation_runs_started_idx").on(t.startedAt)],
);
