import type { RateLimitRule } from "./rate-limit";

const minutes = (n: number) => n * 60;

/**
 * Limits of the identity flows, per client network and per account (email).
 * For sign-in the account limit counts failed attempts only, so that someone
 * guessing a password cannot lock the owner out by also failing on purpose
 * any faster than the network limit lets them.
 */
export const AUTH_RATE_LIMITS = {
  signIn: { ip: { limit: 30, windowSeconds: minutes(15) }, account: { limit: 10, windowSeconds: minutes(15) } },
  signUp: { ip: { limit: 10, windowSeconds: minutes(60) }, account: { limit: 5, windowSeconds: minutes(60) } },
  passwordReset: { ip: { limit: 10, windowSeconds: minutes(60) }, account: { limit: 5, windowSeconds: minutes(60) } },
  resendVerification: { ip: { limit: 10, windowSeconds: minutes(60) }, account: { limit: 5, windowSeconds: minutes(60) } },
} satisfies Record<string, { ip: RateLimitRule; account: RateLimitRule }>;

export type AuthAction = keyof typeof AUTH_RATE_LIMITS;
