import type { PaymentEventOf } from "#server/providers/payments/events";
import type { WebhookDeps } from "./types";

type CheckoutEvent = PaymentEventOf<"checkout.completed" | "checkout.async_payment_succeeded" | "checkout.async_payment_failed" | "checkout.expired">;

/**
 * Whether a checkout event is a deal's held payment (purpose "deal"), which the tip handlers leave
 * alone: its sessionId is a deal_fundings id, not a sponsor session's, so it is never filed as a
 * tip, and the event is recorded as handled with nothing changed. `log`: say so (in `handle`, once
 * per event; `prefetch` asks quietly).
 */
export function isDealCheckout(event: CheckoutEvent, deps: WebhookDeps, log: boolean): boolean {
  if (event.purpose !== "deal") return false;
  if (log) deps.logger?.info({ eventId: event.eventId, type: event.type, checkoutId: event.checkoutId, fundingId: event.sessionId }, "deal checkout event; left to the deal's handling, not filed as a tip");
  return true;
}
