import { and, eq } from "drizzle-orm";
import { sponsorSessions } from "#server/platform/db/schema";
import { lockSessionOfCheckout } from "#server/domains/payments/checkout/locked-sessions";
import { closeDealCheckout, isDealCheckout } from "#server/features/payment-webhooks/deal-checkouts";
import type { Handler } from "#server/features/payment-webhooks/types";

/** The sponsor never paid and the checkout closed: only a pending session becomes expired (a deal's checkout closes its funding). */
export const checkoutExpired: Handler<"checkout.expired"> = {
  async handle(tx, event) {
    if (isDealCheckout(event)) return closeDealCheckout(tx, event);
    const session = await lockSessionOfCheckout(tx, event);
    if (!session) return;
    await tx
      .update(sponsorSessions)
      .set({ status: "expired", updatedAt: new Date() })
      .where(and(eq(sponsorSessions.id, session.id), eq(sponsorSessions.status, "pending")));
  },
};
