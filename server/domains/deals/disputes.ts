import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { disputeSplit, DISPUTE_DECISION_LABELS, type DisputeDecisionName } from "#isomorphic/deal-disputes";
import { MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { recordDealRelease } from "#server/domains/payments/ledger/deal-ledger";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import type { Db } from "#server/platform/db/client";
import { connectedAccounts, dealActivity, dealDisputes, dealFundings, deals, ledgerEntries } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import { everyDeliverableApproved, recordDisputeOpened } from "./dispute-records";
import { transferGroupOf } from "./funding";
import { heldSoFar, lockFundingOfPayment, recordHeldRefund } from "./held-refunds";
import { tellAboutDispute } from "./notices";
import { platformMay, type PlatformAction } from "./transitions";

/**
 * Disputes on booked deals (ADR 0081). A side opens one with the table's `dispute` move (act.ts),
 * the platform with `freeze` when the sponsor's bank disputes the held charge; either way the deal
 * is `disputed`, and nothing moves its money: no review, no release, no cancel. Staff decide from
 * the back office — release, refund or split, with a reason, audited in the same transaction —
 * and `settleDispute` then moves the money the decision names, outside any transaction and with
 * keys from the funding's id (a retry, by another process or after a crash, gets the same transfer
 * and refund back), and ends the deal along `settle_paid` or `settle_refunded` once the ledger
 * shows it all. Whatever fails is tried again by the `deal-work` job.
 */

/** The platform's move on a deal, with its activity row: the same table as the sides'. */
async function platformMove(tx: Db, deal: { id: string; state: typeof deals.$inferSelect.state }, action: PlatformAction, now: Date): Promise<boolean> {
  if (!platformMay(action, deal.state)) return false;
  const to = action === "freeze" ? "disputed" : action === "settle_paid" ? "completed" : "cancelled";
  await tx.update(deals).set({ state: to, updatedAt: now }).where(eq(deals.id, deal.id));
  await tx.insert(dealActivity).values({
    dealId: deal.id,
    seq: sql`(select coalesce(max(${dealActivity.seq}), 0) + 1 from ${dealActivity} where ${dealActivity.dealId} = ${deal.id})`,
    action,
    actorUid: null,
    fromState: deal.state,
    toState: to,
    termsVersion: null,
    network: null,
    at: now,
  });
  return true;
}

/**
 * The sponsor's bank disputed a deal's held charge: a booked deal is frozen as if a side had
 * disputed it, so no money leaves the platform until staff decide. Runs in the webhook's
 * transaction; answers whether the deal was frozen now.
 */
export async function freezeForCardDispute(tx: Db, deps: NotificationDeps, input: { dealId: string; bankReason: string | null }, now = new Date()): Promise<boolean> {
  const [deal] = await tx.select().from(deals).where(eq(deals.id, input.dealId)).for("update");
  // Work all approved: its release may be under way at the provider already, so the deal is left to
  // complete, and the card dispute is staff's to answer as the log says (a decision here could not undo it).
  if (!deal || (await everyDeliverableApproved(tx, deal.id)) || !(await platformMove(tx, deal, "freeze", now))) return false;
  const reason = `The sponsor's bank disputed the card payment${input.bankReason ? ` (${input.bankReason.replaceAll("_", " ")})` : ""}.`;
  await recordDisputeOpened(tx, { dealId: deal.id, openedBy: null, openedByUid: null, reason }, now);
  await tellAboutDispute(tx, deps, { deal, news: "frozen" });
  return true;
}

export type DisputeDecisionInput = { dealId: string; decision: string; sponsorRefund?: number | null; reason: string };

export type DecideDisputeRefusal =
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"aborted", "NOT_DISPUTED" | "ALREADY_DECIDED">
  | FieldRefusal<{ decision?: string; sponsorRefund?: string; reason?: string }>;

function isDecision(value: string): value is DisputeDecisionName {
  return Object.hasOwn(DISPUTE_DECISION_LABELS, value);
}

/**
 * Staff's decision on a disputed deal, with its audit row and both sides told, in one transaction
 * under the deal's lock (two staff deciding at once: the second is refused). The money moves after
 * it commits (`settleDispute`).
 */
export async function decideDispute(
  db: Db,
  deps: NotificationDeps,
  actor: Actor,
  input: DisputeDecisionInput,
  now = new Date(),
): Promise<Success<{ sponsorRefund: number; creatorShare: number }> | DecideDisputeRefusal> {
  const reason = input.reason.trim();
  if (!isDecision(input.decision)) return fieldRefusal({ decision: "Choose release, refund or split" });
  if (!reason) return fieldRefusal({ reason: "Say why: both sides read it" });
  if ([...reason].length > MAX_DEAL_TEXT) return fieldRefusal({ reason: `Must be at most ${MAX_DEAL_TEXT} characters` });
  const decision = input.decision;
  return db.transaction(async (tx) => {
    const [deal] = await tx.select().from(deals).where(eq(deals.id, input.dealId)).for("update");
    if (!deal) return refusal("not-found", "NOT_FOUND", "There is no such deal.");
    const [dispute] = await tx.select().from(dealDisputes).where(eq(dealDisputes.dealId, deal.id));
    const [funding] = await tx.select().from(dealFundings).where(and(eq(dealFundings.dealId, deal.id), eq(dealFundings.state, "paid")));
    if (!dispute || !funding || deal.state !== "disputed") return refusal("aborted", "NOT_DISPUTED", "This deal is not disputed: there is nothing to decide.");
    if (dispute.decision !== null) return refusal("aborted", "ALREADY_DECIDED", "This dispute was decided already.");
    const refund = input.sponsorRefund ?? 0;
    if (decision === "split" && !(Number.isSafeInteger(refund) && refund >= 1 && refund <= funding.amount - 1)) {
      return fieldRefusal({ sponsorRefund: "A split refunds part of the payment: more than nothing, less than all of it" });
    }
    const split = disputeSplit(funding, decision, refund);
    await tx
      .update(dealDisputes)
      .set({
        decision,
        sponsorRefund: split.sponsorRefund,
        creatorShare: split.creatorShare,
        decidedBy: actor.kind === "staff" ? actor.id : null,
        decidedByEmail: actor.kind === "staff" ? actor.email : null,
        decisionReason: reason,
        decidedAt: now,
      })
      .where(eq(dealDisputes.dealId, deal.id));
    await recordAudit(
      tx,
      {
        actor,
        action: "deal.dispute_decide",
        subject: { type: "deal", id: deal.id },
        reason,
        before: { state: deal.state, paid: funding.amount, currency: funding.currency },
        after: { decision, ...split },
      },
      now,
    );
    await tellAboutDispute(tx, deps, { deal, news: "decided", moved: { toSponsor: split.sponsorRefund, toCreator: split.creatorShare }, currency: funding.currency, reason });
    return success({ sponsorRefund: split.sponsorRefund, creatorShare: split.creatorShare });
  });
}

export type SettleOutcome = "SETTLED" | "PENDING" | "NO_PAYOUT_ACCOUNT" | "NOT_DUE";

/** What the funding's rows say each way so far: released to the creator, refunded to the sponsor. */
async function movedSoFar(db: Db, fundingId: string): Promise<{ released: number; refunded: number }> {
  const [row] = await db
    .select({
      released: sql<number>`coalesce(sum(${ledgerEntries.net}) filter (where ${ledgerEntries.kind} = 'deal_release'), 0)::int`,
      refunded: sql<number>`coalesce(sum(-${ledgerEntries.gross}) filter (where ${ledgerEntries.kind} = 'deal_refund'), 0)::int`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.fundingId, fundingId));
  return { released: row?.released ?? 0, refunded: row?.refunded ?? 0 };
}

/**
 * Moves a decided dispute's money and ends the deal; safe to call any number of times, from any
 * process. The creator's part is one transfer with the key a normal release uses, so a release
 * that was under way when the dispute opened cannot be made twice; what the ledger shows already
 * released or refunded (that release, a refund from the provider's dashboard) counts toward the
 * decision, never on top of it.
 */
export async function settleDispute(
  db: Db,
  provider: Pick<PaymentProvider, "createTransfer" | "refundHeldPayment">,
  deps: NotificationDeps,
  dealId: string,
  now = new Date(),
): Promise<SettleOutcome> {
  const [row] = await db
    .select({ dispute: dealDisputes, funding: dealFundings, accountId: connectedAccounts.providerAccountId, creatorUid: deals.creatorUid })
    .from(dealDisputes)
    .innerJoin(deals, eq(deals.id, dealDisputes.dealId))
    .innerJoin(dealFundings, and(eq(dealFundings.dealId, dealDisputes.dealId), eq(dealFundings.state, "paid")))
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, deals.creatorUid))
    .where(and(eq(dealDisputes.dealId, dealId), isNotNull(dealDisputes.decidedAt), isNull(dealDisputes.settledAt)));
  if (!row) return "NOT_DUE";
  const { dispute, funding } = row;
  const creatorShare = dispute.creatorShare ?? 0;
  const sponsorRefund = dispute.sponsorRefund ?? 0;
  const moved = await movedSoFar(db, funding.id);

  if (creatorShare > 0 && moved.released === 0) {
    if (!row.accountId || !funding.chargeId) return "NO_PAYOUT_ACCOUNT";
    const { transferId } = await provider.createTransfer({
      idempotencyKey: `deal_release_${funding.id}`,
      destinationAccountId: row.accountId,
      amount: creatorShare,
      currency: funding.currency,
      sourceChargeId: funding.chargeId,
      transferGroup: transferGroupOf(dealId),
    });
    await db.transaction(async (tx) => {
      await tx.select({ id: dealFundings.id }).from(dealFundings).where(eq(dealFundings.id, funding.id)).for("update");
      const [known] = await tx.select({ id: ledgerEntries.id }).from(ledgerEntries).where(and(eq(ledgerEntries.kind, "deal_release"), eq(ledgerEntries.providerReference, transferId)));
      if (known) return;
      const { paid, out } = await heldSoFar(tx, funding.id);
      if (out + creatorShare > paid) throw new Error(`deal ${dealId}: the dispute's release (${creatorShare}) and what went out before (${out}) would pass what was paid (${paid}); not written`);
      await recordDealRelease(tx, { fundingId: funding.id, transferId, amount: creatorShare, currency: funding.currency });
    });
  }

  const { paid, out } = await heldSoFar(db, funding.id);
  const refundDue = Math.min(sponsorRefund - (await movedSoFar(db, funding.id)).refunded, paid - out);
  // The part of the decision's refund not made yet; the key's amount is fixed by the first try of it.
  if (refundDue > 0) {
    const refund = await provider.refundHeldPayment({ idempotencyKey: `deal_dispute_refund_${funding.id}`, paymentIntentId: funding.paymentIntentId!, amount: refundDue });
    // A pending refund is written by its refund.updated; the next sweep finds it written.
    if (refund.status !== "succeeded") return "PENDING";
    await db.transaction(async (tx) => {
      const locked = await lockFundingOfPayment(tx, funding.paymentIntentId!);
      if (locked) await recordHeldRefund(tx, locked, { refundId: refund.refundId, amount: refundDue, currency: funding.currency });
    });
  }

  return db.transaction(async (tx) => {
    const [deal] = await tx.select().from(deals).where(eq(deals.id, dealId)).for("update");
    const [locked] = await tx.select({ settledAt: dealDisputes.settledAt }).from(dealDisputes).where(eq(dealDisputes.dealId, dealId)).for("update");
    if (!deal || !locked || locked.settledAt) return "SETTLED" as const;
    const after = await movedSoFar(tx, funding.id);
    const held = await heldSoFar(tx, funding.id);
    // Short of the decision's refund only when nothing is left to refund (the dashboard took it): settled all the same.
    if (after.refunded < sponsorRefund && held.paid - held.out > 0) return "PENDING" as const;
    await tx.update(dealDisputes).set({ settledAt: now }).where(eq(dealDisputes.dealId, dealId));
    if (creatorShare === 0) await tx.update(dealFundings).set({ state: "refunded" }).where(eq(dealFundings.id, funding.id));
    await platformMove(tx, deal, after.released > 0 ? "settle_paid" : "settle_refunded", now);
    await tellAboutDispute(tx, deps, { deal, news: after.released > 0 ? "settled_paid" : "settled_refunded", moved: { toSponsor: after.refunded, toCreator: after.released }, currency: funding.currency });
    return "SETTLED" as const;
  });
}

/** The sweep: every decided dispute whose money has not all moved, settled one by one; one failing does not stop the others. */
export async function settleDecidedDisputes(
  db: Db,
  provider: Pick<PaymentProvider, "createTransfer" | "refundHeldPayment">,
  deps: NotificationDeps,
  now = new Date(),
  onFailure: (dealId: string, error: unknown) => void = () => {},
): Promise<{ settled: number; pending: number; failed: number }> {
  const due = await db
    .select({ dealId: dealDisputes.dealId })
    .from(dealDisputes)
    .where(and(isNotNull(dealDisputes.decidedAt), isNull(dealDisputes.settledAt)))
    .orderBy(dealDisputes.decidedAt)
    .limit(500);
  const counts = { settled: 0, pending: 0, failed: 0 };
  for (const { dealId } of due) {
    try {
      const outcome = await settleDispute(db, provider, deps, dealId, now);
      if (outcome === "SETTLED") counts.settled += 1;
      else counts.pending += 1;
    } catch (error) {
      counts.failed += 1;
      onFailure(dealId, error);
    }
  }
  return counts;
}
