import type { PaymentDetails } from "#server/payments/provider";
import { prefetchPaymentDetails, settlePayment } from "../settle-payment";
import type { Handler } from "../types";

/** A delayed payment went through: recorded as a card payment is (once, whichever event comes first). */
export const checkoutAsyncPaymentSucceeded: Handler<"checkout.async_payment_succeeded", PaymentDetails | null> = {
  prefetch: prefetchPaymentDetails,
  handle: settlePayment,
};
