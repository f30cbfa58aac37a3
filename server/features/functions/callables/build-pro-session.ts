import { startProCheckout } from "#server/features/operations/pro/pro-checkout";
import { callableOperation } from "#server/features/functions/operation-door";
import type { CallableFunction } from "#server/features/functions/protocol";
import type { CallableDeps } from "./support";

/**
 * SPEC §7.1 buildProSession: { plan, returnTo? } → { url, destination }, the startProCheckout
 * operation (server/features/operations/pro/pro-checkout.ts) through the functions protocol.
 */
export function buildProSessionFunction(deps: CallableDeps): CallableFunction {
  return callableOperation(startProCheckout, deps, {
    shape: "data must be an object with a plan.",
    answer: ({ url, destination }) => ({ url, destination }),
  });
}
