import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { rateLimitSubject } from "./client-ip";
import { lt } from "drizzle-orm";
import { rateLimits } from "#server/platform/db/schema";
import {
  backoffDelaySeconds,
  claimBackoffAttempt,
  consumeRateLimit,
  consumeRateLimits,
  PRUNE_EVERY_WRITES,
  pruneRateLimits,
  rateLimitKey,
  releaseBackoffAttempt,
  retryMessage,
} from "./rate-limit";
import { AUTH_RATE_LIMITS, RATE_LIMIT_RETENTION_SECONDS, SIGN_IN_POLICY } from "./rules";

describe("rateLimitSubject", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["garbage", "unknown"],
  ])("keys %s as %s", (ip, subject) => {
    expect(rateLimitSubject(ip)).toBe(subject);
  });
});

describe("retryMessage", () => {
  it("says when to retry", () => {
    expect(retryMessage(42)).toBe("Too many attempts. Please try again in 42 seconds.");
    expect(retryMessage(61)).toBe("Too many attempts. Please try again in 2 minutes.");
    expect(retryMessage(60)).toBe("Too many attempts. Please try again in 1 minute.");
  });
});

describe("rateLimitKey", () => {
  it("bounds whatever the client sent to a short key, one per subject", () => {
    const huge = `${"a".repeat(5_000_000)}@example.com`;
    expect(rateLimitKey("signIn:account", huge).length).toBeLessThan(60);
    expect(rateLimitKey("x", "ada@example.com")).toBe(rateLimitKey("x", "ada@example.com"));
    expect(rateLimitKey("x", "ada@example.com")).not.toBe(rateLimitKey("x", "eve@example.com"));
    expect(rateLimitKey("x", "ada@example.com")).not.toBe(rateLimitKey("y", "ada@example.com"));
  });
});

describe("backoffDelaySeconds", () => {
  const rule = SIGN_IN_POLICY.address;
  it("lets the first failures pass, then doubles the wait up to the cap", () => {
    expect([0, 4].map((n) => backoffDelaySeconds(n, rule))).toEqual([0, 0]);
    expect([5, 6, 7, 8].map((n) => backoffDelaySeconds(n, rule))).toEqual([2, 4, 8, 16]);
    expect(backoffDelaySeconds(50, rule)).toBe(15 * 60);
    expect(backoffDelaySeconds(1_000_000, rule)).toBe(15 * 60);
  });

  it("forgets later than any wait, and every rule is shorter than the rows are kept", () => {
    expect(rule.forgetAfterSeconds).toBeGreaterThan(rule.maxDelaySeconds);
    const windows = [
      ...Object.values(AUTH_RATE_LIMITS).flatMap((r) => [r.ip.windowSeconds, r.account.windowSeconds]),
      SIGN_IN_POLICY.account.windowSeconds,
      rule.forgetAfterSeconds,
    ];
    expect(Math.max(...windows)).toBeLessThan(RATE_LIMIT_RETENTION_SECONDS);
  });
});

describe.each(ENGINES)("rate limits on %s", (engine) => {
  const database = migratedDatabase(engine);

  const rule = { limit: 3, windowSeconds: 60 };

  it("allows the limit, refuses the next with the time left, and opens again after the window", async () => {
    const start = new Date("2026-11-21T12:00:00Z");
    for (let i = 0; i < 3; i++) expect(await consumeRateLimit(database.db, "t:a", rule, start)).toEqual({ allowed: true });
    const later = new Date(start.getTime() + 20_000);
    expect(await consumeRateLimit(database.db, "t:a", rule, later)).toEqual({ allowed: false, retryAfterSeconds: 40 });
    expect(await consumeRateLimit(database.db, "t:b", rule, later)).toEqual({ allowed: true });
    const nextWindow = new Date(start.getTime() + 61_000);
    expect(await consumeRateLimit(database.db, "t:a", rule, nextWindow)).toEqual({ allowed: true });
  });

  it("counts concurrent attempts exactly", async () => {
    const now = new Date("2026-11-21T13:00:00Z");
    const results = await Promise.all(
      Array.from({ length: 20 }, () => consumeRateLimit(database.db, "t:race", { limit: 5, windowSeconds: 60 }, now)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("refuses when any of several limits is spent", async () => {
    const now = new Date("2026-11-21T14:00:00Z");
    const checks = [
      { key: "t:ip", rule: { limit: 10, windowSeconds: 60 } },
      { key: "t:account", rule: { limit: 1, windowSeconds: 120 } },
    ];
    expect(await consumeRateLimits(database.db, checks, now)).toEqual({ allowed: true });
    expect(await consumeRateLimits(database.db, checks, now)).toEqual({ allowed: false, retryAfterSeconds: 120 });
  });
});

describe.each(ENGINES)("backoff and pruning on %s", (engine) => {
  const database = migratedDatabase(engine);
  const rule = { freeFailures: 2, firstDelaySeconds: 10, maxDelaySeconds: 40, forgetAfterSeconds: 600 };
  const at = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);

  it("passes the free failures, then makes each next attempt wait longer", async () => {
    const t0 = new Date("2026-11-21T15:00:00Z");
    expect(await claimBackoffAttempt(database.db, "b:a", rule, t0)).toEqual({ allowed: true });
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 1))).toEqual({ allowed: true });
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 2))).toEqual({ allowed: false, retryAfterSeconds: 9 });
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 11))).toEqual({ allowed: true });
    // Three failures now: 20 s after the last one.
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 20))).toEqual({ allowed: false, retryAfterSeconds: 11 });
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 31))).toEqual({ allowed: true });
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 32))).toEqual({ allowed: false, retryAfterSeconds: 39 });
    // Another key is untouched; a quiet spell forgets everything.
    expect(await claimBackoffAttempt(database.db, "b:other", rule, at(t0, 32))).toEqual({ allowed: true });
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 31 + 601))).toEqual({ allowed: true });
    expect(await claimBackoffAttempt(database.db, "b:a", rule, at(t0, 31 + 602))).toEqual({ allowed: true });
  });

  it("lets only the free attempts through a parallel burst", async () => {
    const t0 = new Date("2026-11-21T16:00:00Z");
    const results = await Promise.all(Array.from({ length: 12 }, () => claimBackoffAttempt(database.db, "b:burst", rule, t0)));
    expect(results.filter((r) => r.allowed)).toHaveLength(2);
  });

  it("gives an attempt back when it succeeded", async () => {
    const t0 = new Date("2026-11-21T17:00:00Z");
    for (let i = 0; i < 5; i++) {
      expect(await claimBackoffAttempt(database.db, "b:owner", rule, at(t0, i))).toEqual({ allowed: true });
      await releaseBackoffAttempt(database.db, "b:owner");
    }
  });

  it("deletes rows older than any rule remembers, and keeps the rest", async () => {
    const now = new Date("2026-11-25T12:00:00Z");
    const old = new Date(now.getTime() - (RATE_LIMIT_RETENTION_SECONDS + 60) * 1000);
    await consumeRateLimit(database.db, "p:old", { limit: 1, windowSeconds: 60 }, old);
    await consumeRateLimit(database.db, "p:recent", { limit: 1, windowSeconds: 60 }, now);
    expect(await pruneRateLimits(database.db, now)).toBeGreaterThanOrEqual(1);
    const left = await database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(left.map((row) => row.key)).toContain("p:recent");
    expect(left.map((row) => row.key)).not.toContain("p:old");
  });

  it("prunes on its own as writes go by: an anonymous flood cannot grow the table for ever", async () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const old = new Date(now.getTime() - (RATE_LIMIT_RETENTION_SECONDS + 60) * 1000);
    for (let i = 0; i < 50; i++) await consumeRateLimit(database.db, `flood:${i}`, { limit: 1, windowSeconds: 60 }, old);
    for (let i = 0; i < PRUNE_EVERY_WRITES; i++) await consumeRateLimit(database.db, "flood:now", { limit: 1, windowSeconds: 60 }, now);
    const cutoff = new Date(now.getTime() - RATE_LIMIT_RETENTION_SECONDS * 1000);
    expect(await database.db.select().from(rateLimits).where(lt(rateLimits.windowStartedAt, cutoff))).toEqual([]);
  });
});
