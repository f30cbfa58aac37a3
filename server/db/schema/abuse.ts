import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Fixed-window counters for rate limits, e.g. key `signin:ip:203.0.113.0`.
 * Kept in the database so a limit holds across every app process.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text().primaryKey(),
    windowStartedAt: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull(),
  },
  (t) => [check("rate_limits_count_check", sql`${t.count} >= 0`)],
);

/**
 * Nonces of solved ALTCHA challenges until the challenge expires: one solution
 * passes once, across every app process (server/abuse/spent-nonces.ts).
 */
export const spentCaptchaNonces = pgTable(
  "spent_captcha_nonces",
  {
    nonce: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("spent_captcha_nonces_expires_at_idx").on(t.expiresAt)],
);
