import { sql } from "drizzle-orm";
import { check, index, integer, pgSequence, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Counters for rate limits and backoffs, e.g. key `signIn:ip:203.0.113.7`
 * (client-supplied parts such as emails are hashed, so keys stay short).
 * Kept in the database so a limit holds across every app process.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text().primaryKey(),
    windowStartedAt: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull(),
  },
  // Old rows are pruned by age (server/platform/abuse/rate-limit.ts pruneRateLimits).
  (t) => [check("rate_limits_count_check", sql`${t.count} >= 0`), index("rate_limits_window_idx").on(t.windowStartedAt)],
);

/**
 * Nonces of solved ALTCHA challenges until the challenge expires: one solution
 * passes once, across every app process (server/platform/abuse/spent-nonces.ts).
 */
export const spentCaptchaNonces = pgTable(
  "spent_captcha_nonces",
  {
    nonce: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("spent_captcha_nonces_expires_at_idx").on(t.expiresAt)],
);

/**
 * Counts rate-limit writes across every app process: every PRUNE_EVERY_WRITES-th write prunes
 * old rows on the way (server/platform/abuse/rate-limit.ts), with no counter in any process's memory.
 */
export const rateLimitWrites = pgSequence("rate_limit_writes");
