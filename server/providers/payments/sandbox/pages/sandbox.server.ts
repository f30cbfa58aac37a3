import type { AppLoadContext } from "react-router";
import { sandboxFor } from "#server/providers/payments/sandbox/runtime";
import { refuse } from "#page-kit/respond.server";

/**
 * The /sandbox pages exist only while the sandbox is the payment provider:
 * with Stripe configured they are a plain 404, so no one can take pretend
 * payments on a site that takes real ones.
 */
export function requireSandbox(context: AppLoadContext) {
  if (context.config.PAYMENT_PROVIDER !== "sandbox") refuse("not-found");
  return sandboxFor(context);
}
