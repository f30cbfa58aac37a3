import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { bioPages } from "./bio-pages";
import { opportunityPosts } from "./opportunities";

/** The two sides of a deal; each deal has exactly one of each. */
export const DEAL_SIDES = ["creator", "sponsor"] as const;
export type DealSide = (typeof DEAL_SIDES)[number];

/**
 * Where a deal stands (server/domains/deals/transitions.ts is the one table of moves):
 * `proposed` while terms are on the table and one side is to answer, `agreed` once the other side
 * accepted them, `funded` ("booked") once the sponsor's payment for them arrived and the platform
 * holds it, `completed` once every deliverable was approved and the creator's share released,
 * `cancelled` when a booked deal ends without the work (both agreed, or a due date passed) and the
 * sponsor's money goes back; `declined` and `withdrawn` end it before any money moved. `disputed`
 * when a side (or the sponsor's bank) disputed a booked deal: the money is frozen until staff
 * decide, and the deal then ends `completed` (the creator was paid some) or `cancelled` (none).
 */
export const DEAL_STATES = ["proposed", "agreed", "funded", "disputed", "completed", "cancelled", "declined", "withdrawn"] as const;
export type DealState = (typeof DEAL_STATES)[number];
/** The states in which a deal is still going: one of these per person and opportunity (or pair, for a direct offer). */
export const LIVE_DEAL_STATES = ["proposed", "agreed", "funded", "disputed"] as const satisfies readonly DealState[];

/** How a deal began: a creator's application to a sponsor's brief, or a sponsor's offer. */
export const DEAL_ORIGINS = ["application", "offer"] as const;
export type DealOrigin = (typeof DEAL_ORIGINS)[number];

/**
 * A deal between one creator and one sponsor, about an opportunity or begun directly. The terms
 * live in `deal_terms`, one row per version; `latest_version` is the one on the table and
 * `waiting_on` the side that is to answer it (null once nobody is). The people are kept as
 * `set null` so that a deal with money behind it outlives an account's deletion, as payments do.
 */
export const deals = pgTable(
  "deals",
  {
    id: text().primaryKey(),
    origin: text().$type<DealOrigin>().notNull(),
    opportunityId: text().references(() => opportunityPosts.id, { onDelete: "set null" }),
    // The title of the opportunity when the deal began: the deal still reads right if the post goes.
    title: text().notNull(),
    creatorUid: text().references(() => user.id, { onDelete: "set null" }),
    sponsorUid: text().references(() => user.id, { onDelete: "set null" }),
    // The side that opened the deal; the other side received it (and, with a post, posted it).
    openedBy: text().$type<DealSide>().notNull(),
    state: text().$type<DealState>().notNull().default("proposed"),
    waitingOn: text().$type<DealSide>(),
    latestVersion: integer().notNull().default(1),
    // The pitch or offer in the opener's words, and the creator's bio page shown with it.
    pitch: text().notNull(),
    links: text().array().notNull().default(sql`'{}'::text[]`),
    bioPageId: text().references(() => bioPages.id, { onDelete: "set null" }),
    // The receiving side's private marker on its inbox.
    shortlisted: boolean().notNull().default(false),
    // Who declined, withdrew or cancelled, and why when they said (a decline's message).
    endedBy: text(),
    declineMessage: text(),
    // On a booked deal: the side that asked to cancel it, and why; the other side may agree.
    cancelRequestedBy: text().$type<DealSide>(),
    cancelReason: text(),
    // Who accepted which version, when, and from which network (the request's client address).
    acceptedVersion: integer(),
    acceptedBy: text(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedFrom: text(),
    // The thread: how many messages it holds, and how far each side has read it.
    messageCount: integer().notNull().default(0),
    creatorReadCount: integer().notNull().default(0),
    sponsorReadCount: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("deals_read_counts_check", sql`${t.creatorReadCount} between 0 and ${t.messageCount} and ${t.sponsorReadCount} between 0 and ${t.messageCount}`),
    check("deals_origin_check", sql`${t.origin} in ('application', 'offer')`),
    check("deals_opened_by_check", sql`${t.openedBy} in ('creator', 'sponsor')`),
    check("deals_state_check", sql`${t.state} in ('proposed', 'agreed', 'funded', 'disputed', 'completed', 'cancelled', 'declined', 'withdrawn')`),
    check("deals_waiting_on_check", sql`${t.waitingOn} is null or ${t.waitingOn} in ('creator', 'sponsor')`),
    check("deals_waiting_only_while_proposed_check", sql`(${t.state} = 'proposed') = (${t.waitingOn} is not null)`),
    check("deals_latest_version_check", sql`${t.latestVersion} >= 1`),
    check("deals_pitch_length_check", sql`char_length(${t.pitch}) <= 2000`),
    check("deals_links_count_check", sql`cardinality(${t.links}) <= 5`),
    check("deals_accepted_check", sql`(${t.state} in ('agreed', 'funded', 'disputed', 'completed', 'cancelled')) <= (${t.acceptedAt} is not null)`),
    // "My deals", newest activity first, for each side.
    index("deals_creator_updated_idx").on(t.creatorUid, t.updatedAt, t.id),
    index("deals_sponsor_updated_idx").on(t.sponsorUid, t.updatedAt, t.id),
    // One live deal per person and opportunity: a second application or offer is the first one again.
    uniqueIndex("deals_one_live_per_opportunity_idx")
      .on(t.opportunityId, t.creatorUid, t.sponsorUid)
      .where(sql`${t.opportunityId} is not null and ${t.state} in ('proposed', 'agreed', 'funded', 'disputed')`),
    // A poster's inbox: the deals on one opportunity.
    index("deals_opportunity_created_idx").on(t.opportunityId, t.createdAt),
    // The back office's list of every deal, newest activity first, a page at a time by keyset.
    index("deals_updated_idx").on(t.updatedAt, t.id),
    // The release sweep: the booked deals, few beside all the others.
    index("deals_funded_idx").on(t.updatedAt).where(sql`${t.state} = 'funded'`),
  ],
);

/** One deliverable of the terms: what is made, where it goes, and by when (a calendar day). */
export type DealDeliverable = { channel: string; format: string; dueDate: string };

/** Usage rights the sponsor gets in the content. */
export const USAGE_RIGHTS = ["none", "organic", "paid"] as const;
export type UsageRights = (typeof USAGE_RIGHTS)[number];

/**
 * One version of a deal's terms, as one side proposed it. Never changed once written: a counter
 * is a new version, so every version stays and the deal can show what changed.
 */
export const dealTerms = pgTable(
  "deal_terms",
  {
    dealId: text()
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    version: integer().notNull(),
    proposedBy: text().$type<DealSide>().notNull(),
    // Integer minor units of `currency`.
    price: integer().notNull(),
    currency: text().notNull().default("usd"),
    deliverables: jsonb().$type<DealDeliverable[]>().notNull(),
    usageRights: text().$type<UsageRights>().notNull(),
    // How long the usage rights last, in days; 0 with `none`.
    usageDays: integer().notNull().default(0),
    // Days after the last deliverable in which the creator works with no competing sponsor.
    exclusivityDays: integer().notNull().default(0),
    disclosureRequired: boolean().notNull().default(true),
    // Whether the sponsor approves each deliverable before it goes live, and how long silence takes to approve.
    sponsorApproves: boolean().notNull().default(true),
    autoApproveDays: integer().notNull().default(3),
    // What the proposer said with this version.
    message: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.dealId, t.version] }),
    check("deal_terms_proposed_by_check", sql`${t.proposedBy} in ('creator', 'sponsor')`),
    check("deal_terms_price_check", sql`${t.price} > 0`),
    check("deal_terms_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
    check("deal_terms_usage_rights_check", sql`${t.usageRights} in ('none', 'organic', 'paid')`),
    check("deal_terms_days_check", sql`${t.usageDays} between 0 and 3650 and ${t.exclusivityDays} between 0 and 365 and ${t.autoApproveDays} between 1 and 30`),
    check("deal_terms_deliverables_check", sql`jsonb_typeof(${t.deliverables}) = 'array' and jsonb_array_length(${t.deliverables}) between 1 and 10`),
    check("deal_terms_message_length_check", sql`char_length(${t.message}) <= 2000`),
  ],
);

/**
 * Every move a deal made, in order: who did what, from which state to which, from which network.
 * What a dispute's reviewer and a property test read to see that states only moved along the table.
 */
export const dealActivity = pgTable(
  "deal_activity",
  {
    dealId: text()
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    seq: integer().notNull(),
    action: text().notNull(),
    actorUid: text(),
    fromState: text().$type<DealState>(),
    toState: text().$type<DealState>().notNull(),
    termsVersion: integer(),
    network: text(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.seq] })],
);

/** One message in a deal's thread, numbered from 1 in the order written. */
export const dealMessages = pgTable(
  "deal_messages",
  {
    dealId: text()
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    seq: integer().notNull(),
    // Null once the author deleted their account: the thread keeps what was said.
    authorUid: text().references(() => user.id, { onDelete: "set null" }),
    authorSide: text().$type<DealSide>().notNull(),
    body: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.dealId, t.seq] }),
    check("deal_messages_side_check", sql`${t.authorSide} in ('creator', 'sponsor')`),
    check("deal_messages_body_check", sql`char_length(${t.body}) <= 4000`),
  ],
);

export type DealTerms = typeof dealTerms.$inferSelect;

/**
 * What became of one checkout for a deal: `open` while the sponsor may pay it, `paid` once the
 * provider says the money arrived, `expired` or `failed` when it will not; `refunding` once the deal
 * was cancelled and what is held is to go back, `refunded` once it has.
 */
export const DEAL_FUNDING_STATES = ["open", "paid", "expired", "failed", "refunding", "refunded"] as const;
export type DealFundingState = (typeof DEAL_FUNDING_STATES)[number];

/**
 * One attempt to pay for a deal's agreed terms: a hosted checkout whose charge the platform holds
 * (separate charges and transfers). The amount and the platform's share are fixed when the
 * checkout opens, from the accepted version, so what the sponsor paid is what the screens showed.
 * The money itself is in `ledger_entries` (kinds `deal_*`), never here.
 */
export const dealFundings = pgTable(
  "deal_fundings",
  {
    id: text().primaryKey(),
    dealId: text()
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    termsVersion: integer().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    // The platform's share of `amount`, kept when the deal releases the rest to the creator.
    platformFee: integer().notNull(),
    state: text().$type<DealFundingState>().notNull().default("open"),
    checkoutId: text(),
    checkoutUrl: text(),
    expiresAt: timestamp({ withTimezone: true }),
    // Set once paid: what a refund, a transfer and a card dispute name.
    paymentIntentId: text().unique(),
    chargeId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("deal_fundings_state_check", sql`${t.state} in ('open', 'paid', 'expired', 'failed', 'refunding', 'refunded')`),
    check("deal_fundings_amount_check", sql`${t.amount} > 0 and ${t.platformFee} between 0 and ${t.amount}`),
    check("deal_fundings_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
    check("deal_fundings_paid_check", sql`(${t.state} in ('paid', 'refunding', 'refunded')) = (${t.paymentIntentId} is not null)`),
    // The refund sweep: cancelled deals' money still to go back.
    index("deal_fundings_refunding_idx").on(t.dealId).where(sql`${t.state} = 'refunding'`),
    // One checkout open or paid per deal: a second click finds the first, a second payment is refused.
    uniqueIndex("deal_fundings_one_live_idx").on(t.dealId).where(sql`${t.state} in ('open', 'paid')`),
  ],
);

/** Where one submission of a deliverable stands: waiting on the sponsor, approved, or sent back. */
export const SUBMISSION_STATES = ["submitted", "approved", "changes_requested"] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

/**
 * The creator's work on a booked deal: each time they hand in one deliverable of the accepted
 * terms (`deliverable`, its place in that version's list) with where it went live. A sponsor who
 * asks for changes gets the next `round`; a submission nobody reviews by `auto_approve_at` is
 * approved by the platform (server/domains/deals/work.ts).
 */
export const dealSubmissions = pgTable(
  "deal_submissions",
  {
    dealId: text()
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    deliverable: integer().notNull(),
    round: integer().notNull(),
    liveUrl: text().notNull(),
    note: text().notNull().default(""),
    state: text().$type<SubmissionState>().notNull().default("submitted"),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Null when the sponsor does not approve first: such work is approved as it is handed in.
    autoApproveAt: timestamp({ withTimezone: true }),
    reviewedAt: timestamp({ withTimezone: true }),
    // Null when the platform approved it (the window passed) rather than the sponsor.
    reviewedBy: text(),
    reviewNote: text(),
  },
  (t) => [
    primaryKey({ columns: [t.dealId, t.deliverable, t.round] }),
    check("deal_submissions_state_check", sql`${t.state} in ('submitted', 'approved', 'changes_requested')`),
    check("deal_submissions_numbers_check", sql`${t.deliverable} between 0 and 9 and ${t.round} >= 1`),
    check("deal_submissions_note_check", sql`char_length(${t.note}) <= 2000 and char_length(coalesce(${t.reviewNote}, '')) <= 2000`),
    // The auto-approval sweep: submissions still waiting, soonest first.
    index("deal_submissions_waiting_idx").on(t.autoApproveAt).where(sql`${t.state} = 'submitted'`),
  ],
);

/** What staff decided about a disputed deal's held money. */
export const DISPUTE_DECISIONS = ["release", "refund", "split"] as const;
export type DisputeDecision = (typeof DISPUTE_DECISIONS)[number];

/**
 * A disputed booked deal (server/domains/deals/disputes.ts): who opened it and why (a side, or
 * the platform when the sponsor's bank disputed the card payment), then staff's decision with the
 * amounts it moves, and when the money was moved. At most one per deal: a decided dispute ends it.
 */
export const dealDisputes = pgTable(
  "deal_disputes",
  {
    dealId: text()
      .primaryKey()
      .references(() => deals.id, { onDelete: "cascade" }),
    // Null when the platform opened it (a card dispute on the held charge).
    openedBy: text().$type<DealSide>(),
    openedByUid: text(),
    reason: text().notNull(),
    openedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    decision: text().$type<DisputeDecision>(),
    // What the decision sends back to the sponsor and on to the creator; the platform keeps the rest.
    sponsorRefund: integer(),
    creatorShare: integer(),
    decidedBy: text(),
    decidedByEmail: text(),
    decisionReason: text(),
    decidedAt: timestamp({ withTimezone: true }),
    settledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("deal_disputes_opened_by_check", sql`${t.openedBy} is null or ${t.openedBy} in ('creator', 'sponsor')`),
    check("deal_disputes_decision_check", sql`${t.decision} is null or ${t.decision} in ('release', 'refund', 'split')`),
    check("deal_disputes_reason_check", sql`char_length(${t.reason}) between 1 and 2000 and char_length(coalesce(${t.decisionReason}, '')) <= 2000`),
    check(
      "deal_disputes_decided_check",
      sql`(${t.decision} is null) = (${t.decidedAt} is null) and (${t.decision} is null) = (${t.sponsorRefund} is null) and (${t.decision} is null) = (${t.creatorShare} is null) and (${t.sponsorRefund} is null or (${t.sponsorRefund} >= 0 and ${t.creatorShare} >= 0))`,
    ),
    check("deal_disputes_settled_check", sql`${t.settledAt} is null or ${t.decidedAt} is not null`),
    // The settlement sweep: decided, money not moved yet.
    index("deal_disputes_unsettled_idx").on(t.decidedAt).where(sql`${t.decidedAt} is not null and ${t.settledAt} is null`),
    // The back office's queue: open disputes, oldest first.
    index("deal_disputes_open_idx").on(t.openedAt).where(sql`${t.decidedAt} is null`),
  ],
);
