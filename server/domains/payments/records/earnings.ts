import { and, desc, eq, inArray, sql, type AnyColumn } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { ledgerEntries, sponsorSessions, type SponsorSessionKind, type SponsorSessionStatus } from "#server/platform/db/schema";
import { dealEarningsByMonth } from "./deal-earnings";

/** How many calendar months (UTC) the creator's home charts, this month included. */
export const EARNINGS_MONTHS = 12;
/** How many of the latest supporters the home lists. */
export const LATEST_SUPPORTERS = 5;

/** One UTC calendar month's money in one currency, integer minor units, from the ledger. */
export type MonthEarnings = {
  /** YYYY-MM */
  month: string;
  /** What supporters and sponsors of released deals paid, less what went back (refunds, disputes). */
  gross: number;
  /** The platform fee kept, less what went back with refunds. */
  fee: number;
  /** The creator's share: gross − fee, exactly as ledger_entries.net sums. */
  net: number;
};

export type CurrencyEarnings = {
  currency: string;
  /** Oldest first, EARNINGS_MONTHS of them, zero months included. */
  months: MonthEarnings[];
  /** Since the first payment, not only the charted months. */
  allTime: { gross: number; fee: number; net: number };
};

/** The window's months, oldest first, ending with `now`'s UTC month. */
export function monthWindow(now: Date, length = EARNINGS_MONTHS): string[] {
  return Array.from({ length }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (length - 1 - i), 1)).toISOString().slice(0, 7));
}

const sum = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)::int`;

/**
 * A creator's earnings per currency, by UTC month for the last EARNINGS_MONTHS
 * and in all, from the ledger: a refund or dispute counts in the month it
 * happened (the money left then), so a month can be negative. Currencies with
 * the most money first. Reads only sessions paid to `uid`, and the deals released to `uid` as their
 * creator, each in the month of its release (deal-earnings.ts).
 */
export async function earningsByMonth(db: Db, uid: string, now = new Date()): Promise<CurrencyEarnings[]> {
  const months = monthWindow(now);
  const month = sql<string>`to_char(${ledgerEntries.created} at time zone 'UTC', 'YYYY-MM')`;
  // Every month since the first payment in one statement (a few rows a year per currency): the
  // charted ones are picked out and all of them add up to the totals, here rather than in a second query.
  const [tipRows, dealRows] = await Promise.all([
    db
      .select({ currency: ledgerEntries.currency, month, gross: sum(ledgerEntries.gross), fee: sum(ledgerEntries.platformFee), net: sum(ledgerEntries.net) })
      .from(ledgerEntries)
      .innerJoin(sponsorSessions, and(eq(sponsorSessions.id, ledgerEntries.sessionId), eq(sponsorSessions.posterUid, uid)))
      .groupBy(ledgerEntries.currency, month),
    dealEarningsByMonth(db, uid),
  ]);
  const currencies = new Map<string, { allTime: CurrencyEarnings["allTime"]; byMonth: Map<string, MonthEarnings> }>();
  for (const row of [...tipRows, ...dealRows]) {
    let currency = currencies.get(row.currency);
    if (!currency) currencies.set(row.currency, (currency = { allTime: { gross: 0, fee: 0, net: 0 }, byMonth: new Map() }));
    currency.allTime.gross += row.gross;
    currency.allTime.fee += row.fee;
    currency.allTime.net += row.net;
    const before = currency.byMonth.get(row.month) ?? { month: row.month, gross: 0, fee: 0, net: 0 };
    currency.byMonth.set(row.month, { month: row.month, gross: before.gross + row.gross, fee: before.fee + row.fee, net: before.net + row.net });
  }
  return [...currencies]
    .map(([currency, { allTime, byMonth }]) => ({
      currency,
      months: months.map((m) => byMonth.get(m) ?? { month: m, gross: 0, fee: 0, net: 0 }),
      allTime,
    }))
    .sort((a, b) => b.allTime.gross - a.allTime.gross || a.currency.localeCompare(b.currency));
}

export type Supporter = {
  sessionId: string;
  /** The name the supporter gave to show the creator, or null ("Someone"). */
  name: string | null;
  /** They asked to keep their support off the public wall; the creator still sees the name they chose to give. */
  private: boolean;
  kind: SponsorSessionKind;
  amount: number;
  currency: string;
  message: string;
  status: SponsorSessionStatus;
  created: Date;
};

/** Money that reached the creator at some point: payments that completed, even if later refunded or disputed. */
const PAID: SponsorSessionStatus[] = ["completed", "refunded", "disputed"];

/** The latest people who paid `uid`, newest first. */
export async function latestSupporters(db: Db, uid: string, limit = LATEST_SUPPORTERS): Promise<Supporter[]> {
  return db
    .select({
      sessionId: sponsorSessions.id,
      name: sponsorSessions.supporterName,
      private: sponsorSessions.private,
      kind: sponsorSessions.kind,
      amount: sponsorSessions.amount,
      currency: sponsorSessions.currency,
      message: sponsorSessions.message,
      status: sponsorSessions.status,
      created: sponsorSessions.created,
    })
    .from(sponsorSessions)
    .where(and(eq(sponsorSessions.posterUid, uid), inArray(sponsorSessions.status, PAID)))
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id))
    .limit(limit);
}
