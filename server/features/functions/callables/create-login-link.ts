import { openPayoutsDashboard } from "#server/features/operations/payments/payouts-dashboard";
import { callableOperation } from "#server/features/functions/operation-door";
import type { CallableFunction } from "#server/features/functions/protocol";
import type { CallableDeps } from "./support";

/**
 * SPEC §7.1 createLoginLink: the openPayoutsDashboard operation
 * (server/features/operations/payments/payouts-dashboard.ts) through the functions protocol.
 * No account yet is not-found.
 */
export function createLoginLinkFunction(deps: CallableDeps): CallableFunction {
  return callableOperation(openPayoutsDashboard, deps, {
    shape: "data must be null or an empty object.",
    answer: ({ url }) => ({ url }),
  });
}
