import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxPayments, sandboxRefunds } from "#server/providers/payments/sandbox/schema";
import type { PaymentDetails, ProviderRefund, RefundCreated } from "#server/providers/payments/port";
import { missing, SandboxRequestError } from "./errors";
import { sandboxId } from "./ids";
import { recordSandboxEvent } from "./outbox";

export async function sandboxPaymentDetails(db: Db, paymentIntentId: string): Promise<PaymentDetails> {
  const [payment] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentIntentId));
  if (!payment) throw missing("payment_intent", paymentIntentId);
  return { paymentIntentId: payment.id, chargeId: payment.chargeId, gross: payment.amount, providerFee: payment.fee, currency: payment.currency };
}

/** Every refund of the payment, oldest first; the sandbox's refunds succeed at once, so all say succeeded. */
export async function listSandboxRefunds(db: Db, paymentIntentId: string): Promise<ProviderRefund[]> {
  const rows = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, paymentIntentId)).orderBy(asc(sandboxRefunds.created), asc(sandboxRefunds.id));
  return rows.map((r) => ({ refundId: r.id, amount: r.amount, currency: r.currency, status: r.status as ProviderRefund["status"] }));
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
    if (payment.accountId === null) {
      // Stripe refuses reverse_transfer on a charge that made no transfer; refundHeldPayment is the held charge's refund.
      throw new SandboxRequestError("parameter_invalid", `Charge ${payment.chargeId} is held by the platform and has no transfer to reverse; refund it as a held payment.`);
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

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Refunds `amount` of a held charge (a deal's) from the platform's balance, as Stripe's refund
 * with an amount and neither reverse_transfer nor refund_application_fee: no connected account
 * gives anything back, and the processing fee is not returned. Several refunds may each take a
 * part, up to what is left unrefunded (what was transferred is the platform's loss to avoid, not
 * the refund's limit, as at Stripe). Stores `charge.refunded` (everything refunded so far) and
 * `refund.updated` (this refund), in the transaction that makes it. The payment row is locked, so
 * refunds and transfers of one charge are made one after the other; the same key returns its refund.
 */
export async function refundHeldSandboxPayment(
  db: Db,
  input: { idempotencyKey: string; paymentIntentId: string; amount: number },
  now = new Date(),
): Promise<RefundCreated> {
  if (!Number.isSafeInteger(input.amount) || input.amount < 1) throw new SandboxRequestError("parameter_invalid", "amount must be a positive whole number of minor units");
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, input.paymentIntentId)).for("update");
    if (!payment) throw missing("payment_intent", input.paymentIntentId);
    const [same] = await tx.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, input.idempotencyKey));
    if (same) {
      if (same.paymentId !== payment.id || same.amount !== input.amount) throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
      return { refundId: same.id, status: "succeeded" };
    }
    if (payment.accountId !== null) {
      throw new SandboxRequestError("parameter_invalid", `Charge ${payment.chargeId} is a destination charge: refund it whole, reversing its transfer.`);
    }
    const unrefunded = payment.amount - payment.amountRefunded;
    if (unrefunded <= 0) throw new SandboxRequestError("charge_already_refunded", `Charge ${payment.chargeId} has already been refunded.`);
    if (input.amount > unrefunded) {
      throw new SandboxRequestError("parameter_invalid", `Refund amount (${dollars(input.amount)}) is greater than unrefunded amount on charge (${dollars(unrefunded)})`);
    }
    const refundId = sandboxId("re");
    await tx.insert(sandboxRefunds).values({
      id: refundId,
      idempotencyKey: input.idempotencyKey,
      paymentId: payment.id,
      amount: input.amount,
      applicationFeeRefunded: 0,
      currency: payment.currency,
      status: "succeeded",
      created: now,
    });
    const amountRefunded = payment.amountRefunded + input.amount;
    await tx.update(sandboxPayments).set({ amountRefunded }).where(eq(sandboxPayments.id, payment.id));
    await recordSandboxEvent(tx, { type: "charge.refunded", paymentIntentId: payment.id, chargeId: payment.chargeId, amountRefunded, currency: payment.currency }, now);
    await recordSandboxEvent(
      tx,
      { type: "refund.updated", refundId, paymentIntentId: payment.id, status: "succeeded", amount: input.amount, currency: payment.currency },
      now,
    );
    return { refundId, status: "succeeded" };
  });
}
