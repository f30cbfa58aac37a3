import { describe, expect, it } from "vitest";
import { nextDue, retryAfter, wallTime } from "./timing";

const at = (iso: string) => new Date(iso);

describe("when a scheduled job is next due", () => {
  it("keeps an interval's rhythm from its due time, and after a long stop runs once rather than catching up", () => {
    expect(nextDue({ every: 60_000 }, at("2026-11-26T12:00:00Z"), at("2026-11-26T12:00:05Z"))).toEqual(at("2026-11-26T12:01:00Z"));
    expect(nextDue({ every: 60_000 }, at("2026-11-26T12:00:00Z"), at("2026-11-26T15:30:10Z"))).toEqual(at("2026-11-26T15:31:00Z"));
  });

  it("runs a daily job at its UTC time: today if still ahead, else tomorrow", () => {
    expect(nextDue({ dailyAtUtc: "00:05" }, at("2026-11-26T00:05:00Z"), at("2026-11-26T00:05:02Z"))).toEqual(at("2026-11-27T00:05:00Z"));
    // Run late (no process was up at midnight): the next is still the coming 00:05.
    expect(nextDue({ dailyAtUtc: "00:05" }, at("2026-11-20T00:05:00Z"), at("2026-11-26T23:59:00Z"))).toEqual(at("2026-11-27T00:05:00Z"));
    expect(nextDue({ dailyAtUtc: "23:30" }, at("2026-11-25T23:30:00Z"), at("2026-11-26T08:00:00Z"))).toEqual(at("2026-11-26T23:30:00Z"));
  });

  it("retries a failure after 30 s, doubling, never later than an hour or the job's own period", () => {
    const now = at("2026-11-26T12:00:00Z");
    const waits = [1, 2, 3, 8, 20].map((failures) => retryAfter({ dailyAtUtc: "00:05" }, failures, now).getTime() - now.getTime());
    expect(waits).toEqual([30_000, 60_000, 120_000, 3_600_000, 3_600_000]);
    expect(retryAfter({ every: 45_000 }, 5, now).getTime() - now.getTime()).toBe(45_000);
  });

  it("refuses a daily time that is not HH:MM", () => {
    expect(wallTime("07:45")).toEqual({ hours: 7, minutes: 45 });
    for (const bad of ["7:45", "24:00", "12:60", "noon"]) expect(() => wallTime(bad)).toThrow(/HH:MM/);
  });
});
