import { success } from "#server/platform/errors";
import { z } from "zod";
import { payoutsDashboardLink } from "#server/domains/payments/records/payments-overview";
import { callableRefusalOf, type CallableFunction } from "#server/features/functions/protocol";
import { type CallableDeps, verifiedCall } from "./support";

const noInput = z.strictObject({}, { error: () => "data must be null or an empty object." }).nullable();

/**
 * SPEC §7.1 createLoginLink: a short-lived link to the provider's payouts
 * dashboard for the caller's own payout account, as My Payments' button
 * (app/routes/payments/payouts-dashboard.ts). No account yet is not-found.
 */
export function createLoginLinkFunction({ db, payments }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const call = verifiedCall(context, noInput, data);
    if (call.kind === "ERROR") return call;
    const { caller } = call;
    const result = await payoutsDashboardLink(db, payments, caller.id);
    if (result.kind === "ERROR") return callableRefusalOf(result);
    return success({ result: { url: result.url } });
  };
}
