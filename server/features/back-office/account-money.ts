import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealFundings, deals, ledgerEntries, sponsorSessions } from "#server/platform/db/schema";

/**
 * An account's money as staff read it on its page, per currency, from the ledger (integer minor
 * units): tips and sponsorships paid to it, and deals it is the creator of (their paid funding; a deal
 * cancelled and refunded never reached them, as their earnings read it, ADR 0080).
 *
 * Summed over an account's rows the ledger says: gross = what was paid less what went back, net =
 * what reached their payout account, platform_fee = what the platform kept or still holds in deals.
 */
export type AccountMoney = {
  currency: string;
  /** What supporters and sponsors paid (payments only, before anything went back). */
  received: number;
  /** What went back to the payers: refunds, and disputes lost (less those won back). */
  refunded: number;
  /** received − refunded. */
  net: number;
  /** Paid for deals still booked: neither released to them nor refunded. */
  heldInDeals: number;
  /** What the platform kept as its fee. */
  platformFees: number;
  /** What reached their payout account: each tip's share at once, each deal's at its release. */
  paidOut: number;
};

const PAYMENT_KINDS = sql`('payment', 'deal_payment')`;
const summed = (column: typeof ledgerEntries.gross | typeof ledgerEntries.net | typeof ledgerEntries.platformFee) => sql<number>`coalesce(sum(${column}), 0)::int`;
const received = sql<number>`coalesce(sum(${ledgerEntries.gross}) filter (where ${ledgerEntries.kind} in ${PAYMENT_KINDS}), 0)::int`;

/** Two statements, each from the account by an index: sponsor_sessions_poster_created_idx then ledger_entries_session_idx; deals_creator_updated_idx, the live funding's index, then ledger_entries_funding_idx. */
export async function accountMoney(db: Db, uid: string): Promise<AccountMoney[]> {
  const [tips, dealRows] = await Promise.all([
    db
      .select({ currency: ledgerEntries.currency, received, gross: summed(ledgerEntries.gross), net: summed(ledgerEntries.net), fee: summed(ledgerEntries.platformFee) })
      .from(sponsorSessions)
      .innerJoin(ledgerEntries, eq(ledgerEntries.sessionId, sponsorSessions.id))
      .where(eq(sponsorSessions.posterUid, uid))
      .groupBy(ledgerEntries.currency),
    db
      .select({
        currency: ledgerEntries.currency,
        booked: sql<boolean>`${deals.state} = 'funded'`,
        received,
        gross: summed(ledgerEntries.gross),
        net: summed(ledgerEntries.net),
        fee: summed(ledgerEntries.platformFee),
      })
      .from(deals)
      .innerJoin(dealFundings, and(eq(dealFundings.dealId, deals.id), eq(dealFundings.state, "paid")))
      .innerJoin(ledgerEntries, eq(ledgerEntries.fundingId, dealFundings.id))
      .where(eq(deals.creatorUid, uid))
      .groupBy(ledgerEntries.currency, sql`${deals.state} = 'funded'`),
  ]);
  const byCurrency = new Map<string, AccountMoney>();
  for (const row of [...tips, ...dealRows.map((row) => ({ ...row, booked: Boolean(row.booked) }))]) {
    const money = byCurrency.get(row.currency) ?? { currency: row.currency, received: 0, refunded: 0, net: 0, heldInDeals: 0, platformFees: 0, paidOut: 0 };
    money.received += row.received;
    money.refunded += row.received - row.gross;
    money.net += row.gross;
    money.paidOut += row.net;
    // On a booked deal's rows platform_fee is the money held, not a fee kept (ledger schema).
    if ("booked" in row && row.booked) money.heldInDeals += row.fee;
    else money.platformFees += row.fee;
    byCurrency.set(row.currency, money);
  }
  return [...byCurrency.values()].sort((a, b) => b.received - a.received || a.currency.localeCompare(b.currency));
}
