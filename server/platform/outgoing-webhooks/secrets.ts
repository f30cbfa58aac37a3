import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * Endpoint signing secrets: `whsec_` + base64 of 24 random bytes, as Standard Webhooks writes
 * them (the `standardwebhooks` package takes them as they are). Stored encrypted (AES-256-GCM
 * under a key derived from the session secret): they must be read back to sign, and a copy of
 * the table alone must not let anyone forge our deliveries.
 */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

function keyOf(sessionSecret: string): Buffer {
  return createHmac("sha256", sessionSecret).update("webhook-signing-secrets").digest();
}

export function sealSecret(secret: string, sessionSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(sessionSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

/**
 * The secret, or null when it was sealed under another session secret (the operator changed
 * `SESSION_SECRET`): GCM refuses to open it, and nothing can be signed with it any more.
 */
export function openSecret(stored: string, sessionSecret: string): string | null {
  const [iv, tag, sealed] = stored.split(".").map((part) => Buffer.from(part, "base64url"));
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(sessionSecret), iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(sealed!), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
