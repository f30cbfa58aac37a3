import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { rateLimits } from "#server/db/schema";

export type RateLimitRule = { limit: number; windowSeconds: number };

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Refused until the window that began at `windowStartedAt` ends (at least a second). */
function blockedUntil(windowStartedAt: Date, rule: RateLimitRule, now: Date): RateLimitResult {
  const resetsAt = windowStartedAt.getTime() + rule.windowSeconds * 1000;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetsAt - now.getTime()) / 1000)) };
}

/**
 * Counts one attempt against `key` in a fixed window and says whether it is
 * within `rule`. One atomic upsert: correct across any number of app
 * processes sharing the database.
 */
export async function consumeRateLimit(db: Db, key: string, rule: RateLimitRule, now = new Date()): Promise<RateLimitResult> {
  const windowStart = new Date(now.getTime() - rule.windowSeconds * 1000);
  const result = (await db.execute(sql`
    insert into rate_limits (key, window_started_at, count) values (${key}, ${now}, 1)
    on conflict (key) do update set
      count = case when rate_limits.window_started_at <= ${windowStart} then 1 else rate_limits.count + 1 end,
      window_started_at = case when rate_limits.window_started_at <= ${windowStart} then ${now} else rate_limits.window_started_at end
    returning count, window_started_at
  `)) as unknown as { rows: { count: number; window_started_at: Date | string }[] };
  const row = result.rows[0]!;
  if (row.count <= rule.limit) return { allowed: true };
  return blockedUntil(new Date(row.window_started_at), rule, now);
}

/** Whether `key` still has attempts left, without counting one. */
export async function peekRateLimit(db: Db, key: string, rule: RateLimitRule, now = new Date()): Promise<RateLimitResult> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  if (!row) return { allowed: true };
  const windowEnded = row.windowStartedAt.getTime() + rule.windowSeconds * 1000 <= now.getTime();
  if (windowEnded || row.count < rule.limit) return { allowed: true };
  return blockedUntil(row.windowStartedAt, rule, now);
}

/** Checks every (key, rule) pair; all are counted, the longest wait wins. */
export async function consumeRateLimits(
  db: Db,
  checks: ReadonlyArray<{ key: string; rule: RateLimitRule }>,
  now = new Date(),
): Promise<RateLimitResult> {
  let retryAfterSeconds = 0;
  for (const check of checks) {
    const result = await consumeRateLimit(db, check.key, check.rule, now);
    if (!result.allowed) retryAfterSeconds = Math.max(retryAfterSeconds, result.retryAfterSeconds);
  }
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
}

/** "Too many attempts. Please try again in 12 minutes." */
export function retryMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = retryAfterSeconds < 60 ? `${retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `Too many attempts. Please try again in ${wait}.`;
}
