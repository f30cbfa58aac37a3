import { describe, expect, it } from "vitest";
import { createRecentVisitors } from "./recent-visitors";

describe("recent visitors (one count per client network, page and thing, per window)", () => {
  it("counts a network's first visit of each page and link once per window, then forgets it", () => {
    let now = 0;
    const visitors = createRecentVisitors({ windowMs: 1_000, maxEntries: 10, now: () => now });
    expect(visitors.firstVisit("192.0.2.1", "p1", "")).not.toBeNull();
    expect(visitors.firstVisit("192.0.2.1", "p1", "")).toBeNull();
    expect(visitors.firstVisit("::ffff:192.0.2.1", "p1", "")).toBeNull();
    expect(visitors.firstVisit("192.0.2.1", "p1", "youtube")).not.toBeNull();
    expect(visitors.firstVisit("192.0.2.1", "p2", "")).not.toBeNull();
    expect(visitors.firstVisit("2001:db8::1", "p1", "")).not.toBeNull();
    expect(visitors.firstVisit("2001:db8::ffff:1", "p1", "")).toBeNull();
    expect(visitors.size()).toBe(4);
    now = 999;
    // A later visit inside the window does not extend it.
    expect(visitors.firstVisit("192.0.2.1", "p1", "")).toBeNull();
    now = 1_000;
    expect(visitors.firstVisit("192.0.2.1", "p1", "")).not.toBeNull();
    // The expired entries left on the way.
    expect(visitors.size()).toBe(1);
  });

  it("gives the same key for the same network, page and thing in every process that shares the salt, and no other", () => {
    const options = { windowMs: 1_000, maxEntries: 10, now: () => 0 };
    const [a, b, other] = [createRecentVisitors({ ...options, salt: "shared" }), createRecentVisitors({ ...options, salt: "shared" }), createRecentVisitors({ ...options, salt: "another" })];
    const key = a.firstVisit("192.0.2.1", "p1", "");
    expect(key).toMatch(/^[\w-]{22}$/);
    expect(b.firstVisit("::ffff:192.0.2.1", "p1", "")).toBe(key);
    expect(other.firstVisit("192.0.2.1", "p1", "")).not.toBe(key);
    expect(a.firstVisit("192.0.2.1", "p1", "youtube")).not.toBe(key);
  });

  it("keeps at most maxEntries, forgetting the oldest first", () => {
    const visitors = createRecentVisitors({ windowMs: 60_000, maxEntries: 3, now: () => 0 });
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]) expect(visitors.firstVisit(address, "p", "")).not.toBeNull();
    expect(visitors.size()).toBe(3);
    expect(visitors.firstVisit("10.0.0.4", "p", "")).toBeNull();
    expect(visitors.firstVisit("10.0.0.1", "p", "")).not.toBeNull();
  });
});
