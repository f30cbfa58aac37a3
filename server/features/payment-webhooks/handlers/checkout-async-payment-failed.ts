import { and, eq } from "drizzle-orm";
import { sponsorSessions } from "#server/platform/db/schema";
import { lockSessionOfCheckout } from "#server/domains/payments/checkout/locked-sessions";
import { closeDealCheckout, isDealCheckout } from "#server/features/payment-webhooks/deal-checkouts";
import type { Handler } from "#server/features/payment-webhooks/types";

/** A delayed payment failed: a pending session becomes failed; one with money recorded keeps its status (a deal's checkout closes its funding). */
export const checkoutAsyncPaymentFailed: Handler<"checkout.async_payment_failed"> = {
  async handle(tx, event) {
    if (isDealCheckout(event)) return closeDealCheckout(tx, event);
    const session = await lockSessionOfCheckout(tx, event);
    if (!session) return;
    await tx
      .update(sponsorSessions)
      .set({ status: "failed", updatedAt: new Date() })
      .where(and(eq(sponsorSessions.id, session.id), eq(sponsorSessions.status, "pending")));
  },
};
