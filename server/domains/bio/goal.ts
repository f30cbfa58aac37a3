import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { ledgerEntries, sponsorSessions } from "#server/platform/db/schema";
import { DEFAULT_CURRENCY } from "#isomorphic/payment-limits";

/**
 * A bio page's goal bar (docs/decisions/0035-supporter-wall-and-goal.md).
 *
 * The page's currency is the one its tips are taken in (checkout.ts charges
 * every tip in DEFAULT_CURRENCY); the creator's target is typed in it. A
 * sponsorship paid in another currency is money too, but adding it to the bar
 * would mix units, so it is left out.
 */
export const PAGE_CURRENCY = DEFAULT_CURRENCY;

/** The largest target a creator may set: $1,000,000, far above any tip jar, well inside an int column. */
export const MAX_GOAL_TARGET = 100_000_000;
export const MAX_GOAL_TITLE_LENGTH = 100;

export type GoalProgress = {
  title: string;
  /** Minor units of `currency`. */
  target: number;
  /** What supporters paid towards it, less what went back to them; never below 0. */
  raised: number;
  currency: string;
  /** The real share, rounded down (can pass 100). */
  percent: number;
  /** What the bar draws: 0 to 100. */
  barPercent: number;
};

/** The figures a goal shows, from its raised amount. */
export function goalProgress(goal: { title: string; target: number; currency?: string }, raisedSum: number): GoalProgress {
  const raised = Math.max(0, raisedSum);
  const percent = goal.target > 0 ? Math.floor((raised * 100) / goal.target) : 0;
  return { title: goal.title, target: goal.target, raised, currency: goal.currency ?? PAGE_CURRENCY, percent, barPercent: Math.min(100, percent) };
}

/**
 * What the page's supporters paid since `since` (null: ever), in the page's
 * currency, less refunds and disputes of those payments: the ledger's gross,
 * because a supporter counts what they gave, not what reached the creator
 * after fees. A payment counts by when it was made, and its refund with it
 * whenever that comes, so refunding a payment from before the goal never
 * pulls the new goal down.
 */
export async function goalRaised(db: Db, pageId: string, since: Date | null): Promise<number> {
  const payment = sql`exists (select 1 from ${ledgerEntries} p where p.session_id = ${ledgerEntries.sessionId} and p.kind = 'payment'${since ? sql` and p.created >= ${since.toISOString()}` : sql``})`;
  const [row] = await db
    .select({ sum: sql<number>`coalesce(sum(${ledgerEntries.gross}), 0)`.mapWith(Number) })
    .from(ledgerEntries)
    .innerJoin(sponsorSessions, eq(sponsorSessions.id, ledgerEntries.sessionId))
    .where(and(eq(sponsorSessions.bioPageId, pageId), eq(ledgerEntries.currency, PAGE_CURRENCY), payment));
  return Math.max(0, row?.sum ?? 0);
}
