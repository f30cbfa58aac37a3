import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sponsorSessions } from "./payments";

export const DISPUTE_STATUSES = ["needs_response", "under_review", "won", "lost"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/**
 * A chargeback as the provider last told us (server/domains/payments/disputes/disputes.ts is
 * its one writer). Converges on the provider's truth whatever the order of
 * the events: the status only moves forward (needs_response → under_review →
 * won | lost) and never leaves won or lost. The money it moved is in
 * ledger_entries (kinds dispute, dispute_reversal), not here.
 */
export const disputes = pgTable(
  "disputes",
  {
    // The provider's dispute id (Stripe's du_…, the sandbox's du_…).
    id: text().primaryKey(),
    provider: text().notNull(),
    sessionId: text()
      .notNull()
      .references(() => sponsorSessions.id, { onDelete: "cascade" }),
    amount: integer().notNull(),
    currency: text().notNull(),
    reason: text().notNull(),
    status: text().$type<DisputeStatus>().notNull(),
    evidenceDueBy: timestamp({ withTimezone: true }),
    // The provider's dispute fee (Stripe: 1500 in USD), charged to the platform; 0 until known.
    providerFee: integer().notNull().default(0),
    // When the provider opened it (the first event's time, kept as the earliest seen).
    openedAt: timestamp({ withTimezone: true }).notNull(),
    closedAt: timestamp({ withTimezone: true }),
    // The occurredAt of the event whose fields (amount, reason, deadline) are kept: later ones win.
    lastEventAt: timestamp({ withTimezone: true }).notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("disputes_session_idx").on(t.sessionId),
    index("disputes_status_due_idx").on(t.status, t.evidenceDueBy),
    check("disputes_status_check", sql`${t.status} in ('needs_response', 'under_review', 'won', 'lost')`),
    check("disputes_amount_check", sql`${t.amount} >= 0 and ${t.providerFee} >= 0`),
  ],
);
