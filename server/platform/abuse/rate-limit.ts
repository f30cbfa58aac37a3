import { createHash } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { rateLimits } from "#server/platform/db/schema";
import { RATE_LIMIT_RETENTION_SECONDS, type BackoffRule, type RateLimitRule } from "./rules";

export type { BackoffRule, RateLimitRule } from "./rules";

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A bounded key: `scope` is ours (e.g. "signIn:ip"), `subject` is the client's
 * (an address, an email): hashed, so a megabyte email makes a 40-character key.
 */
export function rateLimitKey(scope: string, subject: string): string {
  return `${scope}:${createHash("sha256").update(subject).digest("base64url").slice(0, 27)}`;
}

/** Deletes every row older than any rule remembers. Returns how many went. */
export async function pruneRateLimits(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RATE_LIMIT_RETENTION_SECONDS * 1000);
  const deleted = await db.delete(rateLimits).where(lt(rateLimits.windowStartedAt, cutoff)).returning({ key: rateLimits.key });
  return deleted.length;
}

/**
 * Every this many writes, old rows are pruned on the way: no timer to manage. The writes are
 * counted by the database (sequence rate_limit_writes), across every app process, so no
 * process keeps a counter of its own.
 */
export const PRUNE_EVERY_WRITES = 200;

async function afterWrite(db: Db, now: Date): Promise<void> {
  const counted = (await db.execute(sql`select nextval('rate_limit_writes') % ${PRUNE_EVERY_WRITES} = 0 as due`)) as unknown as { rows: { due: boolean }[] };
  if (counted.rows[0]?.due) await pruneRateLimits(db, now);
}

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
  const counted = await consumeMeteredRateLimit(db, key, rule, now);
  return counted.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: counted.resetSeconds };
}

/** A counted attempt with what is left of its window, for `RateLimit` response headers. */
export type MeteredRateLimit = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

/** As consumeRateLimit, one atomic upsert, also saying how many attempts are left and when the window ends. */
export async function consumeMeteredRateLimit(db: Db, key: string, rule: RateLimitRule, now = new Date()): Promise<MeteredRateLimit> {
  const windowStart = new Date(now.getTime() - rule.windowSeconds * 1000);
  const result = (await db.execute(sql`
    insert into rate_limits (key, window_started_at, count) values (${key}, ${now}, 1)
    on conflict (key) do update set
      count = case when rate_limits.window_started_at <= ${windowStart} then 1 else rate_limits.count + 1 end,
      window_started_at = case when rate_limits.window_started_at <= ${windowStart} then ${now} else rate_limits.window_started_at end
    returning count, window_started_at, nextval('rate_limit_writes') % ${PRUNE_EVERY_WRITES} = 0 as prune_due
  `)) as unknown as { rows: { count: number; window_started_at: Date | string; prune_due: boolean }[] };
  const row = result.rows[0]!;
  // The write is counted in the same statement (one round trip on the API's every request).
  if (row.prune_due) await pruneRateLimits(db, now);
  const resetsAt = new Date(row.window_started_at).getTime() + rule.windowSeconds * 1000;
  const resetSeconds = Math.max(1, Math.ceil((resetsAt - now.getTime()) / 1000));
  return { allowed: row.count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - row.count), resetSeconds };
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

/** Forgets `key` (e.g. an account's failures once its owner is in). */
export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** The wait after `failures` failures (0 while they are free). */
export function backoffDelaySeconds(failures: number, rule: BackoffRule): number {
  if (failures < rule.freeFailures) return 0;
  const steps = Math.min(failures - rule.freeFailures, 30);
  return Math.min(rule.firstDelaySeconds * 2 ** steps, rule.maxDelaySeconds);
}

/**
 * Claims one attempt under a backoff: counted as a failure at once, given back
 * with releaseBackoffAttempt when it succeeds. The claim is one conditional
 * UPDATE, which the database re-checks under the row lock, so a burst of
 * parallel requests cannot all slip through the free ones. In the row,
 * `window_started_at` is the time of the last counted attempt.
 */
export async function claimBackoffAttempt(db: Db, key: string, rule: BackoffRule, now = new Date()): Promise<RateLimitResult> {
  const forgetBefore = new Date(now.getTime() - rule.forgetAfterSeconds * 1000);
  const forgotten = new Date(forgetBefore.getTime() - 1000);
  await db.execute(sql`insert into rate_limits (key, window_started_at, count) values (${key}, ${forgotten}, 0) on conflict (key) do nothing`);
  const waitOver = sql`(rate_limits.count < ${rule.freeFailures} or rate_limits.window_started_at + make_interval(secs => least(${rule.firstDelaySeconds}::float8 * power(2, least(rate_limits.count - ${rule.freeFailures}, 30)), ${rule.maxDelaySeconds}::float8)) <= ${now})`;
  const claimed = (await db.execute(sql`
    update rate_limits set
      count = case when rate_limits.window_started_at <= ${forgetBefore} then 1 else rate_limits.count + 1 end,
      window_started_at = ${now}
    where key = ${key} and (rate_limits.window_started_at <= ${forgetBefore} or ${waitOver})
    returning count
  `)) as unknown as { rows: unknown[] };
  await afterWrite(db, now);
  if (claimed.rows.length > 0) return { allowed: true };
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  if (!row) return { allowed: true };
  const waitUntil = row.windowStartedAt.getTime() + backoffDelaySeconds(row.count, rule) * 1000;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((waitUntil - now.getTime()) / 1000)) };
}

/** Gives back an attempt claimed by claimBackoffAttempt (it succeeded, or was not a guess). */
export async function releaseBackoffAttempt(db: Db, key: string): Promise<void> {
  await db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`);
}

/** "Too many attempts. Please try again in 12 minutes." */
export function retryMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = retryAfterSeconds < 60 ? `${retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `Too many attempts. Please try again in ${wait}.`;
}
