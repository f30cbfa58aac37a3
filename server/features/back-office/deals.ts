import { and, asc, count, desc, eq, ilike, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#server/platform/db/client";
import { afterTimeKeyset, decodeTimeKeyset, encodeTimeKeyset, microsOf } from "#server/platform/db/keyset";
import { dealActivity, dealFundings, dealMessages, deals, dealTerms, DEAL_STATES, user, type DealOrigin, type DealSide, type DealState } from "#server/platform/db/schema";
import type { DealTermsVersion } from "#server/domains/deals/read";
import { disputeOf, type DisputeRecord } from "#server/domains/deals/dispute-records";
import { readDealWork, type DeliverableWork } from "#server/domains/deals/work-view";
import { readDealRoomFiles, type DealRoomFiles } from "#server/domains/deals/room-files";
import { staffDealFileUrl } from "#isomorphic/deal-limits";

/**
 * Every deal on the platform as staff read it: a list (newest activity first, a page at a time by
 * keyset on `deals_updated_idx`) and one deal's whole record, for whoever reviews a dispute. Only
 * reads: staff decide a dispute through server/domains/deals/disputes.ts.
 */
export type StaffDealFilters = {
  state: DealState | null;
  /** Part of a deal's title, or of either party's email. */
  search: string | null;
};

export const STAFF_DEALS_PAGE_SIZE = 25;

/** The filters from the page's address; a state that is not one is ignored. */
export function readDealFilters(params: URLSearchParams): StaffDealFilters {
  const state = params.get("state");
  const search = (params.get("q") ?? "").trim().slice(0, 200);
  return { state: state && (DEAL_STATES as readonly string[]).includes(state) ? (state as DealState) : null, search: search || null };
}

const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The search, as conditions on `deals` alone, so the list and its counts select the same deals. */
function searched(search: string | null): SQL | undefined {
  if (!search) return undefined;
  const pattern = likeText(search);
  const people = sql`(select ${user.id} from ${user} where ${user.email} ilike ${pattern})`;
  return or(ilike(deals.title, pattern), inArray(deals.creatorUid, people), inArray(deals.sponsorUid, people));
}

export type StaffDealRow = {
  id: string;
  title: string;
  state: DealState;
  /** Null once the account is deleted (the deal outlives it). */
  creatorEmail: string | null;
  sponsorEmail: string | null;
  price: number;
  currency: string;
  updatedAt: Date;
};

export type StaffDealList = {
  rows: StaffDealRow[];
  nextCursor: string | null;
  /** How many deals the search finds in each state, whatever state is chosen. */
  counts: Record<DealState, number>;
};

const creatorUser = alias(user, "creator_user");
const sponsorUser = alias(user, "sponsor_user");

export async function listDealsForStaff(db: Db, filters: StaffDealFilters, options: { cursor?: string | null; pageSize?: number } = {}): Promise<StaffDealList> {
  const pageSize = options.pageSize ?? STAFF_DEALS_PAGE_SIZE;
  const after = decodeTimeKeyset(options.cursor);
  const where = and(
    filters.state ? eq(deals.state, filters.state) : undefined,
    searched(filters.search),
    // Newest activity first: the next page holds what sorts after the last row, by (updated_at, id) descending.
    after ? afterTimeKeyset(deals.updatedAt, deals.id, after) : undefined,
  );
  const [found, perState] = await Promise.all([
    db
      .select({
        id: deals.id,
        title: deals.title,
        state: deals.state,
        creatorEmail: creatorUser.email,
        sponsorEmail: sponsorUser.email,
        price: dealTerms.price,
        currency: dealTerms.currency,
        updatedAt: deals.updatedAt,
        micros: microsOf(deals.updatedAt),
      })
      .from(deals)
      .innerJoin(dealTerms, and(eq(dealTerms.dealId, deals.id), eq(dealTerms.version, deals.latestVersion)))
      .leftJoin(creatorUser, eq(creatorUser.id, deals.creatorUid))
      .leftJoin(sponsorUser, eq(sponsorUser.id, deals.sponsorUid))
      .where(where)
      .orderBy(desc(deals.updatedAt), desc(deals.id))
      .limit(pageSize + 1),
    db.select({ state: deals.state, n: count() }).from(deals).where(searched(filters.search)).groupBy(deals.state),
  ]);
  const shown = found.slice(0, pageSize);
  const last = shown.at(-1);
  const counts = Object.fromEntries(DEAL_STATES.map((state) => [state, 0])) as Record<DealState, number>;
  for (const { state, n } of perState) counts[state] = Number(n);
  return {
    rows: shown.map(({ micros: _micros, ...row }) => row),
    nextCursor: found.length > pageSize && last ? encodeTimeKeyset({ micros: last.micros, id: last.id }) : null,
    counts,
  };
}

/** One party of a deal as staff see them; null once their account is deleted. */
export type StaffDealParty = { uid: string; name: string; email: string } | null;

export type StaffDealActivity = {
  seq: number;
  action: string;
  /** The account that moved, by its email when it still exists. */
  actorUid: string | null;
  actorEmail: string | null;
  /** The side the actor was on, when they are still one of the deal's parties. */
  actorSide: DealSide | null;
  fromState: DealState | null;
  toState: DealState;
  termsVersion: number | null;
  network: string | null;
  at: Date;
};

export type StaffDealRecord = {
  id: string;
  title: string;
  origin: DealOrigin;
  opportunityId: string | null;
  state: DealState;
  openedBy: DealSide;
  waitingOn: DealSide | null;
  latestVersion: number;
  pitch: string;
  links: string[];
  declineMessage: string | null;
  endedBy: string | null;
  accepted: { version: number; by: string | null; at: Date; from: string | null } | null;
  createdAt: Date;
  updatedAt: Date;
  creator: StaffDealParty;
  sponsor: StaffDealParty;
  /** Every version, oldest first; the last is on the table. */
  versions: DealTermsVersion[];
  /** Every move, in order. */
  activity: StaffDealActivity[];
  /** The thread, oldest first: what a dispute's reviewer reads. */
  messages: { seq: number; side: DealSide; authorEmail: string | null; body: string; at: Date }[];
  /** Once booked: each deliverable of the accepted terms with what was handed in. */
  work: DeliverableWork[];
  /** The brief and every file, served to staff at the back office's own address. */
  files: DealRoomFiles;
  /** The sponsor's paid (held) payment: its amount, the platform's fee fixed then, and its currency. */
  funding: { id: string; amount: number; platformFee: number; currency: string; paidAt: Date | null } | null;
  dispute: DisputeRecord | null;
};

// A left join that finds no account gives a null object, not one of nulls.
const party = (row: { id: string; name: string; email: string } | null): StaffDealParty => (row ? { uid: row.id, name: row.name, email: row.email } : null);

/** The whole record of one deal: both parties, every terms version and every move; null if there is no such deal. */
export async function dealRecordForStaff(db: Db, dealId: string): Promise<StaffDealRecord | null> {
  const [row] = await db
    .select({
      deal: deals,
      creator: { id: creatorUser.id, name: creatorUser.name, email: creatorUser.email },
      sponsor: { id: sponsorUser.id, name: sponsorUser.name, email: sponsorUser.email },
    })
    .from(deals)
    .leftJoin(creatorUser, eq(creatorUser.id, deals.creatorUid))
    .leftJoin(sponsorUser, eq(sponsorUser.id, deals.sponsorUid))
    .where(eq(deals.id, dealId));
  if (!row) return null;
  const { deal } = row;
  const [versions, activity] = await Promise.all([
    db.select().from(dealTerms).where(eq(dealTerms.dealId, deal.id)).orderBy(asc(dealTerms.version)),
    db
      .select({ entry: dealActivity, actorEmail: user.email })
      .from(dealActivity)
      .leftJoin(user, eq(user.id, dealActivity.actorUid))
      .where(eq(dealActivity.dealId, deal.id))
      .orderBy(asc(dealActivity.seq)),
  ]);
  const [messages, funding, dispute] = await Promise.all([
    db
      .select({ seq: dealMessages.seq, side: dealMessages.authorSide, authorEmail: user.email, body: dealMessages.body, at: dealMessages.at })
      .from(dealMessages)
      .leftJoin(user, eq(user.id, dealMessages.authorUid))
      .where(eq(dealMessages.dealId, deal.id))
      .orderBy(asc(dealMessages.seq)),
    db
      .select({ id: dealFundings.id, amount: dealFundings.amount, platformFee: dealFundings.platformFee, currency: dealFundings.currency, paidAt: dealFundings.paidAt })
      .from(dealFundings)
      .where(and(eq(dealFundings.dealId, deal.id), isNotNull(dealFundings.paymentIntentId))),
    disputeOf(db, deal.id),
  ]);
  const accepted = versions.find((v) => v.version === deal.acceptedVersion);
  const work = funding.length > 0 && accepted ? await readDealWork(db, deal.id, accepted.deliverables) : [];
  const files = await readDealRoomFiles(db, { dealId: deal.id }, staffDealFileUrl);
  const sideOf = (uid: string | null): DealSide | null => (uid === null ? null : uid === deal.creatorUid ? "creator" : uid === deal.sponsorUid ? "sponsor" : null);
  return {
    id: deal.id,
    title: deal.title,
    origin: deal.origin,
    opportunityId: deal.opportunityId,
    state: deal.state,
    openedBy: deal.openedBy,
    waitingOn: deal.waitingOn,
    latestVersion: deal.latestVersion,
    pitch: deal.pitch,
    links: deal.links,
    declineMessage: deal.declineMessage,
    endedBy: deal.endedBy,
    accepted: deal.acceptedAt && deal.acceptedVersion !== null ? { version: deal.acceptedVersion, by: deal.acceptedBy, at: deal.acceptedAt, from: deal.acceptedFrom } : null,
    createdAt: deal.createdAt,
    updatedAt: deal.updatedAt,
    creator: party(row.creator),
    sponsor: party(row.sponsor),
    versions: versions.map(({ dealId: _deal, createdAt, ...terms }) => ({ ...terms, createdAt: createdAt.toISOString() })),
    activity: activity.map(({ entry, actorEmail }) => ({
      seq: entry.seq,
      action: entry.action,
      actorUid: entry.actorUid,
      actorEmail,
      actorSide: sideOf(entry.actorUid),
      fromState: entry.fromState,
      toState: entry.toState,
      termsVersion: entry.termsVersion,
      network: entry.network,
      at: entry.at,
    })),
    messages,
    work,
    files,
    funding: funding[0] ?? null,
    dispute,
  };
}
