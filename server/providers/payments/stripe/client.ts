import Stripe from "stripe";

/**
 * The API version our calls and webhook payloads are written against: the one
 * stripe 23.1.0 is generated for (its types describe exactly this version).
 * Pinned here rather than left to the account's default, so a change in the
 * Stripe dashboard cannot change the shapes we read.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive" satisfies Stripe.LatestApiVersion;

export type StripeClientOptions = {
  secretKey: string;
  /** A local Stripe API emulator (tests): http://127.0.0.1:12111. Unset: api.stripe.com. */
  apiUrl?: string;
  /** Retries of failed network calls; every POST carries an idempotency key, so a retry never doubles. */
  maxNetworkRetries?: number;
  timeoutMs?: number;
};

export function createStripeClient(options: StripeClientOptions): Stripe {
  const target = options.apiUrl ? new URL(options.apiUrl) : null;
  return new Stripe(options.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    // A request thread must not hang on Stripe for the SDK's default 80 s.
    timeout: options.timeoutMs ?? 20_000,
    appInfo: { name: "Sponsorgrid" },
    ...(target && {
      host: target.hostname,
      port: target.port || (target.protocol === "https:" ? 443 : 80),
      protocol: target.protocol === "https:" ? "https" : "http",
    }),
  });
}
