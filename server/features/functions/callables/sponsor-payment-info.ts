import { paymentFigures } from "#server/domains/payments/records/payment-figures";
import { readPaymentInfo } from "#server/features/operations/payments/payment-info";
import { callableOperation } from "#server/features/functions/operation-door";
import type { CallableFunction } from "#server/features/functions/protocol";
import type { CallableDeps } from "./support";

/**
 * SPEC §7.1 sponsorPaymentInfo: { sponsorSessionId } → { code: 200, … } with what the Payment info
 * page shows: Transaction, Details, Gross Payment, Net Payment, Fees and the movements, amounts in
 * minor units of `currency`. The readPaymentInfo operation (server/features/operations/payments/payment-info.ts).
 */
export function sponsorPaymentInfoFunction(deps: CallableDeps): CallableFunction {
  return callableOperation(readPaymentInfo, deps, {
    shape: "data must be an object with a sponsorSessionId string.",
    answer: ({ info }) => {
      const { session, entries } = info;
      const figures = paymentFigures(info);
      return {
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
      };
    },
  });
}
