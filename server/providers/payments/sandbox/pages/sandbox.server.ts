import type { AppLoadContext } from "react-router";
import { isSandboxId, type SandboxIdPrefix } from "#server/providers/payments/sandbox/ids";
import { sandboxFor } from "#server/providers/payments/sandbox/runtime";
import type { CardInput } from "#server/providers/payments/sandbox/cards";
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

/** A page about one sandbox object (a checkout, an account): the sandbox, once the address holds an id of that kind; anything else is a 404 before the database is asked. */
export function requireSandboxObject(context: AppLoadContext, prefix: SandboxIdPrefix, id: string) {
  const sandbox = requireSandbox(context);
  if (!isSandboxId(prefix, id)) refuse("not-found");
  return sandbox;
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** The card as typed into the sandbox's card fields (CardFieldset). */
export function cardFrom(form: FormData): CardInput {
  return { number: formText(form, "cardNumber"), expiry: formText(form, "expiry"), cvc: formText(form, "cvc"), postalCode: formText(form, "postalCode") };
}
