import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { sponsorSessions } from "./payments";

/**
 * One row per money fact the product told people about (a payment settled, refunded, disputed, a
 * Pro change, payouts enabled), appended by the ledger in the transaction that made the change
 * (server/domains/payments/ledger/record-money-fact.ts), whose fan-out wrote the notification,
 * mails and outgoing webhook with it. `key` names the fact once (`payment:<payment intent>`,
 * `dispute:<id>:<status>` …): a second report of it finds the row and tells nobody again. Facts
 * with no such name (a Pro change, payouts enabled) leave it null and are made once by their
 * writer's own row lock. The payload is the typed event (money-events.ts): ids and amounts, no
 * addresses or names.
 */
export const moneyEvents = pgTable(
  "money_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    type: text().notNull(),
    key: text().unique("money_events_key_unique"),
    // The payment it is about, or the person (Pro, payouts): either goes with what it belongs to.
    sessionId: text().references(() => sponsorSessions.id, { onDelete: "cascade" }),
    uid: text().references(() => user.id, { onDelete: "cascade" }),
    payload: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("money_events_session_idx").on(t.sessionId), index("money_events_uid_idx").on(t.uid)],
);
