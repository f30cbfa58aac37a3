import { and, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealFundings } from "#server/platform/db/schema";
import type { PaymentProvider } from "#server/providers/payments/port";
import { heldSoFar, lockFundingOfPayment, recordHeldRefund } from "./held-refunds";

/**
 * A cancelled deal's money going back to the sponsor (ADR 0080): what is still held (paid less
 * what was refunded or released) is refunded at the provider, outside any transaction, with a key
 * from the funding's id, so a retry by another process or after a crash gets the same refund. A
 * refund the provider says succeeded is written at once (its event, arriving too, finds it
 * written); a pending one is written by its `refund.updated`. The funding is `refunding` until
 * nothing is held, then `refunded`. Whatever fails is tried again by the `deal-work` job.
 */

export type RefundOutcome = "REFUNDED" | "PENDING" | "NOTHING_HELD" | "NOT_DUE";

export async function refundCancelledDeal(db: Db, provider: Pick<PaymentProvider, "refundHeldPayment">, dealId: string): Promise<RefundOutcome> {
  const [funding] = await db.select().from(dealFundings).where(and(eq(dealFundings.dealId, dealId), eq(dealFundings.state, "refunding")));
  if (!funding?.paymentIntentId) return "NOT_DUE";
  const { paid, out } = await heldSoFar(db, funding.id);
  const held = paid - out;
  if (held > 0) {
    const refund = await provider.refundHeldPayment({ idempotencyKey: `deal_cancel_${funding.id}`, paymentIntentId: funding.paymentIntentId, amount: held });
    if (refund.status !== "succeeded") return "PENDING";
    await db.transaction(async (tx) => {
      const locked = await lockFundingOfPayment(tx, funding.paymentIntentId!);
      if (locked) await recordHeldRefund(tx, locked, { refundId: refund.refundId, amount: held, currency: funding.currency });
    });
  }
  const after = await heldSoFar(db, funding.id);
  if (after.paid - after.out > 0) return "PENDING";
  await db.update(dealFundings).set({ state: "refunded" }).where(and(eq(dealFundings.id, funding.id), eq(dealFundings.state, "refunding")));
  return held > 0 ? "REFUNDED" : "NOTHING_HELD";
}

/** The sweep: every cancelled deal whose money is still held, refunded one by one; one failing does not stop the others. */
export async function refundCancelledDeals(
  db: Db,
  provider: Pick<PaymentProvider, "refundHeldPayment">,
  onFailure: (dealId: string, error: unknown) => void = () => {},
): Promise<{ refunded: number; pending: number; failed: number }> {
  const due = await db.select({ dealId: dealFundings.dealId }).from(dealFundings).where(eq(dealFundings.state, "refunding")).limit(500);
  const counts = { refunded: 0, pending: 0, failed: 0 };
  for (const { dealId } of due) {
    try {
      const outcome = await refundCancelledDeal(db, provider, dealId);
      if (outcome === "REFUNDED" || outcome === "NOTHING_HELD") counts.refunded += 1;
      if (outcome === "PENDING") counts.pending += 1;
    } catch (error) {
      counts.failed += 1;
      onFailure(dealId, error);
    }
  }
  return counts;
}
