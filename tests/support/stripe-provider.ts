import type { SponsorCheckoutInput } from "#server/providers/payments/port";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { createStripeProvider } from "#server/providers/payments/stripe/provider";
import type { StripeEmulator } from "#tests/support/stripe-emulator";

/** The Stripe provider as the server builds it, talking to the emulator through the real SDK; `webhookSecrets` adds endpoints' secrets beside the emulator's own. */
export function stripeProviderOn(emulator: StripeEmulator, webhookSecrets: string[] = []) {
  return createStripeProvider({ stripe: createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url }), webhookSecrets: [emulator.webhookSecret, ...webhookSecrets] });
}

/** A plain sponsor checkout (no platform fee, no sponsor email) of `amount` cents to `destinationAccountId`, keyed by its session. */
export function plainSponsorCheckout(sessionId: string, destinationAccountId: string, amount: number): SponsorCheckoutInput {
  return {
    idempotencyKey: `checkout_${sessionId}`,
    sessionId,
    destinationAccountId,
    amount,
    currency: "usd",
    applicationFeeAmount: 0,
    productName: "Sponsorship",
    sponsorEmail: null,
    successUrl: "http://localhost:3000/app/payments/success",
    cancelUrl: "http://localhost:3000/app/payments/cancelled",
  };
}
