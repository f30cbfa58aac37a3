import { data } from "react-router";
import type { AppContext } from "#server/http/context";
import { sandboxFor } from "#server/payments/sandbox/runtime";

/**
 * The /sandbox pages exist only while the sandbox is the payment provider:
 * with Stripe configured they are a plain 404, so no one can take pretend
 * payments on a site that takes real ones.
 */
export function requireSandbox(context: AppContext) {
  if (context.config.PAYMENT_PROVIDER !== "sandbox") throw data(null, { status: 404 });
  return sandboxFor(context);
}
