import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalTimeZone, DEADLINE_MESSAGES, deadlineFields, HALF_DEADLINE_NOTICE, instantsFor, parseDeadline, wallTimeAt, type DeadlineFields } from "./deadline";

const ok = (fields: DeadlineFields) => {
  const result = parseDeadline(fields);
  if (result.kind !== "SUCCESS" || !result.deadline) throw new Error(JSON.stringify(result));
  return result.deadline;
};
const at = (deadlineDate: string, deadlineTime: string, deadlineTimeZone: string) => ok({ deadlineDate, deadlineTime, deadlineTimeZone }).at.toISOString();

describe("a deadline's wall time in its zone", () => {
  it("uses the zone's offset on the deadline's date, not today's", () => {
    // Typed in January for July: New York is on EDT (UTC-4) then, whatever the offset is today.
    expect(at("2030-07-15", "18:30", "America/New_York")).toBe("2030-07-15T22:30:00.000Z");
    expect(at("2030-01-15", "18:30", "America/New_York")).toBe("2030-01-15T23:30:00.000Z");
    expect(at("2030-07-15", "18:30", "Europe/London")).toBe("2030-07-15T17:30:00.000Z");
    expect(at("2030-07-15", "18:30", "Australia/Sydney")).toBe("2030-07-15T08:30:00.000Z");
    expect(at("2030-01-15", "18:30", "Australia/Sydney")).toBe("2030-01-15T07:30:00.000Z");
    expect(at("2030-07-15", "18:30", "Asia/Kathmandu")).toBe("2030-07-15T12:45:00.000Z");
    expect(at("2030-07-15", "00:00", "Pacific/Kiritimati")).toBe("2030-07-14T10:00:00.000Z");
    expect(at("2030-07-15", "18:30", "UTC")).toBe("2030-07-15T18:30:00.000Z");
  });

  it("keeps the zone by its canonical name", () => {
    expect(ok({ deadlineDate: "2030-07-15", deadlineTime: "18:30", deadlineTimeZone: "US/Eastern" }).timeZone).toBe("America/New_York");
    expect(canonicalTimeZone("Mars/Olympus_Mons")).toBeNull();
    expect(canonicalTimeZone("+05:00")).toBeNull();
  });

  it("refuses a time the clocks skip (spring forward), saying why", () => {
    // 8 March 2026, New York: 02:00 EST becomes 03:00 EDT.
    expect(parseDeadline({ deadlineDate: "2026-03-08", deadlineTime: "02:30", deadlineTimeZone: "America/New_York" })).toEqual({
      kind: "ERROR",
      field: "deadlineTime",
      message: "02:30 doesn't exist on 2026-03-08 in America/New York: the clocks skip it. Enter a later time",
    });
    expect(at("2026-03-08", "01:59", "America/New_York")).toBe("2026-03-08T06:59:00.000Z");
    expect(at("2026-03-08", "03:00", "America/New_York")).toBe("2026-03-08T07:00:00.000Z");
    // Samoa skipped the whole of 30 December 2011.
    expect(parseDeadline({ deadlineDate: "2011-12-30", deadlineTime: "12:00", deadlineTimeZone: "Pacific/Apia" }).kind).toBe("ERROR");
    // Lord Howe Island moves its clocks by 30 minutes.
    expect(parseDeadline({ deadlineDate: "2030-10-06", deadlineTime: "02:15", deadlineTimeZone: "Australia/Lord_Howe" }).kind).toBe("ERROR");
  });

  it("takes the first of a time the clocks show twice (fall back)", () => {
    // 1 November 2026, New York: 01:30 EDT, then an hour later 01:30 EST.
    expect(instantsFor({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, "America/New_York")).toEqual([
      Date.parse("2026-11-01T05:30:00Z"),
      Date.parse("2026-11-01T06:30:00Z"),
    ]);
    expect(at("2026-11-01", "01:30", "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
    expect(at("2026-10-25", "02:30", "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
  });

  it("shows a stored deadline back as the wall time it was typed in (UTC for posts saved without a zone)", () => {
    expect(deadlineFields("2030-07-15T22:30:00.000Z", "America/New_York")).toEqual({
      deadlineDate: "2030-07-15",
      deadlineTime: "18:30",
      deadlineTimeZone: "America/New_York",
    });
    expect(deadlineFields("2030-07-15T22:30:00.000Z", null)).toEqual({ deadlineDate: "2030-07-15", deadlineTime: "22:30", deadlineTimeZone: "UTC" });
    expect(deadlineFields(null, null)).toEqual({ deadlineDate: "", deadlineTime: "", deadlineTimeZone: "" });
  });
});

describe("impossible deadlines are refused, never rolled over", () => {
  const zone = "America/New_York";
  it.each([
    ["2026-02-30", "12:00", "deadlineDate", DEADLINE_MESSAGES.realDate],
    ["2026-02-29", "12:00", "deadlineDate", DEADLINE_MESSAGES.realDate],
    ["2100-02-29", "12:00", "deadlineDate", DEADLINE_MESSAGES.realDate],
    ["2026-04-31", "12:00", "deadlineDate", DEADLINE_MESSAGES.realDate],
    ["2026-13-01", "12:00", "deadlineDate", DEADLINE_MESSAGES.realDate],
    ["2026-00-10", "12:00", "deadlineDate", DEADLINE_MESSAGES.realDate],
    ["2026-01-00", "12:00", "deadlineDate", DEADLINE_MESSAGES.realDate],
    ["0000-01-01", "12:00", "deadlineDate", DEADLINE_MESSAGES.year],
    ["1899-12-31", "12:00", "deadlineDate", DEADLINE_MESSAGES.year],
    ["275760-09-13", "12:00", "deadlineDate", DEADLINE_MESSAGES.dateFormat],
    ["+020260-01-01", "12:00", "deadlineDate", DEADLINE_MESSAGES.dateFormat],
    ["7/15/2030", "12:00", "deadlineDate", DEADLINE_MESSAGES.dateFormat],
    ["2030-7-15", "12:00", "deadlineDate", DEADLINE_MESSAGES.dateFormat],
    ["next friday", "12:00", "deadlineDate", DEADLINE_MESSAGES.dateFormat],
    ["２０３０-０７-１５", "12:00", "deadlineDate", DEADLINE_MESSAGES.dateFormat],
    ["2030-07-15", "25:99", "deadlineTime", DEADLINE_MESSAGES.time],
    ["2030-07-15", "24:00", "deadlineTime", DEADLINE_MESSAGES.time],
    ["2030-07-15", "12:60", "deadlineTime", DEADLINE_MESSAGES.time],
    ["2030-07-15", "6:30 PM", "deadlineTime", DEADLINE_MESSAGES.time],
    ["2030-07-15", "18:30:00", "deadlineTime", DEADLINE_MESSAGES.time],
    ["2030-07-15", "noon", "deadlineTime", DEADLINE_MESSAGES.time],
  ])("%j %j is refused on %s", (deadlineDate, deadlineTime, field, message) => {
    expect(parseDeadline({ deadlineDate, deadlineTime, deadlineTimeZone: zone })).toEqual({ kind: "ERROR", field, message });
  });

  it.each(["", "Mars/Olympus_Mons", "America/New_York\u0000", "x".repeat(200), "../../etc/passwd"])("refuses the zone %j", (deadlineTimeZone) => {
    expect(parseDeadline({ deadlineDate: "2030-07-15", deadlineTime: "18:30", deadlineTimeZone })).toEqual({
      kind: "ERROR",
      field: "deadlineTimeZone",
      message: DEADLINE_MESSAGES.timeZone,
    });
  });

  it("accepts the real edge days", () => {
    expect(at("2028-02-29", "23:59", "UTC")).toBe("2028-02-29T23:59:00.000Z");
    expect(at("2000-02-29", "00:00", "UTC")).toBe("2000-02-29T00:00:00.000Z");
    expect(at("9999-12-31", "23:59", "UTC")).toBe("9999-12-31T23:59:00.000Z");
  });

  it("stores nothing when both parts are empty, whatever the zone says", () => {
    expect(parseDeadline({ deadlineDate: "", deadlineTime: "", deadlineTimeZone: "" })).toEqual({ kind: "SUCCESS", deadline: null });
  });

  it.each([
    ["2030-07-15", ""],
    ["", "18:30"],
    ["2030-02-30", ""],
  ])("leaves out a half-filled deadline (%j %j) with a notice, as SPEC §5 stores only both", (deadlineDate, deadlineTime) => {
    expect(parseDeadline({ deadlineDate, deadlineTime, deadlineTimeZone: zone })).toEqual({ kind: "SUCCESS", deadline: null, notice: HALF_DEADLINE_NOTICE });
  });
});

// Zones with daylight saving north and south, half- and quarter-hour offsets, a 30-minute and a 2-hour shift, a skipped day.
const ZONES = [
  "America/New_York", "America/Los_Angeles", "America/Sao_Paulo", "America/St_Johns", "Europe/London", "Europe/Dublin",
  "Europe/Berlin", "Africa/Casablanca", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Sydney", "Australia/Lord_Howe",
  "Pacific/Chatham", "Pacific/Apia", "Antarctica/Troll", "UTC",
];
const MINUTE = 60_000;
const instant = fc.integer({ min: Date.parse("1950-01-01T00:00:00Z") / MINUTE, max: Date.parse("2100-12-31T00:00:00Z") / MINUTE }).map((m) => m * MINUTE);
const wallTime = fc.record({
  year: fc.integer({ min: 1950, max: 2100 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
});

describe("round trips (property)", () => {
  it("wall time → instant → wall time: every instant found shows the wall time typed; a gap finds none, an overlap two", () => {
    fc.assert(
      fc.property(wallTime, fc.constantFrom(...ZONES), (wall, zone) => {
        const found = instantsFor(wall, zone);
        expect(found.length).toBeLessThanOrEqual(2);
        for (const candidate of found) expect(wallTimeAt(candidate, zone)).toEqual(wall);
      }),
      { numRuns: 3000 },
    );
  });

  it("instant → wall time → instant: every minute's wall time is found again, so a saved deadline survives the edit form", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (moment, zone) => {
        const shown = deadlineFields(new Date(moment), zone);
        const found = instantsFor(wallTimeAt(moment, zone), zone);
        expect(found).toContain(moment);
        // The form takes the first of two; a deadline saved through it is always that first one, so it's stable.
        const saved = ok(shown).at.getTime();
        expect(saved).toBe(found[0]);
        expect(ok(deadlineFields(new Date(saved), zone)).at.getTime()).toBe(saved);
      }),
      { numRuns: 3000 },
    );
  });

  it("around real clock changes, finds exactly the instants a dense scan of the zone's offsets finds", () => {
    // Wall times within three hours either side of a transition, so gaps and overlaps come up every time.
    const nearChange = fc
      .record({ zone: fc.constantFrom(...ZONES.filter((zone) => zone !== "UTC")), year: fc.integer({ min: 1970, max: 2060 }), pick: fc.nat(), delta: fc.integer({ min: -180, max: 180 }) })
      .map(({ zone, year, pick, delta }) => {
        const changes = transitionsIn(zone, year);
        if (changes.length === 0) return null;
        const before = wallTimeAt(changes[pick % changes.length]! - MINUTE, zone);
        // Naive wall-clock arithmetic: the wall time `delta` minutes after the last minute before the change.
        const shifted = new Date(Date.UTC(before.year, before.month - 1, before.day, before.hour, before.minute) + (delta + 1) * MINUTE);
        const wall = { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate(), hour: shifted.getUTCHours(), minute: shifted.getUTCMinutes() };
        return { zone, wall };
      })
      .filter((value) => value !== null);
    let gaps = 0;
    let overlaps = 0;
    fc.assert(
      fc.property(nearChange, ({ zone, wall }) => {
        const found = instantsFor(wall, zone);
        expect(found).toEqual(scan(wall, zone));
        if (found.length === 0) gaps++;
        if (found.length === 2) overlaps++;
      }),
      { numRuns: 400 },
    );
    expect(gaps).toBeGreaterThan(10);
    expect(overlaps).toBeGreaterThan(10);
  });
});

const asUtc = (wall: { year: number; month: number; day: number; hour: number; minute: number }) =>
  Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
const offsetAt = (moment: number, zone: string) => asUtc(wallTimeAt(moment, zone)) - moment;

/** The instants (to the minute) where `zone`'s offset changes during `year`: a weekly walk, then bisection. */
const transitionCache = new Map<string, number[]>();
function transitionsIn(zone: string, year: number): number[] {
  const key = `${zone}|${year}`;
  const cached = transitionCache.get(key);
  if (cached) return cached;
  const changes: number[] = [];
  const start = Date.UTC(year, 0, 1);
  for (let week = 0; week < 53; week++) {
    let low = start + week * 7 * 86_400_000;
    let high = low + 7 * 86_400_000;
    if (offsetAt(low, zone) === offsetAt(high, zone)) continue;
    while (high - low > MINUTE) {
      const middle = Math.floor((low + high) / 2 / MINUTE) * MINUTE;
      if (offsetAt(middle, zone) === offsetAt(low, zone)) low = middle;
      else high = middle;
    }
    changes.push(high);
  }
  transitionCache.set(key, changes);
  return changes;
}

/** Oracle: every offset the zone uses within a day and a half, sampled hourly, tried against the wall time. */
function scan(wall: { year: number; month: number; day: number; hour: number; minute: number }, zone: string): number[] {
  const base = asUtc(wall);
  const offsets = new Set<number>();
  for (let t = base - 36 * 60 * MINUTE; t <= base + 36 * 60 * MINUTE; t += 60 * MINUTE) offsets.add(offsetAt(t, zone));
  return [...offsets]
    .map((offset) => base - offset)
    .filter((candidate) => asUtc(wallTimeAt(candidate, zone)) === base)
    .sort((a, b) => a - b);
}
