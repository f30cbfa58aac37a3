import { and, asc, desc, eq, lte } from "drizzle-orm";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { Db } from "#server/platform/db/client";
import { deals, dealSubmissions, dealTerms, type DealTerms, type SubmissionState } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { MAX_CHANGE_ROUNDS, MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { storeDealFiles, type CheckedFile } from "./files";
import { tellAboutWork } from "./notices";

/**
 * The work on a booked deal (ADR 0080): the creator hands in each deliverable of the accepted
 * terms with where it went live; the sponsor approves it or asks for changes, at most
 * MAX_CHANGE_ROUNDS times per deliverable; a submission the sponsor leaves past the terms'
 * auto-approval window is approved by the platform. When every deliverable is approved the deal
 * is due its release (release.ts), which the caller asks for.
 */

export type WorkRefusal =
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"aborted", "WRONG_STATE" | "NOT_YOUR_TURN" | "NO_ROUNDS_LEFT">
  | FieldRefusal<{ liveUrl?: string; note?: string }>;

const NO_SUCH_DEAL = refusal("not-found", "NOT_FOUND", "There is no such deal.");
const DAY_MS = 86_400_000;

type LockedDeal = typeof deals.$inferSelect;

/** The deal under its row lock, when `uid` is on it, with the terms both sides accepted. */
async function lockBookedDeal(tx: Db, uid: string, dealId: string): Promise<{ deal: LockedDeal; terms: DealTerms } | WorkRefusal> {
  const [deal] = await tx.select().from(deals).where(eq(deals.id, dealId)).for("update");
  if (!deal || (deal.creatorUid !== uid && deal.sponsorUid !== uid)) return NO_SUCH_DEAL;
  if (deal.state !== "funded" || deal.acceptedVersion === null) return refusal("aborted", "WRONG_STATE", "Work is handed in and reviewed while a deal is booked.");
  const [terms] = await tx.select().from(dealTerms).where(and(eq(dealTerms.dealId, deal.id), eq(dealTerms.version, deal.acceptedVersion)));
  return { deal, terms: terms! };
}

async function latestSubmission(tx: Db, dealId: string, deliverable: number) {
  const [row] = await tx
    .select()
    .from(dealSubmissions)
    .where(and(eq(dealSubmissions.dealId, dealId), eq(dealSubmissions.deliverable, deliverable)))
    .orderBy(desc(dealSubmissions.round))
    .limit(1);
  return row ?? null;
}

const chars = (text: string) => [...text].length;

/**
 * The creator hands in deliverable `deliverable` (its place in the accepted terms) with the address
 * where it went live. Allowed when it was never handed in or the sponsor asked for changes; with
 * terms that do not ask the sponsor's approval first, it is approved as it is handed in.
 */
export async function submitDeliverable(
  db: Db,
  deps: NotificationDeps,
  input: { uid: string; dealId: string; deliverable: number; liveUrl: string; note: string; screenshot?: CheckedFile | null },
  now = new Date(),
): Promise<Success<{ round: number; state: SubmissionState }> | WorkRefusal> {
  const liveUrl = input.liveUrl.trim();
  const note = input.note.trim();
  const fieldErrors: { liveUrl?: string; note?: string } = {};
  if (!/^https?:\/\/[^\s]+$/i.test(liveUrl) || chars(liveUrl) > 500) fieldErrors.liveUrl = "Enter the address where it is live, starting with https://";
  if (chars(note) > MAX_DEAL_TEXT) fieldErrors.note = `Must be at most ${MAX_DEAL_TEXT} characters`;
  if (Object.keys(fieldErrors).length > 0) return fieldRefusal(fieldErrors);

  return db.transaction(async (tx) => {
    const locked = await lockBookedDeal(tx, input.uid, input.dealId);
    if ("kind" in locked) return locked;
    const { deal, terms } = locked;
    if (deal.creatorUid !== input.uid) return refusal("aborted", "NOT_YOUR_TURN", "The creator hands in the work.");
    if (!Number.isInteger(input.deliverable) || input.deliverable < 0 || input.deliverable >= terms.deliverables.length) return NO_SUCH_DEAL;
    const last = await latestSubmission(tx, deal.id, input.deliverable);
    if (last && last.state !== "changes_requested") {
      return refusal("aborted", "WRONG_STATE", last.state === "approved" ? "This deliverable is approved already." : "This deliverable waits on the sponsor's review.");
    }
    const round = (last?.round ?? 0) + 1;
    const state: SubmissionState = terms.sponsorApproves ? "submitted" : "approved";
    await tx.insert(dealSubmissions).values({
      dealId: deal.id,
      deliverable: input.deliverable,
      round,
      liveUrl,
      note,
      state,
      submittedAt: now,
      autoApproveAt: terms.sponsorApproves ? new Date(now.getTime() + terms.autoApproveDays * DAY_MS) : null,
      reviewedAt: terms.sponsorApproves ? null : now,
    });
    if (input.screenshot) await storeDealFiles(tx, { dealId: deal.id, uploaderUid: input.uid, place: "submission", deliverable: input.deliverable, round }, [input.screenshot], now);
    await tx.update(deals).set({ updatedAt: now }).where(eq(deals.id, deal.id));
    await tellAboutWork(tx, deps, { deal, news: "submitted", actorUid: input.uid, deliverable: terms.deliverables[input.deliverable]!.format, deliverableIndex: input.deliverable });
    return success({ round, state });
  });
}

export type ReviewVerdict = { verdict: "approve" } | { verdict: "changes"; note: string };

/** The sponsor's review of the deliverable waiting on them: approve it, or ask for changes while rounds are left. */
export async function reviewDeliverable(
  db: Db,
  deps: NotificationDeps,
  input: { uid: string; dealId: string; deliverable: number; review: ReviewVerdict },
  now = new Date(),
): Promise<Success<{ verdict: ReviewVerdict["verdict"] }> | WorkRefusal> {
  const { review } = input;
  if (review.verdict === "changes") {
    const note = review.note.trim();
    if (!note) return fieldRefusal({ note: "Say what should change" });
    if (chars(note) > MAX_DEAL_TEXT) return fieldRefusal({ note: `Must be at most ${MAX_DEAL_TEXT} characters` });
  }
  return db.transaction(async (tx) => {
    const locked = await lockBookedDeal(tx, input.uid, input.dealId);
    if ("kind" in locked) return locked;
    const { deal, terms } = locked;
    if (deal.sponsorUid !== input.uid) return refusal("aborted", "NOT_YOUR_TURN", "The sponsor reviews the work.");
    const last = Number.isInteger(input.deliverable) ? await latestSubmission(tx, deal.id, input.deliverable) : null;
    if (!last || last.state !== "submitted") return refusal("aborted", "WRONG_STATE", "Nothing of this deliverable waits on your review.");
    if (review.verdict === "changes" && last.round > MAX_CHANGE_ROUNDS) {
      return refusal("aborted", "NO_ROUNDS_LEFT", `You have asked for changes ${MAX_CHANGE_ROUNDS} times on this deliverable: approve it, or talk it through in the messages.`);
    }
    await tx
      .update(dealSubmissions)
      .set({
        state: review.verdict === "approve" ? "approved" : "changes_requested",
        reviewedAt: now,
        reviewedBy: input.uid,
        reviewNote: review.verdict === "changes" ? review.note.trim() : null,
      })
      .where(and(eq(dealSubmissions.dealId, deal.id), eq(dealSubmissions.deliverable, input.deliverable), eq(dealSubmissions.round, last.round)));
    await tx.update(deals).set({ updatedAt: now }).where(eq(deals.id, deal.id));
    const format = terms.deliverables[input.deliverable]!.format;
    await tellAboutWork(tx, deps, { deal, news: review.verdict === "approve" ? "approved" : "changes", actorUid: input.uid, deliverable: format, deliverableIndex: input.deliverable });
    return success({ verdict: review.verdict });
  });
}

/**
 * Submissions left unreviewed past their auto-approval time are approved by the platform, and the
 * sponsor is told; returns the deals touched (their release is then due). A scheduled job runs it.
 */
export async function autoApproveDue(db: Db, deps: NotificationDeps, now = new Date()): Promise<string[]> {
  const due = await db
    .select({ dealId: dealSubmissions.dealId, deliverable: dealSubmissions.deliverable, round: dealSubmissions.round })
    .from(dealSubmissions)
    .where(and(eq(dealSubmissions.state, "submitted"), lte(dealSubmissions.autoApproveAt, now)))
    .orderBy(asc(dealSubmissions.autoApproveAt))
    .limit(500);
  const touched = new Set<string>();
  for (const submission of due) {
    await db.transaction(async (tx) => {
      const [deal] = await tx.select().from(deals).where(eq(deals.id, submission.dealId)).for("update");
      if (!deal || deal.state !== "funded") return;
      const approved = await tx
        .update(dealSubmissions)
        .set({ state: "approved", reviewedAt: now, reviewedBy: null })
        .where(
          and(
            eq(dealSubmissions.dealId, submission.dealId),
            eq(dealSubmissions.deliverable, submission.deliverable),
            eq(dealSubmissions.round, submission.round),
            eq(dealSubmissions.state, "submitted"),
          ),
        )
        .returning({ liveUrl: dealSubmissions.liveUrl });
      if (approved.length === 0) return;
      const [terms] = await tx.select({ deliverables: dealTerms.deliverables }).from(dealTerms).where(and(eq(dealTerms.dealId, deal.id), eq(dealTerms.version, deal.acceptedVersion!)));
      await tx.update(deals).set({ updatedAt: now }).where(eq(deals.id, deal.id));
      await tellAboutWork(tx, deps, { deal, news: "auto-approved", actorUid: null, deliverable: terms?.deliverables[submission.deliverable]?.format ?? "A deliverable", deliverableIndex: submission.deliverable });
      touched.add(deal.id);
    });
  }
  return [...touched];
}
