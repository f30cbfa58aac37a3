import { Webhook } from "standardwebhooks";
import { openSecret } from "./secrets";

/** What signing needs of an endpoint's row (secrets sealed, as stored). */
export type SigningSecrets = {
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
};

/** What the delivery log says of an attempt that could not be signed, and so was not sent (after "No response: "). */
export const UNREADABLE_SECRET_ERROR =
  "not sent, because this endpoint's signing secret can no longer be read (the server's SESSION_SECRET was changed). Rotate the signing secret to resume deliveries.";

/**
 * The Standard Webhooks headers of one attempt. `webhook-id` is the event's id (the same on every
 * attempt and resend: receivers deduplicate by it), `webhook-timestamp` the attempt's time. During
 * a rotation's overlap the signature header carries the new and the previous secret's signatures,
 * space-separated: a receiver that knows either one accepts it (`standardwebhooks` verify does).
 * Null when the current secret cannot be opened: nothing is sent unsigned. A previous secret that
 * cannot be opened is left out; the current one still signs.
 */
export function signedHeaders(
  endpoint: SigningSecrets,
  { eventId, body, at, sessionSecret }: { eventId: string; body: string; at: Date; sessionSecret: string },
): Record<string, string> | null {
  const current = openSecret(endpoint.secretCiphertext, sessionSecret);
  if (current === null) return null;
  const secrets = [current];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > at.getTime()) {
    const previous = openSecret(endpoint.previousSecretCiphertext, sessionSecret);
    if (previous !== null) secrets.push(previous);
  }
  const signature = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(" ");
  return { ...unsignedHeaders(eventId, at), "webhook-signature": signature };
}

/** The headers an attempt carries whether or not it could be signed (what the log shows of one that could not). */
export function unsignedHeaders(eventId: string, at: Date): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Sponsorgrid-Webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  };
}
