import { StripeApiError } from "#tests/support/stripe-emulator/errors";

type Saved = { fingerprint: string; status: number; body: unknown };

/**
 * Stripe's idempotent requests: the first request with a key runs and its
 * result is kept; a retry with the same key and parameters gets that result
 * again (`Idempotent-Replayed: true`) and changes nothing; the same key with
 * other parameters is refused (400 idempotency_error); a retry while the
 * first is still running is refused with 409 (the SDK retries it). Requests
 * refused before running (bad parameters) keep no result, as at Stripe.
 */
export class IdempotencyKeys {
  private readonly saved = new Map<string, Saved>();
  private readonly running = new Map<string, string>();

  /** A saved result to replay, or null when the request should run. Throws for a conflicting use of the key. */
  begin(key: string, fingerprint: string): Saved | null {
    const saved = this.saved.get(key);
    if (saved) {
      if (saved.fingerprint !== fingerprint) {
        throw new StripeApiError(400, {
          type: "idempotency_error",
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        });
      }
      return saved;
    }
    if (this.running.has(key)) {
      throw new StripeApiError(409, {
        type: "idempotency_error",
        code: "idempotency_key_in_use",
        message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
      });
    }
    this.running.set(key, fingerprint);
    return null;
  }

  finish(key: string, result: { status: number; body: unknown } | null) {
    const fingerprint = this.running.get(key);
    this.running.delete(key);
    if (result && fingerprint !== undefined) this.saved.set(key, { fingerprint, ...result });
  }
}
