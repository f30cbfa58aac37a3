import { Webhook } from "standardwebhooks";
import { openSecret } from "./secrets";

/** What signing needs of an endpoint's row (secrets sealed, as stored). */
export type SigningSecrets = {
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
};

/**
 * The Standard Webhooks headers of one attempt. `webhook-id` is the event's id (the same on every
 * attempt and resend: receivers deduplicate by it), `webhook-timestamp` the attempt's time. During
 * a rotation's overlap the signature header carries the new and the previous secret's signatures,
 * space-separated: a receiver that knows either one accepts it (`standardwebhooks` verify does).
 */
export function signedHeaders(
  endpoint: SigningSecrets,
  { eventId, body, at, sessionSecret }: { eventId: string; body: string; at: Date; sessionSecret: string },
): Record<string, string> {
  const secrets = [openSecret(endpoint.secretCiphertext, sessionSecret)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > at.getTime()) {
    secrets.push(openSecret(endpoint.previousSecretCiphertext, sessionSecret));
  }
  const signature = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(" ");
  return {
    "content-type": "application/json",
    "user-agent": "Sponsorgrid-Webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
