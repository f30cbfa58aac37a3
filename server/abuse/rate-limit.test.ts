import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { rateLimitSubject } from "./client-ip";
import { consumeRateLimit, consumeRateLimits, retryMessage } from "./rate-limit";

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
