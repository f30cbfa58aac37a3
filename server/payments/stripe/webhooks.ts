import Stripe from "stripe";
import type { PaymentEvent } from "#server/payments/events";
import { WebhookSignatureError } from "#server/payments/provider";
import { toPaymentEvent } from "#server/payments/stripe/events";

/** How old a delivery may be (Stripe's own default): a replayed capture fails after five minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a delivery's `Stripe-Signature` over the exact bytes received and
 * returns our event. Several secrets are tried in turn: the platform's
 * endpoint and the Connect endpoint (which receives `account.updated` for
 * connected accounts) each sign with their own.
 */
export function parseStripeWebhook(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  secrets: readonly string[],
  now: () => number = Date.now,
): PaymentEvent | null {
  if (!signatureHeader) throw new WebhookSignatureError("No Stripe-Signature header");
  let event: Stripe.Event | null = null;
  let problem = "no webhook secret configured";
  for (const secret of secrets) {
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, now());
      break;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
      problem = error.message;
    }
  }
  if (!event) throw new WebhookSignatureError(problem);
  return toPaymentEvent(event);
}
