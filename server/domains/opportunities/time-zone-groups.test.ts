import { describe, expect, it } from "vitest";
import { timeZoneChoices } from "./deadline";
import { placeName, timeZoneGroups, utcOffsetText } from "./time-zone-groups";

const WINTER = Date.UTC(2026, 0, 15, 12);
const SUMMER = Date.UTC(2026, 6, 15, 12);

describe("timeZoneGroups", () => {
  it("starts with the common zones, UTC first, each named with its offset", () => {
    const [common] = timeZoneGroups(WINTER);
    expect(common!.region).toBe("Common time zones");
    expect(common!.zones[0]).toEqual({ zone: "UTC", label: "UTC (UTC+00:00)" });
    expect(common!.zones).toContainEqual({ zone: "America/New_York", label: "New York (US Eastern) (UTC−05:00)" });
    expect(common!.zones).toContainEqual({ zone: "Europe/Paris", label: "Paris (UTC+01:00)" });
    // India under the name the server's Intl knows it by, whichever of the two that is.
    expect(common!.zones.find((choice) => choice.label.startsWith("India"))?.label).toBe("India (UTC+05:30)");
  });

  it("offers every zone the server knows under its region, places in alphabetical order", () => {
    const groups = timeZoneGroups(WINTER);
    const regions = groups.slice(1);
    expect(regions.map((group) => group.region)).toEqual(expect.arrayContaining(["Africa", "Americas", "Asia", "Europe", "Pacific"]));
    const offered = new Set(regions.flatMap((group) => group.zones.map((choice) => choice.zone)));
    expect([...offered].sort()).toEqual([...timeZoneChoices()].sort());
    const europe = regions.find((group) => group.region === "Europe")!.zones.map((choice) => choice.label);
    expect(europe).toEqual([...europe].sort((a, b) => a.localeCompare(b, "en")));
    expect(europe).toContain("Berlin (UTC+01:00)");
    // Not the raw list's first name at the top any more.
    expect(groups[0]!.zones[0]!.zone).not.toBe("Africa/Abidjan");
  });

  it("moves the offsets with daylight saving", () => {
    const summer = timeZoneGroups(SUMMER)[0]!.zones;
    expect(summer).toContainEqual({ zone: "America/New_York", label: "New York (US Eastern) (UTC−04:00)" });
    expect(summer).toContainEqual({ zone: "Australia/Sydney", label: "Sydney (UTC+10:00)" });
  });
});

describe("utcOffsetText and placeName", () => {
  it("write an offset with a real minus sign, and a place as people read it", () => {
    expect(utcOffsetText("America/Los_Angeles", WINTER)).toBe("UTC−08:00");
    expect(utcOffsetText("Asia/Kathmandu", WINTER)).toBe("UTC+05:45");
    expect(utcOffsetText("UTC", WINTER)).toBe("UTC+00:00");
    expect(placeName("America/Argentina/Buenos_Aires")).toBe("Buenos Aires, Argentina");
    expect(placeName("Europe/Isle_of_Man")).toBe("Isle of Man");
    expect(placeName("UTC")).toBe("UTC");
  });
});
