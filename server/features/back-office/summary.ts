import { count, countDistinct, inArray, isNotNull, isNull, min, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { accountSuspensions, bioPages, contentReports, dealDisputes, disputes, opportunityPosts } from "#server/platform/db/schema";
import { flaggedCreators } from "#server/domains/payments/disputes/dispute-queue";
import { latestRuns } from "#server/features/reconciliation/run";
import { moneyHeldForDeals } from "#server/domains/deals/figures";

/** What needs staff attention now, for the back office's first page: each figure links to its queue. */
export type BackOfficeSummary = {
  reports: { openItems: number; oldestOpen: Date | null };
  disputes: { open: number; nextDeadline: Date | null; flaggedCreators: number };
  /** Deals a side (or a card dispute) froze, waiting on staff's decision. */
  dealDisputes: { open: number; oldestOpen: Date | null };
  /** What sponsors paid for deals and the platform still holds (not released, not refunded), per currency. */
  dealMoneyHeld: { currency: string; amount: number }[];
  reconciliation: { finishedAt: Date; differences: number; compared: number } | null;
  suspensionsInForce: number;
  removedItems: number;
};

const OPEN_DISPUTE = ["needs_response", "under_review"] as const;

/** Counted in the database (never the queues' capped lists), one small query per figure. */
export async function backOfficeSummary(db: Db, now = new Date()): Promise<BackOfficeSummary> {
  const [[reports], [openDisputes], flagged, [latest], [suspended], [removedPages], [removedPosts], [dealDisputesOpen], dealMoneyHeld] = await Promise.all([
    db
      .select({ items: countDistinct(sql`(${contentReports.targetType}, ${contentReports.targetId})`), oldest: min(contentReports.createdAt) })
      .from(contentReports)
      .where(sql`${contentReports.status} = 'open'`),
    db.select({ open: count(), next: min(disputes.evidenceDueBy) }).from(disputes).where(inArray(disputes.status, OPEN_DISPUTE)),
    flaggedCreators(db, now),
    latestRuns(db, 1),
    db.select({ n: count() }).from(accountSuspensions).where(isNull(accountSuspensions.liftedAt)),
    db.select({ n: count() }).from(bioPages).where(isNotNull(bioPages.removedAt)),
    db.select({ n: count() }).from(opportunityPosts).where(isNotNull(opportunityPosts.removedAt)),
    db.select({ open: count(), oldest: min(dealDisputes.openedAt) }).from(dealDisputes).where(isNull(dealDisputes.decidedAt)),
    moneyHeldForDeals(db),
  ]);
  return {
    reports: { openItems: Number(reports?.items ?? 0), oldestOpen: reports?.oldest ? new Date(reports.oldest) : null },
    disputes: { open: Number(openDisputes?.open ?? 0), nextDeadline: openDisputes?.next ? new Date(openDisputes.next) : null, flaggedCreators: flagged.length },
    dealDisputes: { open: Number(dealDisputesOpen?.open ?? 0), oldestOpen: dealDisputesOpen?.oldest ? new Date(dealDisputesOpen.oldest) : null },
    dealMoneyHeld,
    reconciliation: latest ? { finishedAt: latest.finishedAt, differences: latest.differenceCount, compared: latest.movementsCompared } : null,
    suspensionsInForce: Number(suspended?.n ?? 0),
    removedItems: Number(removedPages?.n ?? 0) + Number(removedPosts?.n ?? 0),
  };
}
