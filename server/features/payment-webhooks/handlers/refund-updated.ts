import { and, eq, inArray } from "drizzle-orm";
import { refundRequests } from "#server/platform/db/schema";
import type { Db } from "#server/platform/db/client";
import { applySucceededRefund } from "#server/features/payment-webhooks/apply-refund";
import { heldRefundUpdated } from "#server/features/payment-webhooks/deal-charges";
import { lockSessionById, lockSessionOfPayment, type LockedSession } from "#server/domains/payments/checkout/locked-sessions";
import { RetryLater, type Handler } from "#server/features/payment-webhooks/types";

async function sessionOfRefund(tx: Db, paymentIntentId: string | null, refundId: string): Promise<LockedSession | null> {
  if (paymentIntentId) return lockSessionOfPayment(tx, paymentIntentId);
  const [request] = await tx.select({ sessionId: refundRequests.sessionId }).from(refundRequests).where(eq(refundRequests.providerRefundId, refundId));
  return request ? lockSessionById(tx, request.sessionId) : null;
}

/**
 * A refund changed state. Succeeded: as charge.refunded. Failed or canceled:
 * the request is failed (the owner may ask again) and the session stays
 * completed — a refund in flight never changed its status. Pending: the
 * request learns the provider's refund id if it did not know it yet. A refund
 * of a deal's held charge goes to the deal first (../deal-charges.ts).
 */
export const refundUpdated: Handler<"refund.updated"> = {
  async handle(tx, event, _prefetched, deps) {
    if (await heldRefundUpdated(tx, event, deps)) return;
    const session = await sessionOfRefund(tx, event.paymentIntentId, event.refundId);
    if (event.status === "succeeded") {
      const paymentIntentId = session?.paymentIntentId ?? event.paymentIntentId;
      if (!session || !paymentIntentId) throw new RetryLater(`no session for refund ${event.refundId} yet`);
      await applySucceededRefund(tx, session, { paymentIntentId, amount: event.amount, currency: event.currency, refundId: event.refundId }, deps);
      return;
    }
    if (!session) return;
    const open = and(eq(refundRequests.sessionId, session.id), inArray(refundRequests.status, ["requested", "pending"]));
    if (event.status === "failed" || event.status === "canceled") {
      await tx.update(refundRequests).set({ status: "failed", providerRefundId: event.refundId, updatedAt: new Date() }).where(open);
      return;
    }
    await tx.update(refundRequests).set({ status: "pending", providerRefundId: event.refundId, updatedAt: new Date() }).where(open);
  },
};
