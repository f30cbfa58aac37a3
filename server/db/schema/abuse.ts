import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

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
