import { and, eq, inArray } from "drizzle-orm";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";
import type { Db } from "#server/platform/db/client";
import { sandboxDisputes, sandboxPayments } from "#server/providers/payments/sandbox/schema";
import { missing, SandboxRequestError } from "./errors";
import { sandboxId } from "./ids";
import { recordSandboxEvent, type DbOrTx } from "./outbox";

/** Stripe's dispute reasons a sponsor's bank may give (a subset). */
export const DISPUTE_REASONS = ["fraudulent", "product_not_received", "duplicate", "general"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];
export type DisputeOutcome = "won" | "lost";

/** Stripe's dispute fee in the US, taken from the platform's balance when the money is withdrawn (not returned when won). */
export const SANDBOX_DISPUTE_FEE = 1_500;
/** Stripe gives about a week to answer most card networks' disputes. */
const EVIDENCE_DAYS = 7;

type SandboxDispute = typeof sandboxDisputes.$inferSelect;

function recordChange(tx: DbOrTx, dispute: SandboxDispute, chargeId: string, now: Date) {
  return recordSandboxEvent(
    tx,
    {
      type: "dispute.changed",
      disputeId: dispute.id,
      paymentIntentId: dispute.paymentIntentId,
      chargeId,
      reason: dispute.reason,
      status: dispute.status as "needs_response" | "won" | "lost",
      evidenceDueBy: dispute.evidenceDueBy,
      // The money (and the fee) left at opening, so every report of the dispute carries the fee.
      fee: dispute.fee,
      amount: dispute.amount,
      currency: dispute.currency,
    },
    now,
  );
}

/**
 * The sponsor's bank disputes the whole payment (what Stripe's test card
 * 4000 0000 0000 0259 does on its own): the amount and the dispute fee are
 * withdrawn, and `dispute.changed` (needs_response) is stored for the
 * handlers. A payment has at most one dispute: opening again returns it.
 */
export async function disputeSandboxPayment(db: Db, input: { paymentIntentId: string; reason?: DisputeReason }, now = new Date()): Promise<{ disputeId: string }> {
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, input.paymentIntentId)).for("update");
    if (!payment) throw missing("payment_intent", input.paymentIntentId);
    const [existing] = await tx.select().from(sandboxDisputes).where(eq(sandboxDisputes.paymentIntentId, payment.id));
    if (existing) return { disputeId: existing.id };
    if (payment.amountRefunded >= payment.amount) {
      throw new SandboxRequestError("charge_already_refunded", `Charge ${payment.chargeId} was refunded; there is nothing to dispute.`);
    }
    const [dispute] = await tx
      .insert(sandboxDisputes)
      .values({
        id: sandboxId("du"),
        paymentIntentId: payment.id,
        amount: payment.amount - payment.amountRefunded,
        currency: payment.currency,
        reason: input.reason ?? "fraudulent",
        status: "needs_response",
        fee: SANDBOX_DISPUTE_FEE,
        evidenceDueBy: new Date(now.getTime() + EVIDENCE_DAYS * 86_400_000),
        created: now,
      })
      .returning();
    await recordChange(tx, dispute!, payment.chargeId, now);
    return { disputeId: dispute!.id };
  });
}

/** The bank decides an open dispute: stores `dispute.changed` won (the money comes back, not the fee) or lost. Closed stays closed. */
export async function closeSandboxDispute(db: Db, input: { paymentIntentId: string; outcome: DisputeOutcome }, now = new Date()): Promise<{ disputeId: string }> {
  return db.transaction(async (tx) => {
    const [dispute] = await tx.select().from(sandboxDisputes).where(eq(sandboxDisputes.paymentIntentId, input.paymentIntentId)).for("update");
    if (!dispute) throw missing("dispute of payment_intent", input.paymentIntentId);
    if (dispute.status !== "needs_response") return { disputeId: dispute.id };
    const [payment] = await tx.select({ chargeId: sandboxPayments.chargeId }).from(sandboxPayments).where(eq(sandboxPayments.id, dispute.paymentIntentId));
    const [closed] = await tx.update(sandboxDisputes).set({ status: input.outcome }).where(eq(sandboxDisputes.id, dispute.id)).returning();
    await recordChange(tx, closed!, payment!.chargeId, now);
    return { disputeId: dispute.id };
  });
}

/** The disputes of an account's payments, by payment intent (the dashboard shows each beside its payment). */
export async function sandboxDisputesByPayment(db: Db, paymentIntentIds: string[]): Promise<Map<string, SandboxDispute>> {
  if (paymentIntentIds.length === 0) return new Map();
  const rows = await db.select().from(sandboxDisputes).where(inArray(sandboxDisputes.paymentIntentId, paymentIntentIds));
  return new Map(rows.map((row) => [row.paymentIntentId, row]));
}

export type DashboardDisputeIntent = "dispute" | "won" | "lost";

/**
 * The payouts dashboard's test actions: pretend to be the sponsor's bank and
 * open a dispute on one of this account's payments, or decide it. Another
 * account's payment is not found; a refunded one cannot be disputed.
 */
export async function applyDashboardDisputeAction(
  db: Db,
  input: { accountId: string; paymentIntentId: string; intent: DashboardDisputeIntent },
  now: Date,
): Promise<Result<{ message: string }, Refusal<"not-found", "NO_SUCH_PAYMENT", object> | Refusal<"aborted", "NOT_DISPUTABLE", object>>> {
  const [payment] = await db.select({ id: sandboxPayments.id }).from(sandboxPayments).where(and(eq(sandboxPayments.id, input.paymentIntentId), eq(sandboxPayments.accountId, input.accountId)));
  if (!payment) return refusal("not-found", "NO_SUCH_PAYMENT", "There is no such payment on this account.");
  try {
    if (input.intent === "dispute") {
      await disputeSandboxPayment(db, { paymentIntentId: payment.id }, now);
      return success({ message: "The sponsor's bank disputed the payment: the amount and a $15.00 dispute fee were withdrawn." });
    }
    await closeSandboxDispute(db, { paymentIntentId: payment.id, outcome: input.intent }, now);
    return success({ message: input.intent === "won" ? "The bank decided for the creator: the amount was returned (the fee was not)." : "The bank decided for the sponsor: the amount stays with them." });
  } catch (error) {
    if (error instanceof SandboxRequestError) return refusal("aborted", "NOT_DISPUTABLE", error.message);
    throw error;
  }
}
