import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { sandboxPayments } from "#server/payments/sandbox/schema";
import { missing } from "./errors";
import { sandboxId } from "./ids";
import { recordSandboxEvent } from "./outbox";

/** Stripe's dispute reasons a sponsor's bank may give (a subset). */
export const DISPUTE_REASONS = ["fraudulent", "product_not_received", "duplicate", "general"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/**
 * The sponsor's bank disputes the whole payment (what Stripe's test card
 * 4000 0000 0000 0259 does on its own; the sandbox has no such card). No
 * dispute pages and no balance change: this is for tests and demos (the test
 * hook calls it) and stores `dispute.created` for the handlers.
 */
export async function disputeSandboxPayment(db: Db, input: { paymentIntentId: string; reason?: DisputeReason }, now = new Date()): Promise<{ disputeId: string }> {
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, input.paymentIntentId)).for("update");
    if (!payment) throw missing("payment_intent", input.paymentIntentId);
    const disputeId = sandboxId("du");
    await recordSandboxEvent(
      tx,
      {
        type: "dispute.created",
        disputeId,
        paymentIntentId: payment.id,
        chargeId: payment.chargeId,
        reason: input.reason ?? "fraudulent",
        amount: payment.amount,
        currency: payment.currency,
      },
      now,
    );
    return { disputeId };
  });
}
