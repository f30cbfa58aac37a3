import { recordDispute, refreshSessionStatus, sessionEntries } from "#server/payments/ledger";
import { announceDispute } from "#server/payments/announce";
import { lockSessionOfPayment } from "#server/payments/locked-sessions";
import { RetryLater, type Handler } from "#server/payment-webhooks/types";

/** The sponsor's bank disputes the payment: a dispute entry (once per dispute), status disputed, "dispute opened". */
export const disputeCreated: Handler<"dispute.created"> = {
  async handle(tx, event, _prefetched, deps) {
    if (!event.paymentIntentId) {
      deps.logger?.warn({ disputeId: event.disputeId }, "dispute without a payment intent; ignored");
      return;
    }
    const session = await lockSessionOfPayment(tx, event.paymentIntentId);
    if (!session) throw new RetryLater(`no session for ${event.paymentIntentId} yet`);
    const payment = (await sessionEntries(tx, session.id)).find((e) => e.kind === "payment");
    if (!payment) throw new RetryLater(`dispute of ${event.paymentIntentId} before its payment was recorded`);
    const written = await recordDispute(tx, { sessionId: session.id, disputeId: event.disputeId, amount: event.amount, currency: event.currency, payment });
    if (written.outcome === "ALREADY_RECORDED") return;
    await refreshSessionStatus(tx, session.id, session.status);
    await announceDispute(tx, session, Math.min(event.amount, payment.gross), event.currency, deps);
  },
};
