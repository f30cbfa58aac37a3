import { lockSessionOfPayment } from "#server/domains/payments/checkout/locked-sessions";
import { applySucceededRefund } from "#server/features/payment-webhooks/apply-refund";
import { RetryLater, type Handler } from "#server/features/payment-webhooks/types";

/**
 * The charge was refunded (by us, or in the provider's dashboard). A payment
 * intent we do not know yet may be a payment whose checkout event has not
 * been handled: retried until it is (the provider gives up after its retry
 * window, three days on Stripe).
 */
export const chargeRefunded: Handler<"charge.refunded"> = {
  async handle(tx, event, _prefetched, deps) {
    const session = await lockSessionOfPayment(tx, event.paymentIntentId);
    if (!session) throw new RetryLater(`no session for ${event.paymentIntentId} yet`);
    await applySucceededRefund(tx, session, { paymentIntentId: event.paymentIntentId, amount: event.amountRefunded, currency: event.currency, refundId: null }, deps);
  },
};
