import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { bioPages } from "./bio-pages";
import { opportunityPosts } from "./opportunities";

/** A user's payout account at the payment provider (SPEC §3 Connected payout account). */
export const connectedAccounts = pgTable(
  "connected_accounts",
  {
    uid: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    stateToken: text().notNull().unique("connected_accounts_state_token_unique"),
    accountType: text().notNull().default("individual"),
    providerAccountId: text().unique("connected_accounts_provider_account_id_unique"),
    completed: boolean().notNull().default(false),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("connected_accounts_type_check", sql`${t.accountType} in ('individual', 'company')`)],
);

/**
 * A sponsor checkout session (a tip or sponsorship payment). Amounts are in
 * minor units of `currency`; fee and net are known once the provider settles.
 */
export const sponsorSessions = pgTable(
  "sponsor_sessions",
  {
    id: text().primaryKey(),
    posterUid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    bioPageId: text().references(() => bioPages.id, { onDelete: "set null" }),
    postId: text().references(() => opportunityPosts.id, { onDelete: "set null" }),
    amount: integer().notNull(),
    currency: text().notNull().default("usd"),
    fee: integer(),
    net: integer(),
    sponsorEmail: text(),
    message: text().notNull(),
    paymentIntentId: text(),
    completed: boolean().notNull().default(false),
    refunded: boolean().notNull().default(false),
    refundId: text(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sponsor_sessions_amount_check", sql`${t.amount} > 0`),
    check("sponsor_sessions_fee_check", sql`${t.fee} is null or ${t.fee} >= 0`),
    check("sponsor_sessions_net_check", sql`${t.net} is null or ${t.net} >= 0`),
    check("sponsor_sessions_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
    // Only a completed payment can be refunded.
    check("sponsor_sessions_refund_check", sql`not ${t.refunded} or ${t.completed}`),
    // "Sponsor sessions queried by poster_uid, newest first."
    index("sponsor_sessions_poster_created_idx").on(t.posterUid, t.created),
  ],
);

export const PRO_PLANS = ["launchpad", "star_power", "limitless"] as const;

/** Pro membership: Launchpad monthly, Star Power yearly, Limitless one-time. */
export const proMemberships = pgTable(
  "pro_memberships",
  {
    uid: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    plan: text().$type<(typeof PRO_PLANS)[number]>().notNull(),
    status: text().notNull(),
    currentPeriodEnd: timestamp({ withTimezone: true }),
    providerCustomerId: text(),
    providerSubscriptionId: text().unique("pro_memberships_provider_subscription_id_unique"),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("pro_memberships_plan_check", sql`${t.plan} in ('launchpad', 'star_power', 'limitless')`),
    check(
      "pro_memberships_status_check",
      sql`${t.status} in ('active', 'trialing', 'past_due', 'canceled', 'incomplete', 'unpaid')`,
    ),
  ],
);

/** Webhook idempotency: each provider event id is processed once. */
export const paymentEvents = pgTable("payment_events", {
  id: text().primaryKey(),
  provider: text().notNull(),
  type: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp({ withTimezone: true }),
});
