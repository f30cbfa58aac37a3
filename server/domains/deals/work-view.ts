import { and, asc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealSubmissions, ledgerEntries, dealFundings, type DealDeliverable, type SubmissionState } from "#server/platform/db/schema";
import { MAX_CHANGE_ROUNDS } from "#isomorphic/deal-limits";

export type SubmissionView = {
  round: number;
  liveUrl: string;
  note: string;
  state: SubmissionState;
  submittedAt: string;
  /** When silence approves it; null once reviewed or when the sponsor does not approve first. */
  autoApproveAt: string | null;
  reviewedAt: string | null;
  /** The platform approved it because the review window passed. */
  approvedBySilence: boolean;
  reviewNote: string | null;
};

/** One deliverable of the accepted terms with every time it was handed in, oldest first. */
export type DeliverableWork = DealDeliverable & {
  index: number;
  submissions: SubmissionView[];
  /** How many more times the sponsor may ask for changes to it. */
  changeRoundsLeft: number;
  /** Past its due date and never handed in: what lets the sponsor cancel alone (act.ts). */
  overdue: boolean;
};

/** A deliverable is overdue once its due day (a calendar day, UTC) has passed and it was never handed in. */
export function isOverdue(deliverable: DealDeliverable, handedIn: boolean, now: Date): boolean {
  return !handedIn && deliverable.dueDate < now.toISOString().slice(0, 10);
}

/** The work on a booked or completed deal, deliverable by deliverable, as both sides see it. */
export async function readDealWork(db: Db, dealId: string, deliverables: DealDeliverable[], now = new Date()): Promise<DeliverableWork[]> {
  const rows = await db.select().from(dealSubmissions).where(eq(dealSubmissions.dealId, dealId)).orderBy(asc(dealSubmissions.deliverable), asc(dealSubmissions.round));
  return deliverables.map((deliverable, index) => {
    const submissions = rows
      .filter((row) => row.deliverable === index)
      .map((row) => ({
        round: row.round,
        liveUrl: row.liveUrl,
        note: row.note,
        state: row.state,
        submittedAt: row.submittedAt.toISOString(),
        autoApproveAt: row.state === "submitted" ? (row.autoApproveAt?.toISOString() ?? null) : null,
        reviewedAt: row.reviewedAt?.toISOString() ?? null,
        approvedBySilence: row.state === "approved" && row.reviewedBy === null && row.autoApproveAt !== null,
        reviewNote: row.reviewNote,
      }));
    const asked = submissions.filter((s) => s.state === "changes_requested").length;
    return { ...deliverable, index, submissions, changeRoundsLeft: Math.max(0, MAX_CHANGE_ROUNDS - asked), overdue: isOverdue(deliverable, submissions.length > 0, now) };
  });
}

/** What reached the creator when the deal completed: the release on the ledger. */
export async function readRelease(db: Db, dealId: string): Promise<{ amount: number; currency: string; at: string } | null> {
  const [row] = await db
    .select({ net: ledgerEntries.net, currency: ledgerEntries.currency, at: ledgerEntries.created })
    .from(ledgerEntries)
    .innerJoin(dealFundings, eq(dealFundings.id, ledgerEntries.fundingId))
    .where(and(eq(dealFundings.dealId, dealId), eq(ledgerEntries.kind, "deal_release")));
  return row ? { amount: row.net, currency: row.currency, at: row.at.toISOString() } : null;
}

/** What has gone back to the sponsor of a cancelled deal: its refunds on the ledger, summed. */
export async function readRefunded(db: Db, dealId: string): Promise<number> {
  const rows = await db
    .select({ gross: ledgerEntries.gross })
    .from(ledgerEntries)
    .innerJoin(dealFundings, eq(dealFundings.id, ledgerEntries.fundingId))
    .where(and(eq(dealFundings.dealId, dealId), eq(ledgerEntries.kind, "deal_refund")));
  return rows.reduce((sum, row) => sum - row.gross, 0);
}
