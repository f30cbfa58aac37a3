import Stripe from "stripe";
import { success } from "#server/platform/errors";
import { badSignature, notJson, type ParsedWebhook } from "#server/providers/payments/port";
import { toPaymentEvent } from "#server/providers/payments/stripe/events";

/**
 * How far a delivery's signed time may be from ours, either way (Stripe's own
 * default for the past): a replayed capture fails after five minutes. The
 * SDK checks only the past, so a signature dated ahead would stay replayable
 * for as long as it is ahead; the future side is checked here.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The `t=` of a Stripe-Signature header, in seconds; null when there is none to read. */
function signedAt(header: string): number | null {
  const match = /(?:^|,)\s*t=(\d{1,12})\s*(?:,|$)/.exec(header.slice(0, 2048));
  return match ? Number(match[1]) : null;
}

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
): ParsedWebhook {
  if (!signatureHeader) return badSignature("No Stripe-Signature header");
  let event: Stripe.Event | null = null;
  let problem = "no webhook secret configured";
  for (const secret of secrets) {
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, now());
      break;
    } catch (error) {
      // The SDK parses the body only once a signature matched it.
      if (error instanceof SyntaxError) return notJson("The body is not JSON.");
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
      problem = error.message;
    }
  }
  if (!event) return badSignature(problem);
  const timestamp = signedAt(signatureHeader);
  if (timestamp === null || timestamp - Math.floor(now() / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
    return badSignature(`Signature timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} s ahead of now (outside the tolerance zone)`);
  }
  return success({ event: toPaymentEvent(event) });
}
