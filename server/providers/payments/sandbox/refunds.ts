import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxPayments, sandboxRefunds } from "#server/providers/payments/sandbox/schema";
import type { PaymentDetails, RefundCreated } from "#server/providers/payments/port";
import { missing, SandboxRequestError } from "./errors";
import { sandboxId } from "./ids";
import { recordSandboxEvent } from "./outbox";

export async function sandboxPaymentDetails(db: Db, paymentIntentId: string): Promise<PaymentDetails> {
  const [payment] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentIntentId));
  if (!payment) throw missing("payment_intent", paymentIntentId);
  return { paymentIntentId: payment.id, chargeId: payment.chargeId, gross: payment.amount, providerFee: payment.fee, currency: payment.currency };
}

/**
 * Refunds all of a payment, as Stripe's refund with `reverse_transfer` and
 * `refund_application_fee`: the sponsor gets the whole amount back, the
 * account gives back what it received, the platform its fee; the processing
 * fee is not returned. It succeeds at once (card refunds in test mode do) and
 * stores `charge.refunded` and `refund.updated`, as the Stripe provider turns
 * Stripe's `charge.refunded` and `refund.created` into (decision 0019). The
 * payment row is locked, so concurrent requests make one refund: the same key
 * returns it, another key is refused as Stripe refuses a second full refund.
 */
export async function refundSandboxPayment(db: Db, input: { idempotencyKey: string; paymentIntentId: string }, now = new Date()): Promise<RefundCreated> {
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, input.paymentIntentId)).for("update");
    if (!payment) throw missing("payment_intent", input.paymentIntentId);
    const [same] = await tx.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, input.idempotencyKey));
    if (same) {
      if (same.paymentId !== payment.id) throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
      return { refundId: same.id, status: "succeeded" };
    }
    if (payment.amountRefunded >= payment.amount) {
      throw new SandboxRequestError("charge_already_refunded", `Charge ${payment.chargeId} has already been refunded.`);
    }
    const refundId = sandboxId("re");
    await tx.insert(sandboxRefunds).values({
      id: refundId,
      idempotencyKey: input.idempotencyKey,
      paymentId: payment.id,
      amount: payment.amount,
      applicationFeeRefunded: payment.applicationFee,
      currency: payment.currency,
      status: "succeeded",
      created: now,
    });
    await tx
      .update(sandboxPayments)
      .set({ amountRefunded: payment.amount })
      .where(eq(sandboxPayments.id, payment.id));
    await recordSandboxEvent(
      tx,
      { type: "charge.refunded", paymentIntentId: payment.id, chargeId: payment.chargeId, amountRefunded: payment.amount, currency: payment.currency },
      now,
    );
    await recordSandboxEvent(
      tx,
      { type: "refund.updated", refundId, paymentIntentId: payment.id, status: "succeeded", amount: payment.amount, currency: payment.currency },
      now,
    );
    return { refundId, status: "succeeded" };
  });
}
