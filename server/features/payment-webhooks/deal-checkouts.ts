import { closeDealFunding, settleDealFunding } from "#server/domains/deals/funding";
import type { Db } from "#server/platform/db/client";
import type { PaymentEventOf } from "#server/providers/payments/events";
import type { PaymentDetails } from "#server/providers/payments/port";
import type { AfterCommit, WebhookDeps } from "./types";

type CheckoutEvent = PaymentEventOf<"checkout.completed" | "checkout.async_payment_succeeded" | "checkout.async_payment_failed" | "checkout.expired">;

/**
 * Whether a checkout event is a deal's held payment (purpose "deal"), which the tip handlers leave
 * to the functions below: its sessionId is a deal_fundings id, not a sponsor session's, so it is
 * never filed as a tip.
 */
export function isDealCheckout(event: CheckoutEvent): boolean {
  return event.purpose === "deal";
}

/**
 * A deal's checkout was paid: the held payment written and the deal booked (server/domains/deals/funding.ts),
 * once per payment intent whichever event says it first. `details` is null while a delayed method has not paid.
 */
export async function settleDealCheckout(
  tx: Db,
  event: PaymentEventOf<"checkout.completed" | "checkout.async_payment_succeeded">,
  details: PaymentDetails | null,
  deps: WebhookDeps,
): Promise<void | AfterCommit> {
  if (!details || event.sessionId === null) return;
  const settled = await settleDealFunding(tx, deps, { fundingId: event.sessionId, details });
  const log = { eventId: event.eventId, checkoutId: event.checkoutId, fundingId: event.sessionId, paymentIntentId: details.paymentIntentId };
  if (settled === "UNKNOWN_FUNDING") deps.logger?.warn(log, "deal payment for an unknown funding; ignored");
  // Paid after the deal was withdrawn: the money is on the ledger and held; staff refund it from the back office.
  if (settled === "DEAL_NOT_AGREED") deps.logger?.error(log, "deal payment arrived for a deal that is no longer agreed; held until staff refund it");
  if (settled === "BOOKED") return { mailQueued: true };
}

/** A deal's checkout closed without money: expired, or a delayed payment failed. The next "Pay to book" opens another. */
export async function closeDealCheckout(tx: Db, event: PaymentEventOf<"checkout.expired" | "checkout.async_payment_failed">): Promise<void> {
  if (event.sessionId === null) return;
  await closeDealFunding(tx, event.sessionId, event.type === "checkout.expired" ? "expired" : "failed");
}
