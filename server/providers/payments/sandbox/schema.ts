import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgSchema, text, timestamp, unique } from "drizzle-orm/pg-core";

/**
 * The built-in sandbox payment provider's own records (server/providers/payments/sandbox/):
 * what Stripe would keep on its side, kept here so that payments work offline.
 * No foreign keys to our tables: like Stripe, the sandbox knows our ids only as
 * metadata. Every creating call's idempotency key is unique per table, so the
 * same key returns the same object.
 *
 * The tables live in a PostgreSQL schema of their own, `sandbox`, created by
 * the sandbox's own migrations (./migrations/, drizzle.sandbox.config.ts) only
 * where the sandbox is the configured provider. They keep the names they had
 * in `public` before, so a database that had them there (moved by the main
 * chain's migration 0022) is the same as one the sandbox made.
 */
export const sandboxSchema = pgSchema("sandbox");

export const sandboxAccounts = sandboxSchema.table("sandbox_accounts", {
  id: text().primaryKey(),
  idempotencyKey: text().unique("sandbox_accounts_idempotency_key_unique"),
  email: text().notNull(),
  accountType: text().notNull(),
  // Our user id, as Stripe's account metadata would carry it.
  uid: text().notNull(),
  legalName: text(),
  country: text(),
  bankLast4: text(),
  chargesEnabled: boolean().notNull().default(false),
  payoutsEnabled: boolean().notNull().default(false),
  detailsSubmitted: boolean().notNull().default(false),
  // The one onboarding link that works (as Stripe's account links, single use): a newer link or completing the form ends it.
  onboardingLinkId: text(),
  created: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const SANDBOX_CHECKOUT_STATUSES = ["open", "complete", "expired"] as const;
/** What a checkout pays for, as its metadata.purpose says at Stripe: a tip ("sponsor") or a deal's held payment. */
export const SANDBOX_CHECKOUT_PURPOSES = ["sponsor", "deal"] as const;

/**
 * A hosted checkout at /sandbox/checkout/:id: a destination charge to `accountId`
 * (purpose "sponsor"), or a charge the platform holds for a deal (purpose "deal":
 * no account, no application fee; the money leaves later by transfer or refund).
 */
export const sandboxCheckouts = sandboxSchema.table(
  "sandbox_checkouts",
  {
    id: text().primaryKey(),
    idempotencyKey: text().unique("sandbox_checkouts_idempotency_key_unique"),
    accountId: text().references(() => sandboxAccounts.id),
    // Our sponsor_sessions row id, or a deal's deal_fundings row id (Stripe's client_reference_id / metadata).
    sessionId: text(),
    purpose: text().$type<(typeof SANDBOX_CHECKOUT_PURPOSES)[number]>().notNull().default("sponsor"),
    // A held checkout's deal (metadata.deal_id) and the transfer group its charge, transfers and refunds share.
    dealId: text(),
    transferGroup: text(),
    productName: text().notNull(),
    description: text(),
    amount: integer().notNull(),
    currency: text().notNull(),
    applicationFeeAmount: integer().notNull().default(0),
    customerEmail: text(),
    successUrl: text().notNull(),
    cancelUrl: text().notNull(),
    status: text().$type<(typeof SANDBOX_CHECKOUT_STATUSES)[number]>().notNull().default("open"),
    paymentIntentId: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sandbox_checkouts_status_check", sql`${t.status} in ('open', 'complete', 'expired')`),
    check("sandbox_checkouts_amount_check", sql`${t.amount} > 0 and ${t.applicationFeeAmount} >= 0 and ${t.applicationFeeAmount} <= ${t.amount}`),
    // A tip goes to its account; a held payment goes to no account and carries no fee of ours.
    check(
      "sandbox_checkouts_purpose_check",
      sql`(${t.purpose} = 'sponsor' and ${t.accountId} is not null) or (${t.purpose} = 'deal' and ${t.accountId} is null and ${t.applicationFeeAmount} = 0 and ${t.transferGroup} is not null)`,
    ),
    // The expiry sweep looks for open checkouts past their time.
    index("sandbox_checkouts_open_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * A successful card payment (Stripe's PaymentIntent with its one charge and balance transaction).
 * A held charge (a deal's) has no account: it stays on the platform's balance until transfers
 * (sandboxTransfers) and refunds take it away.
 */
export const sandboxPayments = sandboxSchema.table(
  "sandbox_payments",
  {
    id: text().primaryKey(),
    chargeId: text().notNull().unique("sandbox_payments_charge_id_unique"),
    // One payment per checkout, whatever the double submits: the database says so too.
    // A checkout's payment, or a membership invoice's (the first period's or a renewal's): one of the two.
    checkoutId: text()
      .unique("sandbox_payments_checkout_id_unique")
      .references(() => sandboxCheckouts.id),
    // One payment per paid membership invoice, whatever the retries: the database says so too.
    membershipInvoiceId: text()
      .unique("sandbox_payments_membership_invoice_id_unique")
      .references((): AnyPgColumn => sandboxMembershipInvoices.id),
    accountId: text().references(() => sandboxAccounts.id),
    amount: integer().notNull(),
    // The processing fee (2.9 % + 30¢, taken from the platform's balance), the platform's
    // application fee, and what reaches the account (gross less the application fee), as on Stripe;
    // for a held charge, no fee of ours and nothing reaches an account (0).
    fee: integer().notNull(),
    applicationFee: integer().notNull(),
    net: integer().notNull(),
    currency: text().notNull(),
    email: text().notNull(),
    cardBrand: text().notNull(),
    cardLast4: text().notNull(),
    amountRefunded: integer().notNull().default(0),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sandbox_payments_account_created_idx").on(t.accountId, t.created),
    check("sandbox_payments_source_check", sql`num_nonnulls(${t.checkoutId}, ${t.membershipInvoiceId}) = 1`),
  ],
);

/**
 * A refund of a whole payment: the transfer and the application fee come back, the processing fee
 * does not. A held charge is refunded in parts (`amount` of each), from the platform's balance alone.
 */
export const sandboxRefunds = sandboxSchema.table(
  "sandbox_refunds",
  {
    id: text().primaryKey(),
    idempotencyKey: text().unique("sandbox_refunds_idempotency_key_unique"),
    paymentId: text()
      .notNull()
      .references(() => sandboxPayments.id),
    amount: integer().notNull(),
    applicationFeeRefunded: integer().notNull(),
    currency: text().notNull(),
    status: text().notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_refunds_payment_idx").on(t.paymentId)],
);

/**
 * Money moved from a held charge to a connected account (Stripe's transfer with a
 * source_transaction): a deal's release. What is transferred, with what was refunded, never
 * exceeds the charge (./transfers.ts checks it with the payment row locked).
 */
export const sandboxTransfers = sandboxSchema.table(
  "sandbox_transfers",
  {
    id: text().primaryKey(),
    idempotencyKey: text().unique("sandbox_transfers_idempotency_key_unique"),
    // The held payment whose charge the money comes from.
    paymentId: text()
      .notNull()
      .references(() => sandboxPayments.id),
    accountId: text()
      .notNull()
      .references(() => sandboxAccounts.id),
    amount: integer().notNull(),
    currency: text().notNull(),
    transferGroup: text().notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sandbox_transfers_amount_check", sql`${t.amount} > 0`),
    index("sandbox_transfers_payment_idx").on(t.paymentId),
    index("sandbox_transfers_account_idx").on(t.accountId, t.created),
  ],
);

/**
 * The sandbox's webhook outbox: each event is stored in the transaction that
 * made the change it reports, then delivered (signed) to our own webhook
 * endpoint by a worker, with retries, until the endpoint answers 2xx
 * (`deliveredAt`) or the retries run out (`failedAt`).
 */
export const sandboxEvents = sandboxSchema.table(
  "sandbox_events",
  {
    id: text().primaryKey(),
    type: text().notNull(),
    // The PaymentEvent exactly as it is sent (server/providers/payments/events.ts).
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true }),
    failedAt: timestamp({ withTimezone: true }),
    lastError: text(),
  },
  (t) => [index("sandbox_events_due_idx").on(t.nextAttemptAt).where(sql`${t.deliveredAt} is null and ${t.failedAt} is null`)],
);

/* Pro billing: prices, customers, Pro checkouts, subscriptions and one-time purchases, as Stripe keeps them. */

/** A price found by its lookup key (unique), so ensuring the plans twice never makes a second one. */
export const sandboxPrices = sandboxSchema.table("sandbox_prices", {
  id: text().primaryKey(),
  lookupKey: text().notNull().unique("sandbox_prices_lookup_key_unique"),
  productName: text().notNull(),
  amount: integer().notNull(),
  currency: text().notNull(),
  // "month" | "year", or null for a one-time price.
  interval: text(),
  created: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A billing customer and its default card (brand, last four, and whether the test card fails renewals: 4000 0000 0000 0341). */
export const sandboxCustomers = sandboxSchema.table("sandbox_customers", {
  id: text().primaryKey(),
  idempotencyKey: text().unique("sandbox_customers_idempotency_key_unique"),
  uid: text().notNull(),
  email: text().notNull(),
  cardBrand: text(),
  cardLast4: text(),
  cardFailsRenewal: boolean().notNull().default(false),
  created: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A hosted Pro checkout at /sandbox/pro-checkout/:id: a subscription, or a one-time payment for Limitless. */
export const sandboxProCheckouts = sandboxSchema.table(
  "sandbox_pro_checkouts",
  {
    id: text().primaryKey(),
    idempotencyKey: text().unique("sandbox_pro_checkouts_idempotency_key_unique"),
    customerId: text()
      .notNull()
      .references(() => sandboxCustomers.id),
    priceId: text()
      .notNull()
      .references(() => sandboxPrices.id),
    mode: text().$type<"subscription" | "payment">().notNull(),
    uid: text().notNull(),
    successUrl: text().notNull(),
    cancelUrl: text().notNull(),
    status: text().$type<(typeof SANDBOX_CHECKOUT_STATUSES)[number]>().notNull().default("open"),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sandbox_pro_checkouts_status_check", sql`${t.status} in ('open', 'complete', 'expired')`),
    check("sandbox_pro_checkouts_mode_check", sql`${t.mode} in ('subscription', 'payment')`),
  ],
);

export const sandboxSubscriptions = sandboxSchema.table(
  "sandbox_subscriptions",
  {
    id: text().primaryKey(),
    customerId: text()
      .notNull()
      .references(() => sandboxCustomers.id),
    priceId: text()
      .notNull()
      .references(() => sandboxPrices.id),
    // One subscription per paid checkout, whatever the double submits.
    checkoutId: text().unique("sandbox_subscriptions_checkout_id_unique"),
    status: text().notNull(),
    currentPeriodEnd: timestamp({ withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sandbox_subscriptions_status_check", sql`${t.status} in ('active', 'past_due', 'canceled')`),
    index("sandbox_subscriptions_customer_idx").on(t.customerId),
  ],
);

/** A paid one-time purchase (Limitless): its payment intent. */
export const sandboxOneTimePurchases = sandboxSchema.table(
  "sandbox_one_time_purchases",
  {
    id: text().primaryKey(),
    customerId: text()
      .notNull()
      .references(() => sandboxCustomers.id),
    priceId: text()
      .notNull()
      .references(() => sandboxPrices.id),
    checkoutId: text().notNull().unique("sandbox_one_time_purchases_checkout_id_unique"),
    amount: integer().notNull(),
    currency: text().notNull(),
    paidAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("sandbox_one_time_purchases_customer_idx").on(t.customerId)],
);

/**
 * A chargeback on a sandbox payment, opened, won or lost from the sandbox's
 * dashboard or the test hook (./disputes.ts). One per payment, as a card
 * network allows one chargeback per charge.
 */
export const sandboxDisputes = sandboxSchema.table("sandbox_disputes", {
  id: text().primaryKey(),
  paymentIntentId: text()
    .notNull()
    .unique("sandbox_disputes_payment_unique")
    .references(() => sandboxPayments.id),
  amount: integer().notNull(),
  currency: text().notNull(),
  reason: text().notNull(),
  // needs_response, won or lost (the sandbox has no evidence step, so never under_review).
  status: text().notNull(),
  // The dispute fee taken from the platform's balance (Stripe's 1500 in USD).
  fee: integer().notNull(),
  evidenceDueBy: timestamp({ withTimezone: true }).notNull(),
  created: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/* Memberships (ADR 0084): a fan's subscription whose every paid invoice is a destination charge to the creator's account. */

export const SANDBOX_MEMBERSHIP_STATUSES = ["active", "past_due", "canceled"] as const;
export type SandboxMembershipStatus = (typeof SANDBOX_MEMBERSHIP_STATUSES)[number];
export const SANDBOX_INVOICE_STATUSES = ["paid", "open", "uncollectible", "void"] as const;
export const SANDBOX_INVOICE_REASONS = ["subscription_create", "subscription_cycle", "subscription_update"] as const;

/**
 * A member as a billing customer: made by the membership checkout that is paid (members need no
 * account of ours), with the card on file and whether it is the test card whose later charges
 * fail (4000 0000 0000 0341).
 */
export const sandboxMembershipCustomers = sandboxSchema.table("sandbox_membership_customers", {
  id: text().primaryKey(),
  email: text().notNull(),
  cardBrand: text(),
  cardLast4: text(),
  cardFailsRenewal: boolean().notNull().default(false),
  created: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A hosted membership checkout at /sandbox/membership-checkout/:id, in subscription mode, paying to `accountId`. */
export const sandboxMembershipCheckouts = sandboxSchema.table(
  "sandbox_membership_checkouts",
  {
    id: text().primaryKey(),
    idempotencyKey: text().unique("sandbox_membership_checkouts_idempotency_key_unique"),
    accountId: text()
      .notNull()
      .references(() => sandboxAccounts.id),
    // Our memberships row id (Stripe's client_reference_id / metadata.membership_id).
    membershipId: text().notNull(),
    productName: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    interval: text().$type<"month" | "year">().notNull(),
    // The platform's share of every invoice in basis points (Stripe's application_fee_percent × 100).
    applicationFeeBasisPoints: integer().notNull().default(0),
    customerEmail: text(),
    successUrl: text().notNull(),
    cancelUrl: text().notNull(),
    status: text().$type<(typeof SANDBOX_CHECKOUT_STATUSES)[number]>().notNull().default("open"),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sandbox_membership_checkouts_status_check", sql`${t.status} in ('open', 'complete', 'expired')`),
    check("sandbox_membership_checkouts_interval_check", sql`${t.interval} in ('month', 'year')`),
    check("sandbox_membership_checkouts_amount_check", sql`${t.amount} > 0 and ${t.applicationFeeBasisPoints} between 0 and 10000`),
    index("sandbox_membership_checkouts_open_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * A membership's subscription: what the next renewal charges (`amount`, `interval`, changed from
 * the next renewal on), where it goes (`accountId`, less the application fee), and its current
 * period. Ends at the period's end when `cancelAtPeriodEnd`, or when a failed renewal stays unpaid.
 */
export const sandboxMembershipSubscriptions = sandboxSchema.table(
  "sandbox_membership_subscriptions",
  {
    id: text().primaryKey(),
    // One subscription per paid checkout, whatever the double submits.
    checkoutId: text()
      .notNull()
      .unique("sandbox_membership_subscriptions_checkout_id_unique")
      .references(() => sandboxMembershipCheckouts.id),
    customerId: text()
      .notNull()
      .references(() => sandboxMembershipCustomers.id),
    accountId: text()
      .notNull()
      .references(() => sandboxAccounts.id),
    membershipId: text().notNull(),
    productName: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    interval: text().$type<"month" | "year">().notNull(),
    applicationFeeBasisPoints: integer().notNull().default(0),
    status: text().$type<SandboxMembershipStatus>().notNull(),
    currentPeriodStart: timestamp({ withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp({ withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    endedAt: timestamp({ withTimezone: true }),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sandbox_membership_subscriptions_status_check", sql`${t.status} in ('active', 'past_due', 'canceled')`),
    check("sandbox_membership_subscriptions_interval_check", sql`${t.interval} in ('month', 'year')`),
    check("sandbox_membership_subscriptions_amount_check", sql`${t.amount} > 0 and ${t.applicationFeeBasisPoints} between 0 and 10000`),
    // The test clock looks for running subscriptions whose period is over.
    index("sandbox_membership_subscriptions_due_idx").on(t.currentPeriodEnd).where(sql`${t.status} in ('active', 'past_due')`),
    index("sandbox_membership_subscriptions_customer_idx").on(t.customerId),
    index("sandbox_membership_subscriptions_account_idx").on(t.accountId),
  ],
);

/**
 * One invoice per period of a subscription: paid (with its own payment, a row of sandbox_payments),
 * open (its payment failed; retried when the card changes), uncollectible (retries given up) or
 * void. Unique per subscription and period start, so no period is ever charged twice.
 */
export const sandboxMembershipInvoices = sandboxSchema.table(
  "sandbox_membership_invoices",
  {
    id: text().primaryKey(),
    subscriptionId: text()
      .notNull()
      .references(() => sandboxMembershipSubscriptions.id),
    amount: integer().notNull(),
    currency: text().notNull(),
    status: text().$type<(typeof SANDBOX_INVOICE_STATUSES)[number]>().notNull(),
    periodStart: timestamp({ withTimezone: true }).notNull(),
    periodEnd: timestamp({ withTimezone: true }).notNull(),
    // The payment of a paid invoice (sandbox_payments.id); null while unpaid.
    paymentIntentId: text(),
    paidAt: timestamp({ withTimezone: true }),
    reason: text().$type<(typeof SANDBOX_INVOICE_REASONS)[number]>().notNull(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("sandbox_membership_invoices_period_unique").on(t.subscriptionId, t.periodStart),
    check("sandbox_membership_invoices_status_check", sql`${t.status} in ('paid', 'open', 'uncollectible', 'void')`),
    check("sandbox_membership_invoices_paid_check", sql`(${t.status} = 'paid') = (${t.paymentIntentId} is not null)`),
  ],
);
