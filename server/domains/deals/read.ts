import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { platformFeeFor } from "#server/domains/payments/ledger/fees";
import type { Db } from "#server/platform/db/client";
import { afterTimeKeyset, microsOf, newestFirst, type TimeKeyset } from "#server/platform/db/keyset";
import { bioPages, dealFundings, deals, dealTerms, profiles, type DealOrigin, type DealSide, type DealState, type DisputeDecision } from "#server/platform/db/schema";
import { disputeOf, type DisputeRecord } from "./dispute-records";
import { dealInvoiceNumber } from "./paperwork-read";
import type { DealTermsInput } from "./terms-form";
import type { DealThreadPlace } from "./news";
import { actionsFor, type DealAction } from "./transitions";
import { readDealWork, readRefunded, readRelease, type DeliverableWork } from "./work-view";

export const MY_DEALS_PAGE_SIZE = 30;

/** One version of the terms as read: the terms, who proposed them and when. */
export type DealTermsVersion = DealTermsInput & { version: number; proposedBy: DealSide; createdAt: string };

/** What the platform keeps of a price and what reaches the creator: shown to both sides before anyone agrees. */
export type FeeSplit = { price: number; platformFee: number; creatorReceives: number; percent: number };

export function feeSplit(price: number, percent: number): FeeSplit {
  const platformFee = platformFeeFor(price, percent);
  return { price, platformFee, creatorReceives: price - platformFee, percent };
}

export type DisputeView = {
  /** `bank` when the sponsor's bank disputed the card payment. */
  openedBy: "you" | "them" | "bank";
  reason: string;
  openedAt: string;
  decision: { decision: DisputeDecision; sponsorRefund: number; creatorShare: number; reason: string; decidedAt: string; settled: boolean } | null;
};

function disputeView(row: DisputeRecord, side: DealSide): DisputeView {
  return {
    openedBy: row.openedBy === null ? "bank" : row.openedBy === side ? "you" : "them",
    reason: row.reason,
    openedAt: row.openedAt.toISOString(),
    decision:
      row.decision && row.decidedAt
        ? { decision: row.decision, sponsorRefund: row.sponsorRefund ?? 0, creatorShare: row.creatorShare ?? 0, reason: row.decisionReason ?? "", decidedAt: row.decidedAt.toISOString(), settled: row.settledAt !== null }
        : null,
  };
}

export type DealView = {
  id: string;
  origin: DealOrigin;
  title: string;
  opportunityId: string | null;
  state: DealState;
  /** The reader's side, and whether the terms on the table wait on them. */
  side: DealSide;
  waitingOnYou: boolean;
  openedBy: DealSide;
  pitch: string;
  links: string[];
  bioPageEnding: string | null;
  shortlisted: boolean;
  declineMessage: string | null;
  /** Whether the reader is who declined or withdrew. */
  endedByYou: boolean;
  accepted: { version: number; byYou: boolean; at: string } | null;
  names: Record<DealSide, string>;
  /** Every version, oldest first; the last is on the table. */
  versions: DealTermsVersion[];
  actions: DealAction[];
  /**
   * The sponsor's payment for the agreed terms: `open` while a checkout waits to be paid, `paid`
   * once the money arrived and is held. Null while nobody is paying (a closed checkout is no payment).
   */
  funding: { state: "open" | "paid"; amount: number; currency: string; paidAt: string | null } | null;
  /** Once booked: each deliverable of the accepted terms and its submissions; null before. */
  work: DeliverableWork[] | null;
  /** Once completed: what was transferred to the creator, and when. */
  release: { amount: number; currency: string; at: string } | null;
  /** A dispute on the booked deal: who opened it and why, and staff's decision once made. */
  dispute: DisputeView | null;
  /** On a booked deal: who asked to cancel it and why, while the other side has not answered. */
  cancelRequest: { byYou: boolean; reason: string | null } | null;
  /** Once cancelled: what has gone back to the sponsor so far, in minor units of the price's currency. */
  refunded: number | null;
  /** Once booked: the number of the sponsor's invoice ("INV-0001"), issued with the booking. */
  invoiceNumber: string | null;
  createdAt: string;
};

const creatorProfile = alias(profiles, "creator_profile");
const sponsorProfile = alias(profiles, "sponsor_profile");
const shown = (name: string | null) => name?.trim() || "A former member";

/**
 * A deal as one of its two sides reads it, and where their reading of its thread stands (for
 * readDealThread, so the deal page reads the row once); null for anyone else, as if there were none.
 */
export async function readDeal(db: Db, uid: string, dealId: string): Promise<{ view: DealView; thread: DealThreadPlace } | null> {
  const [row] = await db
    .select({ deal: deals, creatorName: creatorProfile.name, sponsorName: sponsorProfile.name, bioPageEnding: bioPages.customEnding })
    .from(deals)
    .leftJoin(creatorProfile, eq(creatorProfile.uid, deals.creatorUid))
    .leftJoin(sponsorProfile, eq(sponsorProfile.uid, deals.sponsorUid))
    .leftJoin(bioPages, eq(bioPages.id, deals.bioPageId))
    .where(and(eq(deals.id, dealId), or(eq(deals.creatorUid, uid), eq(deals.sponsorUid, uid))));
  if (!row) return null;
  const { deal } = row;
  const side: DealSide = deal.creatorUid === uid ? "creator" : "sponsor";
  const booked = deal.state === "funded" || deal.state === "disputed" || deal.state === "completed";
  const dispute = deal.state === "disputed" || deal.state === "completed" || deal.state === "cancelled" ? await disputeOf(db, deal.id) : null;
  const versions = await db.select().from(dealTerms).where(eq(dealTerms.dealId, deal.id)).orderBy(asc(dealTerms.version));
  const [funding] = await db
    .select({ state: dealFundings.state, amount: dealFundings.amount, currency: dealFundings.currency, paidAt: dealFundings.paidAt })
    .from(dealFundings)
    .where(and(eq(dealFundings.dealId, deal.id), inArray(dealFundings.state, ["open", "paid"])));
  const view: DealView = {
    id: deal.id,
    origin: deal.origin,
    title: deal.title,
    opportunityId: deal.opportunityId,
    state: deal.state,
    side,
    waitingOnYou: deal.waitingOn === side,
    openedBy: deal.openedBy,
    pitch: deal.pitch,
    links: deal.links,
    bioPageEnding: row.bioPageEnding,
    shortlisted: deal.shortlisted,
    declineMessage: deal.declineMessage,
    endedByYou: deal.endedBy === uid,
    accepted:
      deal.acceptedAt && deal.acceptedVersion !== null
        ? { version: deal.acceptedVersion, byYou: deal.acceptedBy === uid, at: deal.acceptedAt.toISOString() }
        : null,
    names: { creator: shown(row.creatorName), sponsor: shown(row.sponsorName) },
    versions: versions.map(({ dealId: _deal, createdAt, ...terms }) => ({ ...terms, createdAt: createdAt.toISOString() })),
    actions: actionsFor(side, deal),
    work: booked ? await readDealWork(db, deal.id, versions.find((v) => v.version === deal.acceptedVersion)?.deliverables ?? []) : null,
    release: deal.state === "completed" ? await readRelease(db, deal.id) : null,
    dispute: dispute ? disputeView(dispute, side) : null,
    cancelRequest: deal.state === "funded" && deal.cancelRequestedBy ? { byYou: deal.cancelRequestedBy === side, reason: deal.cancelReason } : null,
    refunded: deal.state === "cancelled" ? await readRefunded(db, deal.id) : null,
    invoiceNumber: booked || deal.state === "cancelled" ? await dealInvoiceNumber(db, deal.id) : null,
    funding: funding ? { state: funding.state === "paid" ? "paid" : "open", amount: funding.amount, currency: funding.currency, paidAt: funding.paidAt?.toISOString() ?? null } : null,
    createdAt: deal.createdAt.toISOString(),
  };
  const readBefore = side === "creator" ? deal.creatorReadCount : deal.sponsorReadCount;
  return { view, thread: { dealId: deal.id, side, messageCount: deal.messageCount, readBefore } };
}

export type DealListItem = {
  id: string;
  title: string;
  state: DealState;
  side: DealSide;
  otherName: string;
  waitingOnYou: boolean;
  shortlisted: boolean;
  price: number;
  currency: string;
  updatedAt: string;
  /** Messages in the thread the person has not read. */
  unread: number;
};

/**
 * "My deals": the deals the person is on, either side, most recent activity first, a page at a
 * time by keyset (each side's index, `deals_creator_updated_idx` and `deals_sponsor_updated_idx`,
 * answers its half in order). `waiting` keeps only those whose terms wait on them. `next` is the
 * last deal's place, for the door to wrap in the platform's cursor (server/platform/db/keyset.ts).
 */
export async function myDeals(db: Db, uid: string, options: { waitingOnly: boolean; after?: TimeKeyset | null; pageSize?: number }): Promise<{ items: DealListItem[]; next: TimeKeyset | null }> {
  const size = options.pageSize ?? MY_DEALS_PAGE_SIZE;
  const halves = await Promise.all((["creator", "sponsor"] as const).map((side) => dealsOnSide(db, uid, side, { ...options, size })));
  const rows = halves.flat().sort(newestFirst);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { items: page.map(({ micros: _micros, ...item }) => item), next: rows.length > size && last ? { micros: last.micros, id: last.id } : null };
}

async function dealsOnSide(db: Db, uid: string, side: DealSide, options: { waitingOnly: boolean; after?: TimeKeyset | null; size: number }): Promise<(DealListItem & { micros: string })[]> {
  const mine = side === "creator" ? deals.creatorUid : deals.sponsorUid;
  const other = side === "creator" ? deals.sponsorUid : deals.creatorUid;
  const rows = await db
    .select({
      id: deals.id,
      title: deals.title,
      state: deals.state,
      waitingOn: deals.waitingOn,
      shortlisted: deals.shortlisted,
      updatedAt: deals.updatedAt,
      micros: microsOf(deals.updatedAt),
      otherName: profiles.name,
      price: dealTerms.price,
      currency: dealTerms.currency,
      unread: sql<number>`${deals.messageCount} - ${side === "creator" ? deals.creatorReadCount : deals.sponsorReadCount}`,
    })
    .from(deals)
    .innerJoin(dealTerms, and(eq(dealTerms.dealId, deals.id), eq(dealTerms.version, deals.latestVersion)))
    .leftJoin(profiles, eq(profiles.uid, other))
    .where(and(eq(mine, uid), options.waitingOnly ? eq(deals.waitingOn, side) : undefined, options.after ? afterTimeKeyset(deals.updatedAt, deals.id, options.after) : undefined))
    .orderBy(desc(deals.updatedAt), desc(deals.id))
    .limit(options.size + 1);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    state: row.state,
    side,
    otherName: shown(row.otherName),
    waitingOnYou: row.waitingOn === side,
    shortlisted: row.shortlisted,
    price: row.price,
    currency: row.currency,
    updatedAt: row.updatedAt.toISOString(),
    unread: Number(row.unread),
    micros: row.micros,
  }));
}

export type InboxItem = DealListItem & { pitch: string };

/**
 * The poster's inbox for one of their opportunities: every application or offer on it, the
 * shortlisted ones first, then newest first. Only the poster reads it (the query says so).
 */
export async function dealsOnOpportunity(db: Db, posterUid: string, opportunityId: string): Promise<InboxItem[]> {
  const rows = await db
    .select({ deal: deals, otherName: profiles.name, price: dealTerms.price, currency: dealTerms.currency })
    .from(deals)
    .innerJoin(dealTerms, and(eq(dealTerms.dealId, deals.id), eq(dealTerms.version, deals.latestVersion)))
    .leftJoin(profiles, eq(profiles.uid, sql`case when ${deals.openedBy} = 'creator' then ${deals.creatorUid} else ${deals.sponsorUid} end`))
    .where(and(eq(deals.opportunityId, opportunityId), or(eq(deals.creatorUid, posterUid), eq(deals.sponsorUid, posterUid)), sql`${deals.openedBy} <> case when ${deals.creatorUid} = ${posterUid} then 'creator' else 'sponsor' end`))
    .orderBy(desc(deals.shortlisted), desc(deals.createdAt))
    .limit(200);
  return rows.map(({ deal, otherName, price, currency }) => {
    const side: DealSide = deal.openedBy === "creator" ? "sponsor" : "creator";
    return {
      id: deal.id,
      title: deal.title,
      state: deal.state,
      side,
      otherName: shown(otherName),
      waitingOnYou: deal.waitingOn === side,
      shortlisted: deal.shortlisted,
      price,
      currency,
      updatedAt: deal.updatedAt.toISOString(),
      unread: deal.messageCount - (side === "creator" ? deal.creatorReadCount : deal.sponsorReadCount),
      pitch: deal.pitch,
    };
  });
}
