import { refundPayment } from "#server/features/operations/payments/refund";
import { callableOperation } from "#server/features/functions/operation-door";
import type { CallableFunction } from "#server/features/functions/protocol";
import type { CallableDeps } from "./support";

/**
 * SPEC §7.1 refundSponsorship: { sponsorSessionId } → { code: 200 } once the provider took the
 * refund: the refundPayment operation (server/features/operations/payments/refund.ts) through the
 * functions protocol.
 */
export function refundSponsorshipFunction(deps: CallableDeps): CallableFunction {
  return callableOperation(refundPayment, deps, {
    shape: "data must be an object with a sponsorSessionId string.",
    answer: (refunded) => ({ code: 200, status: refunded.status, alreadyRequested: refunded.alreadyRequested }),
  });
}
