import { prefetchPayment, settlePayment, type PaidPrefetch } from "#server/features/payment-webhooks/settle-payment";
import type { Handler } from "#server/features/payment-webhooks/types";

/** A delayed payment went through: recorded as a card payment is (once, whichever event comes first). */
export const checkoutAsyncPaymentSucceeded: Handler<"checkout.async_payment_succeeded", PaidPrefetch> = {
  prefetch: prefetchPayment,
  handle: settlePayment,
};
