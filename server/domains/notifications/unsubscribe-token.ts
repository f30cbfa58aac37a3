import crypto from "node:crypto";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";
import { isNotificationKind, type NotificationKind } from "./kinds";

/** How long an unsubscribe link in a mail works: long enough for a mail read weeks later. */
export const UNSUBSCRIBE_LINK_DAYS = 60;
const DAY_SECONDS = 24 * 60 * 60;

/** A key of its own for unsubscribe links, derived from the session secret (one secret for the operator to manage). */
export function unsubscribeSigningKey(sessionSecret: string): string {
  return crypto.createHmac("sha256", sessionSecret).update("notification-unsubscribe").digest("hex");
}

const signature = (key: string, uid: string, kind: string, expires: number) =>
  crypto.createHmac("sha256", key).update(JSON.stringify([uid, kind, String(expires)])).digest("base64url");

/**
 * `v1.<uid, base64url>.<kind>.<expiry, unix seconds>.<HMAC>`: what it grants
 * (turning one kind's mail off for one person) is in the token and signed, so
 * it works signed out and cannot be pointed at anyone or anything else.
 */
export function signUnsubscribeToken(key: string, uid: string, kind: NotificationKind, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const expires = nowSeconds + UNSUBSCRIBE_LINK_DAYS * DAY_SECONDS;
  return ["v1", Buffer.from(uid).toString("base64url"), kind, String(expires), signature(key, uid, kind, expires)].join(".");
}

export const UNSUBSCRIBE_MESSAGES = {
  invalid: "This unsubscribe link is not valid. It may have been copied incompletely. You can change which emails you get in My Account, under Notifications.",
  expired: "This unsubscribe link has expired. You can change which emails you get in My Account, under Notifications.",
} as const;

export type UnsubscribeCheck = Result<
  { uid: string; notificationKind: NotificationKind },
  Refusal<"invalid-argument", "INVALID_LINK"> | Refusal<"not-found", "EXPIRED_LINK">
>;

const invalidLink = () => refusal("invalid-argument", "INVALID_LINK", UNSUBSCRIBE_MESSAGES.invalid);

export function checkUnsubscribeToken(key: string, token: string, nowSeconds = Math.floor(Date.now() / 1000)): UnsubscribeCheck {
  if (token.length > 400) return invalidLink();
  const parts = token.split(".");
  if (parts.length !== 5) return invalidLink();
  const [version, encodedUid, kind, expires, given] = parts as [string, string, string, string, string];
  if (version !== "v1" || !/^[A-Za-z0-9_-]{1,200}$/.test(encodedUid) || !isNotificationKind(kind) || !/^\d{1,12}$/.test(expires)) return invalidLink();
  const uid = Buffer.from(encodedUid, "base64url").toString("utf8");
  const expected = Buffer.from(signature(key, uid, kind, Number(expires)));
  const received = Buffer.from(given);
  if (received.length !== expected.length || !crypto.timingSafeEqual(received, expected)) return invalidLink();
  // Checked after the signature, so "expired" is never said of a forged token.
  // 410-like "expired" is answered as not-found: the link no longer leads anywhere.
  if (Number(expires) < nowSeconds) return refusal("not-found", "EXPIRED_LINK", UNSUBSCRIBE_MESSAGES.expired);
  return success({ uid, notificationKind: kind });
}

export const UNSUBSCRIBE_PATH_PREFIX = "/unsubscribe/";
export const unsubscribePath = (token: string) => `${UNSUBSCRIBE_PATH_PREFIX}${token}`;
