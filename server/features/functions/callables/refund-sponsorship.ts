import { success } from "#server/platform/errors";
import { refundSponsorship } from "#server/domains/payments/refunds/refunds";
import type { CallableFunction } from "#server/features/functions/protocol";
import { type CallableDeps, refusedWith, sponsorSessionIdInput, verifiedCall } from "./support";

/**
 * SPEC §7.1 refundSponsorship: { sponsorSessionId } → { code: 200 } once the
 * provider took the refund (as the card's Refund button, app/routes/sponsor-payments/refund.tsx):
 * the owner only (anyone else's payment is not-found), a completed payment
 * only (aborted), one refund at the provider however many calls.
 */
export function refundSponsorshipFunction({ db, payments }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const call = verifiedCall(context, sponsorSessionIdInput, data);
    if (call.kind === "ERROR") return call;
    const { caller, input: { sponsorSessionId } } = call;
    const result = await refundSponsorship(db, payments, { uid: caller.id, sessionId: sponsorSessionId });
    if (result.kind === "ERROR") return refusedWith(result);
    return success({ result: { code: 200, status: result.status, alreadyRequested: result.alreadyRequested } });
  };
}
