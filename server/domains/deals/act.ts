import { and, eq, sql } from "drizzle-orm";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { Db } from "#server/platform/db/client";
import { dealActivity, dealFundings, deals, dealSubmissions, dealTerms, profiles, type DealSide } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { tellOtherSide } from "./notices";
import { isOverdue } from "./work-view";
import { everyDeliverableApproved, recordDisputeOpened } from "./dispute-records";
import type { DealTermsInput } from "./terms-form";
import { otherSide, positionAfter, whyNot } from "./transitions";

export type DealMove =
  | { action: "counter"; terms: DealTermsInput }
  | { action: "accept"; /** The version the person read: terms that changed since are not accepted blind. */ version: number }
  | { action: "decline"; message: string }
  | { action: "withdraw" }
  | { action: "shortlist"; shortlisted: boolean }
  | { action: "request_cancel"; reason: string }
  | { action: "agree_cancel" }
  | { action: "cancel_late" }
  | { action: "dispute"; reason: string };

export type DealMoveRefusal =
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"aborted", "WRONG_STATE" | "NOT_YOUR_TURN" | "TERMS_CHANGED" | "NOT_LATE" | "RELEASE_DUE">
  | Refusal<"permission-denied", "PAYOUTS_NEEDED">
  | FieldRefusal<{ message?: string }>;

const NO_SUCH_DEAL = refusal("not-found", "NOT_FOUND", "There is no such deal.");

const MOVE_REFUSALS = {
  WRONG_STATE: "This deal has moved on since you opened it: nothing to do there now.",
  NOT_YOUR_TURN: "The other side is to answer these terms.",
} as const;

function sideOf(deal: { creatorUid: string | null; sponsorUid: string | null }, uid: string): DealSide | null {
  if (deal.creatorUid === uid) return "creator";
  if (deal.sponsorUid === uid) return "sponsor";
  return null;
}

async function creatorCanBePaid(tx: Db, creatorUid: string | null): Promise<boolean> {
  if (creatorUid === null) return false;
  const [row] = await tx.select({ enabled: profiles.paymentsEnabled }).from(profiles).where(eq(profiles.uid, creatorUid));
  return row?.enabled === true;
}

/**
 * Whether a deliverable of the accepted terms is overdue (work-view.ts isOverdue): what lets the
 * sponsor cancel a booked deal alone.
 */
async function dueDateMissed(tx: Db, deal: { id: string; acceptedVersion: number | null }, now: Date): Promise<boolean> {
  if (deal.acceptedVersion === null) return false;
  const [terms] = await tx.select({ deliverables: dealTerms.deliverables }).from(dealTerms).where(and(eq(dealTerms.dealId, deal.id), eq(dealTerms.version, deal.acceptedVersion)));
  const handedIn = new Set((await tx.selectDistinct({ deliverable: dealSubmissions.deliverable }).from(dealSubmissions).where(eq(dealSubmissions.dealId, deal.id))).map((r) => r.deliverable));
  return (terms?.deliverables ?? []).some((d, index) => isOverdue(d, handedIn.has(index), now));
}

/**
 * One side's move on a deal (the table in transitions.ts decides whether they may), under the
 * deal's row lock so two moves at once are taken one after the other: the state, the terms when
 * countered, who accepted from where, the activity row, and the other side told.
 */
export async function moveDeal(
  db: Db,
  deps: NotificationDeps,
  input: { uid: string; dealId: string; move: DealMove; network: string },
  now = new Date(),
): Promise<Success<{ dealId: string }> | DealMoveRefusal> {
  if (input.move.action === "decline" && [...input.move.message].length > MAX_DEAL_TEXT) {
    return fieldRefusal({ message: `Must be at most ${MAX_DEAL_TEXT} characters` });
  }
  if (input.move.action === "request_cancel" && [...input.move.reason].length > MAX_DEAL_TEXT) {
    return fieldRefusal({ message: `Must be at most ${MAX_DEAL_TEXT} characters` });
  }
  if (input.move.action === "dispute") {
    const reason = input.move.reason.trim();
    if (!reason) return fieldRefusal({ message: "Say what went wrong: staff read it first" });
    if ([...reason].length > MAX_DEAL_TEXT) return fieldRefusal({ message: `Must be at most ${MAX_DEAL_TEXT} characters` });
  }
  return db.transaction(async (tx) => {
    const [deal] = await tx.select().from(deals).where(eq(deals.id, input.dealId)).for("update");
    const side = deal ? sideOf(deal, input.uid) : null;
    if (!deal || side === null) return NO_SUCH_DEAL;
    const { move } = input;
    const refused = whyNot(move.action, side, deal);
    if (refused) return refusal("aborted", refused, MOVE_REFUSALS[refused]);
    if (move.action === "accept" && move.version !== deal.latestVersion) {
      return refusal("aborted", "TERMS_CHANGED", "The terms changed since you opened this page: read them again before you accept.");
    }
    if (move.action === "accept" && !(await creatorCanBePaid(tx, deal.creatorUid))) {
      const message =
        side === "creator"
          ? "Connect payouts before you accept: the sponsor's money is paid out to your payout account."
          : "The creator has not connected payouts yet, so this deal cannot be agreed. Ask them in your counter-offer's message.";
      return refusal("permission-denied", "PAYOUTS_NEEDED", message);
    }
    if (move.action === "cancel_late" && !(await dueDateMissed(tx, deal, now))) {
      return refusal("aborted", "NOT_LATE", "No due date has passed without the work handed in: ask the creator to cancel instead.");
    }
    if (move.action === "dispute" && (await everyDeliverableApproved(tx, deal.id))) {
      return refusal("aborted", "RELEASE_DUE", "Every deliverable is approved and the money is on its way to the creator: there is nothing left to dispute here.");
    }
    const cancelling = move.action === "agree_cancel" || move.action === "cancel_late";

    const after = positionAfter(move.action, side, deal);
    const version = move.action === "counter" ? deal.latestVersion + 1 : deal.latestVersion;
    if (move.action === "counter") {
      await tx.insert(dealTerms).values({ dealId: deal.id, version, proposedBy: side, ...move.terms, createdAt: now });
    }
    await tx
      .update(deals)
      .set({
        state: after.state,
        waitingOn: after.waitingOn,
        latestVersion: version,
        updatedAt: now,
        ...(move.action === "shortlist" ? { shortlisted: move.shortlisted } : {}),
        ...(move.action === "decline" ? { declineMessage: move.message.trim() || null } : {}),
        ...(move.action === "decline" || move.action === "withdraw" || cancelling ? { endedBy: input.uid } : {}),
        ...(move.action === "request_cancel" ? { cancelRequestedBy: side, cancelReason: move.reason.trim() || null } : {}),
        ...(move.action === "accept" ? { acceptedVersion: version, acceptedBy: input.uid, acceptedAt: now, acceptedFrom: input.network } : {}),
      })
      .where(eq(deals.id, deal.id));
    await tx.insert(dealActivity).values({
      dealId: deal.id,
      seq: sql`(select coalesce(max(${dealActivity.seq}), 0) + 1 from ${dealActivity} where ${dealActivity.dealId} = ${deal.id})`,
      action: move.action,
      actorUid: input.uid,
      fromState: deal.state,
      toState: after.state,
      termsVersion: version,
      network: input.network,
      at: now,
    });
    if (move.action === "dispute") await recordDisputeOpened(tx, { dealId: deal.id, openedBy: side, openedByUid: input.uid, reason: move.reason }, now);
    // The held money is to go back: refunds.ts makes the refund once this has committed.
    if (cancelling) await tx.update(dealFundings).set({ state: "refunding" }).where(and(eq(dealFundings.dealId, deal.id), eq(dealFundings.state, "paid")));
    if (move.action !== "shortlist") {
      const [terms] = await tx.select({ price: dealTerms.price, currency: dealTerms.currency }).from(dealTerms).where(and(eq(dealTerms.dealId, deal.id), eq(dealTerms.version, version)));
      const recipientUid = otherSide(side) === "creator" ? deal.creatorUid : deal.sponsorUid;
      await tellOtherSide(tx, deps, { recipientUid, actorUid: input.uid, news: move.action, dealId: deal.id, title: deal.title, price: terms!.price, currency: terms!.currency });
    }
    return success({ dealId: deal.id });
  });
}
