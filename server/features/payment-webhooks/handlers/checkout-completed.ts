import { prefetchPayment, settlePayment, type PaidPrefetch } from "#server/features/payment-webhooks/settle-payment";
import type { Handler } from "#server/features/payment-webhooks/types";

/**
 * The sponsor finished the checkout. Paid now (cards): the payment is recorded.
 * Not paid yet (a delayed method): only the payment intent is kept, and
 * `checkout.async_payment_succeeded` or `…_failed` settles it later. A deal's
 * held payment (purpose "deal") books the deal instead (../deal-checkouts.ts).
 */
export const checkoutCompleted: Handler<"checkout.completed", PaidPrefetch> = {
  prefetch: prefetchPayment,
  handle: settlePayment,
};
