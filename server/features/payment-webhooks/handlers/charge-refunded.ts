import { lockSessionOfPayment } from "#server/domains/payments/checkout/locked-sessions";
import { applySucceededRefund } from "#server/features/payment-webhooks/apply-refund";
import { heldChargeRefunded, prefetchHeldRefunds, type HeldRefundsPrefetch } from "#server/features/payment-webhooks/deal-charges";
import { RetryLater, type Handler } from "#server/features/payment-webhooks/types";

/**
 * The charge was refunded (by us, or in the provider's dashboard). A payment
 * intent we do not know yet may be a payment whose checkout event has not
 * been handled: retried until it is (the provider gives up after its retry
 * window, three days on Stripe). A deal's held charge goes to the deal first (../deal-charges.ts).
 */
export const chargeRefunded: Handler<"charge.refunded", HeldRefundsPrefetch> = {
  prefetch: prefetchHeldRefunds,
  async handle(tx, event, prefetched, deps) {
    if (await heldChargeRefunded(tx, event, prefetched, deps)) return;
    const session = await lockSessionOfPayment(tx, event.paymentIntentId);
    if (!session) throw new RetryLater(`no session for ${event.paymentIntentId} yet`);
    await applySucceededRefund(tx, session, { paymentIntentId: event.paymentIntentId, amount: event.amountRefunded, currency: event.currency, refundId: null }, deps);
  },
};
