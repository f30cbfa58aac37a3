import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { DEAL_STATES, dealFundings, deals, ledgerEntries, type DealState } from "#server/platform/db/schema";

/**
 * What operators watch of the deal room (the `/metrics` gauges, server/main/service-metrics.ts): one
 * grouped query each, read at scrape time.
 */

/** How many deals stand in each state, every state named (0 when none). */
export async function dealsByState(db: Db): Promise<Record<DealState, number>> {
  const rows = await db.select({ state: deals.state, count: sql<number>`count(*)::int` }).from(deals).groupBy(deals.state);
  const counts = Object.fromEntries(DEAL_STATES.map((state) => [state, 0])) as Record<DealState, number>;
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

/**
 * The money the platform holds for deals, per currency, leaving out currencies with none: over the
 * fundings of every deal not completed, what was paid less what was released and refunded (the sum
 * of `platform_fee` on the `deal_*` rows, server/domains/payments/ledger/deal-ledger.ts). A completed
 * deal's remainder is the platform's fee, kept rather than held; a cancelled deal's money is held
 * until its refund is written, and so is a payment that arrived after its deal was withdrawn.
 */
export async function moneyHeldForDeals(db: Db): Promise<{ currency: string; amount: number }[]> {
  const rows = await db
    .select({ currency: ledgerEntries.currency, amount: sql<string>`sum(${ledgerEntries.platformFee})::bigint::text` })
    .from(ledgerEntries)
    .innerJoin(dealFundings, eq(dealFundings.id, ledgerEntries.fundingId))
    .innerJoin(deals, eq(deals.id, dealFundings.dealId))
    // The partial index on deal rows (ledger_entries_funding_idx) holds exactly these: tips' rows are never read.
    .where(and(sql`${ledgerEntries.fundingId} is not null`, ne(deals.state, "completed")))
    .groupBy(ledgerEntries.currency)
    .orderBy(ledgerEntries.currency);
  return rows.map((row) => ({ currency: row.currency, amount: Number(row.amount) })).filter((row) => row.amount !== 0);
}
