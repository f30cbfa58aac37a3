import { z } from "zod";
import { payoutsDashboardLink } from "#server/payments/payments-overview";
import type { CallableFunction } from "#server/functions/protocol";
import { failWith, readData, verifiedCaller, type CallableDeps } from "./support";

const noInput = z.strictObject({}, { error: () => "data must be null or an empty object." }).nullable();

/**
 * SPEC §7.1 createLoginLink: a short-lived link to the provider's payouts
 * dashboard for the caller's own payout account, as My Payments' button
 * (app/routes/payments/payouts-dashboard.ts). No account yet is not-found.
 */
export function createLoginLinkFunction({ db, payments }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const caller = verifiedCaller(context);
    readData(noInput, data);
    const result = await payoutsDashboardLink(db, payments, caller.id);
    if (result.kind === "ERROR") failWith(result);
    return { url: result.url };
  };
}
