import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { platformFeeFor } from "#server/domains/payments/ledger/fees";
import type { Db } from "#server/platform/db/client";
import { bioPages, deals, dealTerms, profiles, type DealOrigin, type DealSide, type DealState } from "#server/platform/db/schema";
import type { DealTermsInput } from "./terms-form";
import { actionsFor, type DealAction } from "./transitions";

export const MY_DEALS_PAGE_SIZE = 30;

/** One version of the terms as read: the terms, who proposed them and when. */
export type DealTermsVersion = DealTermsInput & { version: number; proposedBy: DealSide; createdAt: string };

/** What the platform keeps of a price and what reaches the creator: shown to both sides before anyone agrees. */
export type FeeSplit = { price: number; platformFee: number; creatorReceives: number; percent: number };

export function feeSplit(price: number, percent: number): FeeSplit {
  const platformFee = platformFeeFor(price, percent);
  return { price, platformFee, creatorReceives: price - platformFee, percent };
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
  createdAt: string;
};

const creatorProfile = alias(profiles, "creator_profile");
const sponsorProfile = alias(profiles, "sponsor_profile");
const shown = (name: string | null) => name?.trim() || "A former member";

/** A deal as one of its two sides reads it; null for anyone else, as if there were none. */
export async function readDeal(db: Db, uid: string, dealId: string): Promise<DealView | null> {
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
  const versions = await db.select().from(dealTerms).where(eq(dealTerms.dealId, deal.id)).orderBy(asc(dealTerms.version));
  return {
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
    createdAt: deal.createdAt.toISOString(),
  };
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

export type DealCursor = { updatedAt: string; id: string };

/**
 * "My deals": the deals the person is on, either side, most recent activity first, a page at a
 * time by keyset (each side's index, `deals_creator_updated_idx` and `deals_sponsor_updated_idx`,
 * answers its half in order). `waiting` keeps only those whose terms wait on them.
 */
export async function myDeals(db: Db, uid: string, options: { waitingOnly: boolean; after?: DealCursor | null; pageSize?: number }): Promise<{ items: DealListItem[]; next: DealCursor | null }> {
  const size = options.pageSize ?? MY_DEALS_PAGE_SIZE;
  const items: DealListItem[] = [];
  const halves = await Promise.all((["creator", "sponsor"] as const).map((side) => dealsOnSide(db, uid, side, { ...options, size })));
  for (const half of halves) items.push(...half);
  items.sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1));
  const page = items.slice(0, size);
  const last = page.at(-1);
  return { items: page, next: items.length > size && last ? { updatedAt: last.updatedAt, id: last.id } : null };
}

async function dealsOnSide(db: Db, uid: string, side: DealSide, options: { waitingOnly: boolean; after?: DealCursor | null; size: number }): Promise<DealListItem[]> {
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
      otherName: profiles.name,
      price: dealTerms.price,
      currency: dealTerms.currency,
      unread: sql<number>`${deals.messageCount} - ${side === "creator" ? deals.creatorReadCount : deals.sponsorReadCount}`,
    })
    .from(deals)
    .innerJoin(dealTerms, and(eq(dealTerms.dealId, deals.id), eq(dealTerms.version, deals.latestVersion)))
    .leftJoin(profiles, eq(profiles.uid, other))
    .where(
      and(
        eq(mine, uid),
        options.waitingOnly ? eq(deals.waitingOn, side) : undefined,
        // A row comparison, not "older, or as old with a smaller id": the index takes it as its
        // bound and starts at the cursor, where the OR form walked (and dropped) every newer deal.
        options.after ? sql`(${deals.updatedAt}, ${deals.id}) < (${new Date(options.after.updatedAt).toISOString()}::timestamptz, ${options.after.id})` : undefined,
      ),
    )
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
