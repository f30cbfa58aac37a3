/**
 * A request the sandbox refuses, as Stripe answers 4xx with an error code
 * (`resource_missing`, `charge_already_refunded`, …). Callers treat it as they
 * treat Stripe's StripeInvalidRequestError.
 */
export type SandboxErrorCode =
  | "resource_missing"
  | "idempotency_key_in_use"
  | "parameter_invalid"
  | "amount_too_small"
  | "account_not_ready"
  | "url_invalid"
  | "charge_already_refunded"
  /** A transfer larger than what is left of its source charge. */
  | "balance_insufficient";

export class SandboxRequestError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SandboxRequestError";
  }
}

export const missing = (what: string, id: string) => new SandboxRequestError("resource_missing", `No such ${what}: '${id}'`);
