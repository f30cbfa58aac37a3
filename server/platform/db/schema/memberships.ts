import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { bioPages } from "./bio-pages";

/**
 * Memberships: fans who support a creator every month or year (ADR 0084). A creator offers up to
 * five tiers on a bio page; a fan joins one by a hosted subscription checkout whose money goes to
 * the creator's connected account less the platform's fee. Each paid period is a sponsor session of
 * kind "membership" (payments.ts), so the ledger, earnings, the CSV, refunds, disputes and
 * reconciliation treat a renewal exactly as they treat a tip.
 */

export const MEMBERSHIP_TIER_STATUSES = ["active", "paused", "retired"] as const;
export type MembershipTierStatus = (typeof MEMBERSHIP_TIER_STATUSES)[number];

/**
 * One tier of a page. Prices are integer minor units per period. `paused` takes no new members,
 * `retired` is gone from the page; neither touches who already belongs (their subscription keeps its
 * own price). Never deleted once anyone has joined it: a membership names its tier.
 */
export const membershipTiers = pgTable(
  "membership_tiers",
  {
    id: text().primaryKey(),
    bioPageId: text()
      .notNull()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    name: text().notNull(),
    monthlyPrice: integer().notNull(),
    // Null when the tier is sold by the month only.
    yearlyPrice: integer(),
    currency: text().notNull().default("usd"),
    // What members get, one line each, in order.
    benefits: jsonb().$type<string[]>().notNull().default([]),
    // Null is unlimited; counted against memberships that still run (active, past due, cancelling).
    memberLimit: integer(),
    // Shown after joining and in the welcome mail.
    welcomeMessage: text().notNull().default(""),
    status: text().$type<MembershipTierStatus>().notNull().default("active"),
    // The tier's place on the page, smallest first.
    position: integer().notNull().default(0),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("membership_tiers_page_idx").on(t.bioPageId, t.position),
    check("membership_tiers_status_check", sql`${t.status} in ('active', 'paused', 'retired')`),
    check("membership_tiers_monthly_price_check", sql`${t.monthlyPrice} > 0`),
    check("membership_tiers_yearly_price_check", sql`${t.yearlyPrice} is null or ${t.yearlyPrice} > 0`),
    check("membership_tiers_member_limit_check", sql`${t.memberLimit} is null or ${t.memberLimit} > 0`),
    check("membership_tiers_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
  ],
);

export const MEMBERSHIP_STATUSES = ["pending", "active", "past_due", "cancelled", "ended", "expired"] as const;
/**
 * - `pending`: a checkout was opened and not paid yet (`expired` once the provider says it lapsed);
 * - `active`: paid and renewing;
 * - `past_due`: a renewal failed and the provider is retrying; still a member;
 * - `cancelled`: cancelled by the member or the creator, a member until `currentPeriodEnd`;
 * - `ended`: over (the period ran out after a cancel, the retries gave up, or ended at once).
 * Derived only from the provider's truth by the one writer (server/domains/memberships/), whatever
 * the order or number of the provider's events.
 */
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
export const MEMBERSHIP_INTERVALS = ["month", "year"] as const;
export type MembershipInterval = (typeof MEMBERSHIP_INTERVALS)[number];

export const memberships = pgTable(
  "memberships",
  {
    id: text().primaryKey(),
    tierId: text()
      .notNull()
      .references(() => membershipTiers.id),
    bioPageId: text()
      .notNull()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    // The creator paid; null once they deleted their account (the record stays for the ledger).
    creatorUid: text().references(() => user.id, { onDelete: "set null" }),
    // The signed-in fan who joined, or null for a guest (their address is enough).
    memberUid: text().references(() => user.id, { onDelete: "set null" }),
    // Where the welcome mail, receipts and posts go: the address given at checkout.
    memberEmail: text(),
    memberName: text(),
    // Kept off the public wall when true.
    private: boolean().notNull().default(false),
    provider: text().notNull(),
    // `cs_…` of the checkout that started it; unique so one checkout is one membership.
    providerCheckoutId: text().unique("memberships_provider_checkout_id_unique"),
    providerSubscriptionId: text().unique("memberships_provider_subscription_id_unique"),
    providerCustomerId: text(),
    // The creator's connected account every renewal goes to.
    destinationAccountId: text().notNull(),
    interval: text().$type<MembershipInterval>().notNull().default("month"),
    // What each period costs the member (the tier's price, or more if they chose to pay more).
    amount: integer().notNull(),
    currency: text().notNull().default("usd"),
    status: text().$type<MembershipStatus>().notNull().default("pending"),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    currentPeriodEnd: timestamp({ withTimezone: true }),
    // A message from the creator when they cancelled the membership (shown to the member).
    cancelMessage: text(),
    startedAt: timestamp({ withTimezone: true }),
    endedAt: timestamp({ withTimezone: true }),
    // The member turned posts' mail off (the one-click unsubscribe in each post): receipts still come.
    postsMuted: boolean().notNull().default(false),
    // Bumped to make every member link sent before it stop working (the member asked for new links).
    linkVersion: integer().notNull().default(1),
    // The provider's hosted checkout page, so the same browser sent back finds the same checkout.
    checkoutUrl: text(),
    expiresAt: timestamp({ withTimezone: true }),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("memberships_page_status_idx").on(t.bioPageId, t.status),
    index("memberships_tier_status_idx").on(t.tierId, t.status),
    index("memberships_creator_created_idx").on(t.creatorUid, t.created),
    index("memberships_member_uid_idx").on(t.memberUid).where(sql`${t.memberUid} is not null`),
    index("memberships_member_email_idx").on(t.memberEmail).where(sql`${t.memberEmail} is not null`),
    check("memberships_status_check", sql`${t.status} in ('pending', 'active', 'past_due', 'cancelled', 'ended', 'expired')`),
    check("memberships_interval_check", sql`${t.interval} in ('month', 'year')`),
    check("memberships_amount_check", sql`${t.amount} > 0`),
    check("memberships_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
  ],
);

/**
 * A post a creator sent by mail to their members, all of them or one tier's (`tierId`), kept for
 * the members-only page that only current members' links open.
 */
export const memberPosts = pgTable(
  "member_posts",
  {
    id: text().primaryKey(),
    bioPageId: text()
      .notNull()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    // Null: every current member of the page.
    tierId: text().references(() => membershipTiers.id),
    authorUid: text().references(() => user.id, { onDelete: "set null" }),
    subject: text().notNull(),
    body: text().notNull(),
    recipientCount: integer().notNull().default(0),
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("member_posts_page_sent_idx").on(t.bioPageId, t.sentAt)],
);

/** Which mail of a post went to which membership: a post retried after a crash mails nobody twice. */
export const memberPostDeliveries = pgTable(
  "member_post_deliveries",
  {
    postId: text()
      .notNull()
      .references(() => memberPosts.id, { onDelete: "cascade" }),
    membershipId: text()
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("member_post_deliveries_unique").on(t.postId, t.membershipId)],
);
