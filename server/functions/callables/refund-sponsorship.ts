import { refundSponsorship } from "#server/payments/refunds";
import type { CallableFunction } from "#server/functions/protocol";
import { failWith, readData, sponsorSessionIdInput, verifiedCaller, type CallableDeps } from "./support";

/**
 * SPEC §7.1 refundSponsorship: { sponsorSessionId } → { code: 200 } once the
 * provider took the refund (as the card's Refund button, app/routes/sponsors/refund.tsx):
 * the owner only (anyone else's payment is not-found), a completed payment
 * only (aborted), one refund at the provider however many calls.
 */
export function refundSponsorshipFunction({ db, payments }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const caller = verifiedCaller(context);
    const { sponsorSessionId } = readData(sponsorSessionIdInput, data);
    const result = await refundSponsorship(db, payments, { uid: caller.id, sessionId: sponsorSessionId });
    if (result.kind === "ERROR") failWith(result);
    return { code: 200, status: result.status, alreadyRequested: result.alreadyRequested };
  };
}
