import { sponsorPaymentInfo } from "#server/domains/payments/records/sponsor-sessions";
import { defineOperation } from "#server/features/operations/operation";
import { paymentInput } from "./payment-input";

/**
 * Read one payment with its ledger entries and figures, as its creator: the Payment info page
 * (and the Refund question before a refund), SPEC §7.1 sponsorPaymentInfo and
 * `GET /api/v1/payments/{id}`. Each door shows it in its own shape (the page's view, the
 * callable's SPEC payload, the API's public Payment); what is read, and for whom, is this.
 */
export const readPaymentInfo = defineOperation({
  name: "readPaymentInfo",
  who: "account-holder",
  input: paymentInput,
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => sponsorPaymentInfo(deps.db, caller.uid, input.sponsorSessionId),
});
