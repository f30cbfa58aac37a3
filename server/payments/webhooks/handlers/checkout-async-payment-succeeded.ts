import { prefetchPayment, settlePayment, type PaidPrefetch } from "../settle-payment";
import type { Handler } from "../types";

/** A delayed payment went through: recorded as a card payment is (once, whichever event comes first). */
export const checkoutAsyncPaymentSucceeded: Handler<"checkout.async_payment_succeeded", PaidPrefetch> = {
  prefetch: prefetchPayment,
  handle: settlePayment,
};
