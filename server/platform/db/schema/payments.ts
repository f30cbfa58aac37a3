import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { bioPages } from "./bio-pages";
import { dealFundings } from "./deals";
import { opportunityPosts } from "./opportunities";
import { memberships } from "./memberships";

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

export const SPONSOR_SESSION_KINDS = ["tip", "sponsorship", "membership"] as const;
export type SponsorSessionKind = (typeof SPONSOR_SESSION_KINDS)[number];

/**
 * A session's status (SPEC §4 "sponsor session status", extended with what the
 * provider can report). Never set by hand: server/domains/payments/ledger/ledger.ts derives it
 * from the ledger entries (completed, refunded, disputed) and the checkout's
 * lifecycle events (pending, failed, expired), in the same transaction that
 * writes them. `completed` and `refunded` keep the SPEC's names.
 */
export const SPONSOR_SESSION_STATUSES = ["pending", "completed", "refunded", "failed", "expired", "disputed"] as const;
export type SponsorSessionStatus = (typeof SPONSOR_SESSION_STATUSES)[number];

/**
 * A sponsor checkout (a tip or a sponsorship payment) to one creator. Amounts
 * are integer minor units of `currency`. What the payment cost and earned is
 * not kept here but in `ledger_entries`; `status` is derived from them.
 */
export const sponsorSessions = pgTable(
  "sponsor_sessions",
  {
    id: text().primaryKey(),
    kind: text().$type<SponsorSessionKind>().notNull().default("tip"),
    provider: text().notNull(),
    // The provider's checkout session id (cs_…); unique, so one checkout is one row.
    providerCheckoutId: text().unique("sponsor_sessions_provider_checkout_id_unique"),
    // The creator paid; null once they deleted their account: the record stays for the ledger and
    // the provider, detached from the person (docs/decisions/0031-account-deletion.md).
    posterUid: text().references(() => user.id, { onDelete: "set null" }),
    // The signed-in sponsor, or null for a guest.
    sponsorUid: text().references(() => user.id, { onDelete: "set null" }),
    bioPageId: text().references(() => bioPages.id, { onDelete: "set null" }),
    postId: text().references(() => opportunityPosts.id, { onDelete: "set null" }),
    // A membership's paid period (kind "membership"): the first payment or a renewal (ADR 0084).
    membershipId: text().references(() => memberships.id, { onDelete: "set null" }),
    // The creator's connected account the charge goes to (a destination charge).
    destinationAccountId: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull().default("usd"),
    // The platform's share asked for at checkout (the application fee).
    platformFee: integer().notNull().default(0),
    sponsorEmail: text(),
    message: text().notNull(),
    // The name the supporter chose to show the creator (optional), whether they asked to keep their
    // support off the public wall, and whether the creator hid it from the wall.
    supporterName: text(),
    private: boolean().notNull().default(false),
    hiddenFromWall: boolean().notNull().default(false),
    paymentIntentId: text().unique("sponsor_sessions_payment_intent_id_unique"),
    status: text().$type<SponsorSessionStatus>().notNull().default("pending"),
    expiresAt: timestamp({ withTimezone: true }),
    // The provider's hosted checkout page, kept so the same browser sending the same form again is sent back to it.
    checkoutUrl: text(),
    // Hash of the sending browser's checkout cookie and the form's facts (server/domains/payments/checkout/reuse.ts); null when not reusable.
    reuseKey: text(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sponsor_sessions_amount_check", sql`${t.amount} > 0`),
    check("sponsor_sessions_platform_fee_check", sql`${t.platformFee} >= 0 and ${t.platformFee} <= ${t.amount}`),
    check("sponsor_sessions_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
    check("sponsor_sessions_kind_check", sql`${t.kind} in ('tip', 'sponsorship', 'membership')`),
    // A tip is for no post (a sponsorship's post may since have been deleted).
    check("sponsor_sessions_post_check", sql`${t.kind} = 'sponsorship' or ${t.postId} is null`),
    check(
      "sponsor_sessions_status_check",
      sql`${t.status} in ('pending', 'completed', 'refunded', 'failed', 'expired', 'disputed')`,
    ),
    // "Sponsor sessions queried by poster_uid, newest first."
    index("sponsor_sessions_poster_created_idx").on(t.posterUid, t.created),
    // The back office's every payment, newest first, a page at a time by (created, id).
    index("sponsor_sessions_created_id_idx").on(t.created, t.id),
    // My Payments: what a signed-in person paid as a sponsor.
    index("sponsor_sessions_sponsor_created_idx").on(t.sponsorUid, t.created),
    // A bio page's supporter wall and goal: its sessions, newest first.
    index("sponsor_sessions_bio_page_created_idx").on(t.bioPageId, t.created),
    // A membership's paid periods, newest first.
    index("sponsor_sessions_membership_created_idx").on(t.membershipId, t.created).where(sql`${t.membershipId} is not null`),
    // An open checkout found again for the same browser and form (only pending rows are looked up).
    index("sponsor_sessions_reuse_key_idx").on(t.reuseKey).where(sql`${t.reuseKey} is not null and ${t.status} = 'pending'`),
  ],
);

export const LEDGER_ENTRY_KINDS = ["payment", "refund", "dispute", "dispute_reversal", "deal_payment", "deal_refund", "deal_release"] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

/**
 * Append-only: one row per movement of money on a sponsor session, never
 * updated or deleted by the app (server/domains/payments/ledger/ledger.ts has one writer per
 * kind). Signed integer minor units: a payment is positive, a refund or a
 * dispute negative. `net` is the creator's share: what reaches (or leaves)
 * their connected account, i.e. gross − platform_fee on a destination charge;
 * the provider's fee is paid by the platform and kept beside it
 * (docs/decisions/0021-payments-ledger-and-webhooks.md).
 * `(kind, provider_reference)` is unique, so the same movement reported twice
 * (two events, two deliveries, two processes) is written once.
 *
 * A deal's money is held by the platform before it reaches anyone (ADR 0080), so on the `deal_*`
 * kinds `platform_fee` is what the platform holds or keeps and `net` what reached the creator:
 * the payment is all held (platform_fee = gross, net = 0), a release moves the creator's share
 * from the one to the other (gross 0, platform_fee −share, net +share), a refund gives held money
 * back (gross = platform_fee = −amount). Summed over a released deal they read as a tip's row.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid().primaryKey().defaultRandom(),
    // A tip's or sponsorship's session, or (kinds deal_*) a deal's funding: exactly one of the two.
    sessionId: text().references(() => sponsorSessions.id, { onDelete: "cascade" }),
    fundingId: text().references(() => dealFundings.id),
    kind: text().$type<LedgerEntryKind>().notNull(),
    gross: integer().notNull(),
    providerFee: integer().notNull(),
    platformFee: integer().notNull(),
    net: integer().notNull(),
    currency: text().notNull(),
    // The payment intent (payment, refund: the app refunds a payment whole), or the dispute id.
    providerReference: text().notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("ledger_entries_kind_reference_unique").on(t.kind, t.providerReference),
    index("ledger_entries_session_idx").on(t.sessionId, t.created),
    check(
      "ledger_entries_kind_check",
      sql`(${t.kind} in ('payment', 'refund', 'dispute', 'dispute_reversal') and ${t.sessionId} is not null and ${t.fundingId} is null) or (${t.kind} in ('deal_payment', 'deal_refund', 'deal_release') and ${t.fundingId} is not null and ${t.sessionId} is null)`,
    ),
    index("ledger_entries_funding_idx").on(t.fundingId, t.created).where(sql`${t.fundingId} is not null`),
    check("ledger_entries_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
    check("ledger_entries_net_check", sql`${t.net} = ${t.gross} - ${t.platformFee}`),
  ],
);

export const REFUND_REQUEST_STATUSES = ["requested", "pending", "succeeded", "failed"] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];

/**
 * The refund of a session: its primary key is the session, so there is at most
 * one, however many clicks, tabs or processes ask (server/domains/payments/refunds/refunds.ts).
 * `requested`: claimed, the provider not yet asked (or asked and not answered);
 * `pending`: the provider took it; `succeeded` / `failed`: its webhook said so.
 * A refund made in the provider's dashboard arrives as `succeeded` with no requester.
 */
export const refundRequests = pgTable(
  "refund_requests",
  {
    sessionId: text()
      .primaryKey()
      .references(() => sponsorSessions.id, { onDelete: "cascade" }),
    status: text().$type<RefundRequestStatus>().notNull().default("requested"),
    // 1 for the first try; a new try after a failed refund counts up (its idempotency key changes with it).
    attempt: integer().notNull().default(1),
    providerRefundId: text(),
    requestedBy: text().references(() => user.id, { onDelete: "set null" }),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("refund_requests_status_check", sql`${t.status} in ('requested', 'pending', 'succeeded', 'failed')`)],
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
    // Cancelled by the member: still Pro until current_period_end, then it ends (server/domains/pro/sync.ts).
    cancelAtPeriodEnd: boolean().notNull().default(false),
    // Limitless bought by a subscriber: the subscription still billing beside it (its period end and
    // cancel flag are current_period_end and cancel_at_period_end), until it ends. Null otherwise.
    billingPlan: text().$type<(typeof PRO_PLANS)[number]>(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("pro_memberships_plan_check", sql`${t.plan} in ('launchpad', 'star_power', 'limitless')`),
    check("pro_memberships_billing_plan_check", sql`${t.billingPlan} is null or ${t.billingPlan} in ('launchpad', 'star_power')`),
    check(
      "pro_memberships_status_check",
      sql`${t.status} in ('active', 'trialing', 'past_due', 'canceled', 'incomplete', 'unpaid')`,
    ),
  ],
);

/**
 * Every webhook event a provider delivered, stored once by (provider, event id)
 * with its payload; `handled_at` is set in the transaction that applied it, so
 * an event whose handler failed stays unhandled and the provider's retry runs
 * it again (server/features/payment-webhooks/intake.ts).
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text().notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    payload: jsonb().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ name: "payment_events_pkey", columns: [t.provider, t.eventId] })],
);

/**
 * The person as a billing customer at the provider: one per person, made on
 * the first Pro checkout with idempotency key `customer_<uid>` and kept, so
 * two tabs or a retried click never make two (server/domains/pro/customers.ts).
 */
export const billingCustomers = pgTable("billing_customers", {
  uid: text()
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  provider: text().notNull(),
  customerId: text().notNull().unique("billing_customers_customer_id_unique"),
  // When the Pro page last read the provider for this person (server/domains/pro/refresh.ts throttles on it).
  refreshedAt: timestamp({ withTimezone: true }),
  created: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** One Pro checkout asked for: its row id is the provider call's idempotency key (`pro_checkout_<id>`). */
export const proCheckouts = pgTable(
  "pro_checkouts",
  {
    id: uuid().primaryKey().defaultRandom(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    plan: text().$type<(typeof PRO_PLANS)[number]>().notNull(),
    providerCheckoutId: text(),
    // The provider's page and when it closes: the next click on the same plan reuses it while open.
    url: text(),
    expiresAt: timestamp({ withTimezone: true }),
    // The membership now covers this plan (paid, or no longer for sale to the person): neither reused nor waited for.
    settledAt: timestamp({ withTimezone: true }),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("pro_checkouts_plan_check", sql`${t.plan} in ('launchpad', 'star_power', 'limitless')`), index("pro_checkouts_uid_idx").on(t.uid)],
);
