import crypto from "node:crypto";
import { success, type Refusal, type Result } from "#server/platform/errors";
import { badSignature } from "#server/providers/payments/port";

/**
 * The sandbox signs its webhook deliveries as Stripe does: HMAC-SHA256 over
 * `${timestamp}.${rawBody}`, sent as `Sandbox-Signature: t=<unix s>,v1=<hex>`,
 * with a key derived from the session secret (so one secret is all an
 * operator manages, and every app process agrees on it).
 */
export const SIGNATURE_HEADER = "Sandbox-Signature";
/** As Stripe's default tolerance: a delivery signed longer ago than this is refused as a possible replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function webhookSigningKey(sessionSecret: string): string {
  return crypto.createHmac("sha256", sessionSecret).update("sandbox-webhooks").digest("hex");
}

function hmacHex(key: string, timestamp: number, rawBody: Buffer | string): string {
  return crypto.createHmac("sha256", key).update(`${timestamp}.`).update(rawBody).digest("hex");
}

export function signatureHeader(key: string, rawBody: Buffer | string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(key, timestamp, rawBody)}`;
}

/** Succeeds when one v1 signature matches and the timestamp is recent; a BAD_SIGNATURE refusal says what is wrong otherwise. */
export function verifySignature(
  key: string,
  rawBody: Buffer,
  header: string | undefined,
  nowSeconds: number,
): Result<object, Refusal<"invalid-argument", "BAD_SIGNATURE">> {
  if (!header) return badSignature(`No ${SIGNATURE_HEADER} header`);
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.slice(0, 2048).split(",")) {
    const [name, value = ""] = part.trim().split("=", 2);
    if (name === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) return badSignature(`Unreadable ${SIGNATURE_HEADER} header`);
  const expected = Buffer.from(hmacHex(key, timestamp, rawBody), "hex");
  if (!signatures.some((signature) => crypto.timingSafeEqual(Buffer.from(signature, "hex"), expected))) {
    return badSignature("No signature matches the body");
  }
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    return badSignature(`Signature timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} s away from now (stale or replayed)`);
  }
  return success();
}

/**
 * Links the sandbox hands out (onboarding, the payouts dashboard) carry an
 * expiry and an HMAC over what they grant, so that nobody can forge one, change
 * where it returns to, or use it after it expired. Separate key, same secret.
 */
export function linkSigningKey(sessionSecret: string): string {
  return crypto.createHmac("sha256", sessionSecret).update("sandbox-links").digest("hex");
}

export function signLink(key: string, parts: readonly string[], expires: number): string {
  return crypto.createHmac("sha256", key).update(JSON.stringify([...parts, String(expires)])).digest("base64url");
}

export type LinkCheck = "valid" | "expired" | "invalid";

export function checkLink(key: string, parts: readonly string[], expires: string | null, signature: string | null, nowSeconds: number): LinkCheck {
  if (!expires || !/^\d{1,12}$/.test(expires) || !signature || signature.length > 100) return "invalid";
  const expected = Buffer.from(signLink(key, parts, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return "invalid";
  return Number(expires) < nowSeconds ? "expired" : "valid";
}
