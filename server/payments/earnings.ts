import { and, desc, eq, gte, inArray, sql, type AnyColumn } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { ledgerEntries, sponsorSessions, type SponsorSessionKind, type SponsorSessionStatus } from "#server/db/schema";

/** How many calendar months (UTC) the creator's home charts, this month included. */
export const EARNINGS_MONTHS = 12;
/** How many of the latest supporters the home lists. */
export const LATEST_SUPPORTERS = 5;

/** One UTC calendar month's money in one currency, integer minor units, from the ledger. */
export type MonthEarnings = {
  /** YYYY-MM */
  month: string;
  /** What supporters paid, less what went back (refunds, disputes). */
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
 * the most money first. Reads only sessions paid to `uid`.
 */
export async function earningsByMonth(db: Db, uid: string, now = new Date()): Promise<CurrencyEarnings[]> {
  const months = monthWindow(now);
  const since = new Date(`${months[0]}-01T00:00:00Z`);
  const month = sql<string>`to_char(${ledgerEntries.created} at time zone 'UTC', 'YYYY-MM')`;
  const ofOwner = and(eq(sponsorSessions.id, ledgerEntries.sessionId), eq(sponsorSessions.posterUid, uid));
  const [totals, monthly] = await Promise.all([
    db
      .select({ currency: ledgerEntries.currency, gross: sum(ledgerEntries.gross), fee: sum(ledgerEntries.platformFee), net: sum(ledgerEntries.net) })
      .from(ledgerEntries)
      .innerJoin(sponsorSessions, ofOwner)
      .groupBy(ledgerEntries.currency),
    db
      .select({ currency: ledgerEntries.currency, month, gross: sum(ledgerEntries.gross), fee: sum(ledgerEntries.platformFee), net: sum(ledgerEntries.net) })
      .from(ledgerEntries)
      .innerJoin(sponsorSessions, ofOwner)
      .where(gte(ledgerEntries.created, since))
      .groupBy(ledgerEntries.currency, month),
  ]);
  return totals
    .map((total) => {
      const byMonth = new Map(monthly.filter((row) => row.currency === total.currency).map((row) => [row.month, row]));
      return {
        currency: total.currency,
        months: months.map((m) => {
          const row = byMonth.get(m);
          return { month: m, gross: row?.gross ?? 0, fee: row?.fee ?? 0, net: row?.net ?? 0 };
        }),
        allTime: { gross: total.gross, fee: total.fee, net: total.net },
      };
    })
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
