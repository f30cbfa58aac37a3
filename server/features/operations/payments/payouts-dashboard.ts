import { z } from "zod";
import { payoutsDashboardLink } from "#server/domains/payments/records/payments-overview";
import { defineOperation } from "#server/features/operations/operation";

/**
 * A short-lived link to the provider's payouts dashboard for the caller's own payout account
 * (SPEC §7.1 createLoginLink): My Payments' button (app/routes/payments/payouts-dashboard.ts) and
 * the callable. It takes nothing: the account is the caller's, never one named in the request.
 */
export const openPayoutsDashboard = defineOperation({
  name: "openPayoutsDashboard",
  who: "account-holder",
  input: z.strictObject({}).nullable(),
  // not-found: no payout account yet (the caller's own, so a page says it rather than showing its 404); unavailable: the provider.
  refusals: ["not-found", "unavailable"],
  call: ({ caller, deps }) => payoutsDashboardLink(deps.db, deps.payments, caller.uid),
});
