import { sessionEntries } from "#server/domains/payments/ledger/ledger";
import { applyDisputeEvent } from "#server/domains/payments/disputes/disputes";
import { lockSessionOfPayment } from "#server/domains/payments/checkout/locked-sessions";
import { heldChargeDisputed } from "#server/features/payment-webhooks/deal-charges";
import { RetryLater, type Handler } from "#server/features/payment-webhooks/types";

/**
 * A dispute opened, changed or closed: the disputes row converges on the
 * provider's status, the ledger gets its dispute / reversal entries once,
 * and the creator is told when it opens and when it closes (the dispute facts' fan-out).
 * A dispute on a deal's held charge is only told to staff (../deal-charges.ts).
 */
export const disputeChanged: Handler<"dispute.changed"> = {
  async handle(tx, event, _prefetched, deps) {
    if (!event.paymentIntentId) {
      deps.logger?.warn({ disputeId: event.disputeId }, "dispute without a payment intent; ignored");
      return;
    }
    if (await heldChargeDisputed(tx, event, deps)) return;
    const session = await lockSessionOfPayment(tx, event.paymentIntentId);
    if (!session) throw new RetryLater(`no session for ${event.paymentIntentId} yet`);
    const payment = (await sessionEntries(tx, session.id)).find((e) => e.kind === "payment");
    if (!payment) throw new RetryLater(`dispute of ${event.paymentIntentId} before its payment was recorded`);
    const change = await applyDisputeEvent(tx, session, payment, event, deps);
    return { mailQueued: change.opened || change.closed };
  },
};
