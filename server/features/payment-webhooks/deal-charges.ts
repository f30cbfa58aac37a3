import { freezeForCardDispute } from "#server/domains/deals/disputes";
import { fundingOfPayment, lockFundingOfPayment, recordHeldRefund, type HeldFunding } from "#server/domains/deals/held-refunds";
import type { Db } from "#server/platform/db/client";
import type { PaymentEventOf } from "#server/providers/payments/events";
import type { ProviderRefund } from "#server/providers/payments/port";
import { RetryLater, type WebhookDeps } from "./types";

/**
 * Events about a deal's held charge (its payment intent is a deal_fundings row's), which the tip
 * handlers ask about first: they are no sponsor session's, so the tip lookup would retry them
 * until the provider gave up. Each function answers whether the event was the deal's (and is then
 * handled); false leaves it to the tip handler.
 */

/** charge.refunded names no refund, only how much went back in all: for a held charge the provider's refunds are read first, outside the transaction. */
export type HeldRefundsPrefetch = { paymentIntentId: string; refunds: ProviderRefund[] } | null;

export async function prefetchHeldRefunds(db: Db, event: PaymentEventOf<"charge.refunded">, deps: WebhookDeps): Promise<HeldRefundsPrefetch> {
  if (!(await fundingOfPayment(db, event.paymentIntentId))) return null;
  return { paymentIntentId: event.paymentIntentId, refunds: await deps.provider.listRefunds(event.paymentIntentId) };
}

async function writeRefund(tx: Db, funding: HeldFunding, refund: { refundId: string; amount: number; currency: string }, deps: WebhookDeps, eventId: string): Promise<void> {
  const outcome = await recordHeldRefund(tx, funding, refund);
  if (outcome === "RECORDED" || outcome === "ALREADY_RECORDED") return;
  // The provider moved money the ledger refuses to show: reconciliation reports it, and staff look.
  deps.logger?.error({ eventId, dealId: funding.dealId, fundingId: funding.id, refundId: refund.refundId, amount: refund.amount, currency: refund.currency, outcome }, "refund of a deal's held payment not written to the ledger");
}

/** A held charge was refunded: each of its succeeded refunds written once (a redelivery, or refund.updated first, finds them written). */
export async function heldChargeRefunded(tx: Db, event: PaymentEventOf<"charge.refunded">, prefetched: HeldRefundsPrefetch, deps: WebhookDeps): Promise<boolean> {
  const funding = await lockFundingOfPayment(tx, event.paymentIntentId);
  if (!funding) return false;
  // Paid (and so held) only after the prefetch looked: once more, with the refunds read.
  if (prefetched?.paymentIntentId !== event.paymentIntentId) throw new RetryLater(`refunds of held charge ${event.paymentIntentId} not read yet`);
  for (const refund of prefetched.refunds) {
    if (refund.status === "succeeded") await writeRefund(tx, funding, refund, deps, event.eventId);
  }
  return true;
}

/** A refund of a held charge changed: succeeded, it is written once; pending, failed or canceled, nothing moved. */
export async function heldRefundUpdated(tx: Db, event: PaymentEventOf<"refund.updated">, deps: WebhookDeps): Promise<boolean> {
  if (!event.paymentIntentId) return false;
  const funding = await lockFundingOfPayment(tx, event.paymentIntentId);
  if (!funding) return false;
  if (event.status === "succeeded") await writeRefund(tx, funding, { refundId: event.refundId, amount: event.amount, currency: event.currency }, deps, event.eventId);
  return true;
}

/**
 * A card dispute on a held charge. Deals have no card-dispute tables of their own: the money the
 * provider withdraws is the platform's, so a booked deal is frozen as a deal dispute (disputes.ts)
 * and staff decide from the back office what reaches the creator; the event is logged with the deal.
 */
export async function heldChargeDisputed(tx: Db, event: PaymentEventOf<"dispute.changed">, deps: WebhookDeps): Promise<boolean> {
  if (!event.paymentIntentId) return false;
  const funding = await fundingOfPayment(tx, event.paymentIntentId);
  if (!funding) return false;
  const frozen = await freezeForCardDispute(tx, deps, { dealId: funding.dealId, bankReason: event.reason || null });
  // Told loudly: the provider is taking the platform's money back, whatever staff decide.
  deps.logger?.error(
    { eventId: event.eventId, dealId: funding.dealId, fundingId: funding.id, disputeId: event.disputeId, status: event.status, amount: event.amount, currency: event.currency, reason: event.reason, frozen },
    "card dispute on a deal's held payment; staff decide the deal from the back office",
  );
  return true;
}
