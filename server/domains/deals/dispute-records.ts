import { and, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealDisputes, deals, dealTerms, type DealSide } from "#server/platform/db/schema";
import { acceptedTerms, everyDeliverableApproved as approvedCondition } from "./approvals";

/**
 * The rows of a dispute, written in the transaction of the move that opens it (act.ts for a side,
 * disputes.ts for the platform), so a deal is `disputed` exactly when it has an undecided row.
 */
export async function recordDisputeOpened(tx: Db, input: { dealId: string; openedBy: DealSide | null; openedByUid: string | null; reason: string }, now: Date): Promise<void> {
  await tx.insert(dealDisputes).values({ dealId: input.dealId, openedBy: input.openedBy, openedByUid: input.openedByUid, reason: input.reason.trim(), openedAt: now });
}

/** Every deliverable of the deal's accepted terms is approved: its release is due, and there is nothing left to dispute. */
export async function everyDeliverableApproved(tx: Db, dealId: string): Promise<boolean> {
  const [row] = await tx.select({ id: deals.id }).from(deals).innerJoin(dealTerms, acceptedTerms).where(and(eq(deals.id, dealId), approvedCondition));
  return row !== undefined;
}

export type DisputeRecord = typeof dealDisputes.$inferSelect;

export async function disputeOf(db: Db, dealId: string): Promise<DisputeRecord | null> {
  const [row] = await db.select().from(dealDisputes).where(eq(dealDisputes.dealId, dealId));
  return row ?? null;
}
