import { z } from "zod";
import { refundSponsorship } from "#server/domains/payments/refunds/refunds";
import { refundAsStaff } from "#server/domains/payments/refunds/staff-refund";
import { defineOperation } from "#server/features/operations/operation";
import { paymentInput, sponsorSessionIdSchema } from "./payment-input";

/**
 * Refund a payment whole, as its creator: the Refund button (app/routes/sponsor-payments/refund.tsx),
 * SPEC §7.1 refundSponsorship and `POST /api/v1/payments/{id}/refund`. The creator's own completed
 * payments only (anyone else's is not-found), one refund at the provider however often it is asked
 * (server/domains/payments/refunds/refunds.ts).
 */
export const refundPayment = defineOperation({
  name: "refundPayment",
  who: "account-holder",
  input: paymentInput,
  // not-found: unknown or not the caller's; aborted: NOT_REFUNDABLE or REFUND_DECLINED; unavailable: the provider did not answer.
  refusals: ["not-found", "aborted", "unavailable"],
  call: ({ caller, input, deps }) => refundSponsorship(deps.db, deps.payments, { uid: caller.uid, sessionId: input.sponsorSessionId }),
});

/**
 * The same refund asked by staff (the back office's payment page): any creator's payment, with a
 * reason for the audit log, written in the claim's transaction (staff-refund.ts). A sibling of
 * refundPayment rather than another door of it: who may call, what they send and one refusal
 * (the reason's) differ; the claim, the provider call and every other refusal are the same code.
 */
export const refundPaymentAsStaff = defineOperation({
  name: "refundPaymentAsStaff",
  who: "staff",
  input: z.object({ sponsorSessionId: sponsorSessionIdSchema, reason: z.string() }),
  // invalid-argument: INVALID_FIELDS, the reason is blank or too long.
  refusals: ["not-found", "aborted", "unavailable", "invalid-argument"],
  call: ({ caller, input, deps }) =>
    refundAsStaff(deps.db, deps.payments, { staff: { id: caller.uid, actor: caller.actor }, sessionId: input.sponsorSessionId, reason: input.reason }),
});
