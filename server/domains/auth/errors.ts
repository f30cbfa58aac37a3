import { refusal, type ErrorCode, type Refusal } from "#server/platform/errors";

/**
 * SPEC §8: the identity codes the product knows, and the exact sign-in
 * messages people see. Anything unmapped reads "Sorry, something went wrong".
 */
export const IDENTITY_CODES = [
  "email-already-in-use", "wrong-password", "invalid-credential", "invalid-email", "user-not-found",
  "too-many-requests", "expired-action-code", "invalid-action-code", "requires-recent-login", "user-disabled",
  "network-request-failed", "popup-closed-by-user", "popup-blocked", "cancelled-popup-request",
  "account-exists-with-different-credential", "unauthorized-domain", "password-does-not-meet-requirements",
] as const;

export type IdentityCode = (typeof IDENTITY_CODES)[number];

export const GENERIC_SIGN_IN_ERROR = "Sorry, something went wrong. Please try again.";

const SIGN_IN_MESSAGES: Partial<Record<IdentityCode, string>> = {
  "wrong-password": "Password is incorrect. Please try again.",
  "user-disabled": "Your account has been disabled. Please contact support for further information.",
  "invalid-email": "Email is invalid. Please try again.",
  "user-not-found": "We couldn't find an account with that email address. Please try again.",
  // SPEC: "email already in use shows its code".
  "email-already-in-use": "email-already-in-use",
};

export function signInErrorMessage(code: string): string {
  return SIGN_IN_MESSAGES[code as IdentityCode] ?? GENERIC_SIGN_IN_ERROR;
}

/**
 * A sign-in cause that SPEC §8 gives no message of its own (a wait, a spam check, a Google
 * sign-in that could not join accounts) reads the generic message; what the person can do about
 * it follows on a second line, `detail`.
 */
export type SignInMessage = { message: string; detail?: string };

/** "Please wait 42 seconds before trying again." — the second line under a rate-limited sign-in. */
export function waitDetail(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = retryAfterSeconds < 60 ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `Please wait ${wait} before trying again.`;
}

/** Maps better-auth's error codes onto the identity codes above. */
export function identityCodeFromAuthError(authCode: string | undefined): IdentityCode | "unknown" {
  switch (authCode) {
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "email-already-in-use";
    case "INVALID_EMAIL":
      return "invalid-email";
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_PASSWORD":
      return "wrong-password";
    case "PASSWORD_TOO_SHORT":
    case "PASSWORD_TOO_LONG":
      return "password-does-not-meet-requirements";
    case "USER_NOT_FOUND":
      return "user-not-found";
    case "INVALID_TOKEN":
      return "invalid-action-code";
    case "TOKEN_EXPIRED":
      return "expired-action-code";
    default:
      return "unknown";
  }
}

/** Why an identity flow failed: SPEC §8's identity code, a captcha that was not solved, or unknown. */
export type IdentityReason = IdentityCode | "captcha-failed" | "unknown";

/**
 * Each reason's place in the one error vocabulary (server/platform/errors.ts), which
 * decides the HTTP status: a wrong password is `unauthenticated` (401), a
 * disabled account `permission-denied` (403), a taken address `aborted` (409).
 */
const REASON_CODES: Record<IdentityReason, ErrorCode> = {
  "email-already-in-use": "aborted",
  "wrong-password": "unauthenticated",
  "invalid-credential": "unauthenticated",
  "invalid-email": "invalid-argument",
  "user-not-found": "unauthenticated",
  "too-many-requests": "resource-exhausted",
  "expired-action-code": "invalid-argument",
  "invalid-action-code": "invalid-argument",
  "requires-recent-login": "unauthenticated",
  "user-disabled": "permission-denied",
  "network-request-failed": "unavailable",
  "popup-closed-by-user": "cancelled",
  "popup-blocked": "cancelled",
  "cancelled-popup-request": "cancelled",
  "account-exists-with-different-credential": "aborted",
  "unauthorized-domain": "permission-denied",
  "password-does-not-meet-requirements": "invalid-argument",
  "captcha-failed": "invalid-argument",
  unknown: "invalid-argument",
};

export type IdentityErrorField = "email" | "password" | "captcha" | "name";

/** A failed identity flow: the vocabulary's code (and so its status), the identity reason, the message. */
export type FlowError = Refusal<ErrorCode, IdentityReason, { field?: IdentityErrorField }>;

export function flowError(reason: IdentityReason, message: string, field?: IdentityErrorField): FlowError {
  return refusal(REASON_CODES[reason], reason, message, field ? { field } : {});
}
