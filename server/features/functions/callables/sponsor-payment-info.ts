import { success } from "#server/platform/errors";
import { paymentFigures } from "#server/domains/payments/records/payment-figures";
import { sponsorPaymentInfo } from "#server/domains/payments/records/sponsor-sessions";
import type { CallableFunction } from "#server/features/functions/protocol";
import { type CallableDeps, refusedWith, sponsorSessionIdInput, verifiedCall } from "./support";

/**
 * SPEC §7.1 sponsorPaymentInfo: { sponsorSessionId } → { code: 200, … } with
 * what the Payment info page shows (app/routes/sponsor-payments/payment-info.tsx):
 * Transaction, Details, Gross Payment, Net Payment, Fees and the movements,
 * amounts in minor units of `currency`. The owner only: anyone else's payment,
 * like an unknown one, is not-found.
 */
export function sponsorPaymentInfoFunction({ db }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const call = verifiedCall(context, sponsorSessionIdInput, data);
    if (call.kind === "ERROR") return call;
    const { caller, input: { sponsorSessionId } } = call;
    const found = await sponsorPaymentInfo(db, caller.id, sponsorSessionId);
    if (found.kind === "ERROR") return refusedWith(found);
    const { session, entries } = found.info;
    const figures = paymentFigures(found.info);
    return success({ result: {
      code: 200,
      currency: session.currency,
      transaction: {
        id: session.id,
        kind: session.kind,
        status: session.status,
        refundPending: session.refundPending,
        created: session.created.toISOString(),
        amount: session.amount,
        paymentReference: session.paymentIntentId,
      },
      details: { sponsorEmail: session.sponsorEmail, message: session.message },
      grossPayment: figures.gross,
      returned: figures.returned,
      netPayment: figures.net,
      fees: { platform: figures.platformFee, provider: figures.providerFee },
      movements: entries.map((e) => ({ kind: e.kind, created: e.created.toISOString(), gross: e.gross, net: e.net })),
    } });
  };
}
