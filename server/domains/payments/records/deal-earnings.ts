import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealFundings, deals, ledgerEntries, opportunityPosts, profiles, user } from "#server/platform/db/schema";

/**
 * A creator's money from deals, as their earnings read it (ADR 0080 keeps it in the ledger, kinds
 * `deal_*`, keyed by the funding). A deal is the creator's earning only once its share was released:
 * one earning per release, dated at the release, whose gross, fee and net are the sums of its
 * funding's rows — gross what the sponsor paid (less anything refunded to them), fee what the
 * platform kept, net what was transferred — so they read as a tip's payment row and add up with tips
 * per currency. A deal cancelled and refunded never released anything and is no earning; the money
 * of a booked deal not yet released is "held", shown apart (`heldInDeals`).
 */
export type DealEarning = {
  dealId: string;
  /** The deal's title, or its opportunity's when the deal has none of its own. */
  title: string;
  sponsorName: string;
  /** When the creator's share left for their payout account. */
  released: Date;
  currency: string;
  gross: number;
  fee: number;
  net: number;
  /** What the card processor took of the payment, paid by the platform (as for tips). */
  providerFee: number;
  /** The release's ledger row, the transfer it names, the funding's payment: the CSV's references. */
  entryId: string;
  transferId: string;
  paymentIntentId: string | null;
  checkoutId: string | null;
  dealState: string;
};

export const DEAL_EARNINGS_PAGE_SIZE = 20;

// The deal's paid funding: a release or a booking is always of the one paid funding (the release leaves
// it paid, and a completed deal cannot be cancelled), and so it is found by the deal through the
// funding's partial unique index (deal_fundings_one_live_idx) rather than by reading every funding.
const paidFunding = and(eq(dealFundings.dealId, deals.id), eq(dealFundings.state, "paid"));

// One funding's rows summed, by the funding's own index (ledger_entries_funding_idx): paid less refunded.
const fundingSum = (column: "gross" | "provider_fee") =>
  sql<number>`(select coalesce(sum(moved.${sql.raw(column)}), 0) from ${ledgerEntries} moved where moved.funding_id = ${dealFundings.id})::int`;
const gross = fundingSum("gross");
const providerFee = fundingSum("provider_fee");

const earningColumns = {
  dealId: deals.id,
  title: sql<string>`coalesce(nullif(trim(${deals.title}), ''), ${opportunityPosts.title}, 'a deal')`,
  sponsorName: sql<string>`coalesce(nullif(trim(${profiles.name}), ''), nullif(trim(${user.name}), ''), 'A former member')`,
  released: ledgerEntries.created,
  releasedMicros: sql<string>`(extract(epoch from ${ledgerEntries.created}) * 1000000)::bigint::text`,
  currency: ledgerEntries.currency,
  gross,
  net: ledgerEntries.net,
  providerFee,
  entryId: ledgerEntries.id,
  transferId: ledgerEntries.providerReference,
  paymentIntentId: dealFundings.paymentIntentId,
  checkoutId: dealFundings.checkoutId,
  dealState: deals.state,
};

/** The released deals of `uid` as the creator, each row with its release; `where` narrows them. */
function selectReleases(db: Db, uid: string, where?: SQL) {
  return db
    .select(earningColumns)
    .from(deals)
    .innerJoin(dealFundings, paidFunding)
    .innerJoin(ledgerEntries, and(eq(ledgerEntries.fundingId, dealFundings.id), eq(ledgerEntries.kind, "deal_release")))
    .leftJoin(opportunityPosts, eq(opportunityPosts.id, deals.opportunityId))
    .leftJoin(profiles, eq(profiles.uid, deals.sponsorUid))
    .leftJoin(user, eq(user.id, deals.sponsorUid))
    .where(and(eq(deals.creatorUid, uid), where));
}

type EarningRow = Awaited<ReturnType<typeof selectReleases>>[number];

const toEarning = ({ releasedMicros: _micros, ...row }: EarningRow): DealEarning => ({ ...row, fee: row.gross - row.net });

/** Where a page of deal earnings goes on from: the last release shown, its time in microseconds (a Date keeps milliseconds). */
export type DealEarningsKeyset = { releasedMicros: string; entryId: string };

/** "1767225600000000_<uuid>" as a keyset, or null for anything else (the first page is shown). */
export function dealEarningsKeysetFrom(value: string | null | undefined): DealEarningsKeyset | null {
  const match = /^(\d{1,19})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(value ?? "");
  return match ? { releasedMicros: match[1]!, entryId: match[2]! } : null;
}

export const dealEarningsKeysetText = (keyset: DealEarningsKeyset) => `${keyset.releasedMicros}_${keyset.entryId}`;

/**
 * A page of the creator's deal earnings, newest release first, by keyset on (release time, row id):
 * a release written between two pages shifts nothing.
 */
export async function dealEarnings(
  db: Db,
  uid: string,
  options: { after?: DealEarningsKeyset | null; pageSize?: number } = {},
): Promise<{ earnings: DealEarning[]; next: DealEarningsKeyset | null }> {
  const pageSize = options.pageSize ?? DEAL_EARNINGS_PAGE_SIZE;
  const after = options.after
    ? sql`(${ledgerEntries.created}, ${ledgerEntries.id}) < (timestamptz 'epoch' + ${options.after.releasedMicros}::bigint * interval '1 microsecond', ${options.after.entryId}::uuid)`
    : undefined;
  const rows = await selectReleases(db, uid, after)
    .orderBy(desc(ledgerEntries.created), desc(ledgerEntries.id))
    .limit(pageSize + 1);
  const shown = rows.slice(0, pageSize);
  const last = shown.at(-1);
  return { earnings: shown.map(toEarning), next: rows.length > pageSize && last ? { releasedMicros: last.releasedMicros, entryId: last.entryId } : null };
}

/** Every deal earning of the creator, oldest first: the CSV's (a file is read whole, as its tip rows are). */
export async function allDealEarnings(db: Db, uid: string): Promise<DealEarning[]> {
  const rows = await selectReleases(db, uid).orderBy(asc(ledgerEntries.created), asc(ledgerEntries.id));
  return rows.map(toEarning);
}

export type DealMonth = { currency: string; month: string; gross: number; fee: number; net: number; providerFee: number };

/** The creator's deal earnings summed per currency and UTC month of release (a few rows a year). */
export async function dealEarningsByMonth(db: Db, uid: string): Promise<DealMonth[]> {
  const month = sql<string>`to_char(${ledgerEntries.created} at time zone 'UTC', 'YYYY-MM')`;
  const rows = await db
    .select({
      currency: ledgerEntries.currency,
      month,
      gross: sql<number>`coalesce(sum(${gross}), 0)::int`,
      net: sql<number>`coalesce(sum(${ledgerEntries.net}), 0)::int`,
      providerFee: sql<number>`coalesce(sum(${providerFee}), 0)::int`,
    })
    .from(deals)
    .innerJoin(dealFundings, paidFunding)
    .innerJoin(ledgerEntries, and(eq(ledgerEntries.fundingId, dealFundings.id), eq(ledgerEntries.kind, "deal_release")))
    .where(eq(deals.creatorUid, uid))
    .groupBy(ledgerEntries.currency, month);
  return rows.map((row) => ({ ...row, fee: row.gross - row.net }));
}

/**
 * Money held for the creator in booked deals, per currency, leaving out currencies with none: what
 * the sponsors paid for deals still `funded`, less what was already released or refunded (on these
 * rows that is the sum of `platform_fee`, deal-ledger.ts). Cancelled deals' money is on its way back
 * to the sponsor and completed deals' was released: neither is held for the creator.
 */
export async function heldInDeals(db: Db, uid: string): Promise<{ currency: string; amount: number }[]> {
  const rows = await db
    .select({ currency: ledgerEntries.currency, amount: sql<number>`coalesce(sum(${ledgerEntries.platformFee}), 0)::int` })
    .from(deals)
    .innerJoin(dealFundings, paidFunding)
    .innerJoin(ledgerEntries, eq(ledgerEntries.fundingId, dealFundings.id))
    .where(and(eq(deals.creatorUid, uid), eq(deals.state, "funded")))
    .groupBy(ledgerEntries.currency)
    .orderBy(ledgerEntries.currency);
  return rows.filter((row) => row.amount !== 0);
}
