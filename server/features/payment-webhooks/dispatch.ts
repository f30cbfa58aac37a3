import type { PaymentEventType } from "#server/providers/payments/events";
import { accountUpdated } from "#server/features/payment-webhooks/handlers/account-updated";
import { chargeRefunded } from "#server/features/payment-webhooks/handlers/charge-refunded";
import { checkoutAsyncPaymentFailed } from "#server/features/payment-webhooks/handlers/checkout-async-payment-failed";
import { checkoutAsyncPaymentSucceeded } from "#server/features/payment-webhooks/handlers/checkout-async-payment-succeeded";
import { checkoutCompleted } from "#server/features/payment-webhooks/handlers/checkout-completed";
import { checkoutExpired } from "#server/features/payment-webhooks/handlers/checkout-expired";
import { disputeChanged } from "#server/features/payment-webhooks/handlers/dispute-changed";
import { membershipChanged } from "#server/features/payment-webhooks/handlers/membership-changed";
import { proCustomerChanged } from "#server/features/payment-webhooks/handlers/pro-customer-changed";
import { refundUpdated } from "#server/features/payment-webhooks/handlers/refund-updated";
import type { Handler } from "./types";

/** The allow-list: one handler per event type we act on (one file each, in handlers/). */
export const HANDLERS: { [T in PaymentEventType]: Handler<T, unknown> } = {
  "checkout.completed": checkoutCompleted,
  "checkout.async_payment_succeeded": checkoutAsyncPaymentSucceeded,
  "checkout.async_payment_failed": checkoutAsyncPaymentFailed,
  "checkout.expired": checkoutExpired,
  "charge.refunded": chargeRefunded,
  "refund.updated": refundUpdated,
  "dispute.changed": disputeChanged,
  "account.updated": accountUpdated,
  "pro.customer_changed": proCustomerChanged,
  "membership.changed": membershipChanged,
};
