import { consumeRateLimit, rateLimitKey, retryMessage } from "#server/platform/abuse/rate-limit";
import { rateLimitSubject } from "#server/platform/abuse/client-ip";
import { CHECKOUT_RATE_LIMITS } from "#server/platform/abuse/rules";
import type { Db } from "#server/platform/db/client";
import { domainError, type DomainError } from "#server/platform/errors";

export type CheckoutRateLimited = DomainError<"resource-exhausted", { retryAfterSeconds: number }>;

/**
 * Counts one new checkout (a reused one is not counted: it costs the provider
 * nothing) against the client's network, then, when it names an email, the
 * receipts that network may ask for, then the bio page (CHECKOUT_RATE_LIMITS).
 * Null when within all of them. In that order, one after the other: a network
 * already refused counts nothing against the page, so one client's flood
 * cannot use up the page's allowance for everyone else.
 */
export async function checkoutRateLimited(
  db: Db,
  input: { ip: string; pageId: string; asksForReceipt: boolean },
  now = new Date(),
): Promise<CheckoutRateLimited | null> {
  const network = rateLimitSubject(input.ip);
  const checks = [
    { key: `checkout:ip:${network}`, rule: CHECKOUT_RATE_LIMITS.network },
    ...(input.asksForReceipt ? [{ key: `checkout:receipts:ip:${network}`, rule: CHECKOUT_RATE_LIMITS.receiptsPerNetwork }] : []),
    { key: rateLimitKey("checkout:page", input.pageId), rule: CHECKOUT_RATE_LIMITS.page },
  ];
  for (const check of checks) {
    const result = await consumeRateLimit(db, check.key, check.rule, now);
    if (!result.allowed) return domainError("resource-exhausted", retryMessage(result.retryAfterSeconds), { retryAfterSeconds: result.retryAfterSeconds });
  }
  return null;
}
