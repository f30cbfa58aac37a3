/** At most `limit` attempts per fixed window of `windowSeconds` (server/platform/abuse/rate-limit.ts counts them). */
export type RateLimitRule = { limit: number; windowSeconds: number };

/**
 * Growing waits: `freeFailures` failures pass at once, then each further
 * attempt waits firstDelay, 2x, 4x... up to maxDelay after the last failure;
 * forgotten after `forgetAfterSeconds` without one.
 */
export type BackoffRule = { freeFailures: number; firstDelaySeconds: number; maxDelaySeconds: number; forgetAfterSeconds: number };

const minutes = (n: number) => n * 60;
const hours = (n: number) => n * 3600;

/**
 * Limits of the identity flows, per client network and per account (email).
 * Sign-in and password-reset requests have their own policies below: nothing
 * anyone else does may lock the owner out of their account.
 */
export const AUTH_RATE_LIMITS = {
  signUp: { ip: { limit: 10, windowSeconds: minutes(60) }, account: { limit: 5, windowSeconds: minutes(60) } },
  passwordReset: { ip: { limit: 10, windowSeconds: minutes(60) }, account: { limit: 3, windowSeconds: minutes(60) } },
  resendVerification: { ip: { limit: 10, windowSeconds: minutes(60) }, account: { limit: 5, windowSeconds: minutes(60) } },
} satisfies Record<string, { ip: RateLimitRule; account: RateLimitRule }>;

export type AuthAction = keyof typeof AUTH_RATE_LIMITS;

/**
 * Sign-in slows the guesser, never locks the owner out (docs/decisions/0009-accounts-under-attack.md):
 * - per client network, failures beyond a few earn a growing wait (2 s, 4 s, 8 s...
 *   up to 15 minutes), forgotten after an hour without failures;
 * - per account, after a few failures in a day every attempt needs a solved
 *   captcha (a fresh proof of work each time), never a wait: the owner, who
 *   solves it, signs in with the right password at once.
 */
export const SIGN_IN_POLICY = {
  address: { freeFailures: 5, firstDelaySeconds: 2, maxDelaySeconds: minutes(15), forgetAfterSeconds: hours(1) } satisfies BackoffRule,
  account: { captchaAfterFailures: 3, windowSeconds: hours(24) },
};

/**
 * Wrong two-factor codes at sign-in (docs/decisions/0049-two-factor-and-admin-command.md): only
 * failures count, so the owner typing the right code is never slowed. Per account, a handful in
 * a quarter hour (a six-digit code cannot be guessed in that many); per network, more, for an
 * office behind one address. The plugin also ends a challenge after five wrong codes.
 */
export const TWO_FACTOR_RATE_LIMITS = {
  account: { limit: 5, windowSeconds: minutes(15) },
  network: { limit: 20, windowSeconds: minutes(15) },
} satisfies Record<string, RateLimitRule>;

/**
 * Sponsor checkouts (docs/decisions/0027-checkout-and-receipt-limits.md).
 * Only checkouts that make a new provider session count: the same browser
 * sending the same form again gets its open checkout back, uncounted.
 * - network: new checkouts one client network starts (a fan tries a few amounts, never ten in ten minutes);
 * - receiptsPerNetwork: of those, the ones naming an email a receipt would go to;
 * - page: new checkouts on one bio page from everyone (six a minute, sustained, is far beyond any creator here).
 * Receipts are also limited per recipient when mailed (receiptsPerRecipient, server/domains/payments/notices/payment-notices.ts).
 */
export const CHECKOUT_RATE_LIMITS = {
  network: { limit: 10, windowSeconds: minutes(10) },
  receiptsPerNetwork: { limit: 10, windowSeconds: hours(1) },
  page: { limit: 60, windowSeconds: minutes(10) },
  receiptsPerRecipient: { limit: 10, windowSeconds: hours(1) },
} satisfies Record<string, RateLimitRule>;

/**
 * Reports of content (server/domains/moderation/, ADR 0050): per client network (or account when signed
 * in), counted only for a new report (a repeat of one still open is thanked, uncounted). Twenty an
 * hour is more than any honest reporter sends; a flood from one network stops there.
 */
export const REPORT_RATE_LIMITS = {
  network: { limit: 20, windowSeconds: hours(1) },
} satisfies Record<string, RateLimitRule>;

/**
 * New deals (server/domains/deals/, ADR 0079): applications, offers and direct offers one account
 * opens, each of which notifies and mails the other side. Thirty a day is far beyond a creator
 * applying to what fits or a sponsor making offers; a spammer writing to every creator stops there.
 * Answers to an open deal are not counted: the table lets a side move only on its turn.
 */
export const DEAL_RATE_LIMITS = {
  opened: { limit: 30, windowSeconds: hours(24) },
} satisfies Record<string, RateLimitRule>;

/**
 * How long any rate_limits row matters: longer than every window and backoff
 * memory above. Older rows are deleted (server/platform/abuse/rate-limit.ts).
 */
export const RATE_LIMIT_RETENTION_SECONDS = hours(48);

/**
 * The public API (ADR 0056): requests per key per minute, shared by every process through
 * `rate_limits`; and, per client network, requests that brought no valid key, so guessing
 * keys or flooding the API anonymously is cut off early.
 */
export const API_RATE_LIMITS = {
  key: { limit: 600, windowSeconds: minutes(1) },
  unauthenticatedNetwork: { limit: 60, windowSeconds: minutes(1) },
} satisfies Record<string, RateLimitRule>;
