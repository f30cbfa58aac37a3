import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { dateTimeFormat, formatIsoDate, formatMoney, localeFrom } from "#isomorphic/format";

describe("formatMoney", () => {
  it("shows whole amounts without cents and others with them", () => {
    expect(formatMoney(150000)).toBe("$1,500");
    expect(formatMoney(12345)).toBe("$123.45");
    expect(formatMoney(0)).toBe("$0");
  });

  it("uses the reader's locale and the amount's own currency", () => {
    expect(formatMoney(150000, "eur", "de-DE")).toBe("1.500\u00a0€");
    expect(formatMoney(150050, "usd", "en-US")).toBe("$1,500.50");
    // The same locale and currency with the other precision is a different formatter.
    expect(formatMoney(150000, "usd", "en-US")).toBe("$1,500");
  });
});

describe("dates", () => {
  it("formats an ISO date the same whatever the server's time zone", () => {
    expect(formatIsoDate("2026-06-03")).toBe("June 3, 2026");
    expect(formatIsoDate("2026-06-03", "en-GB")).toBe("3 June 2026");
  });

  it("formats a moment in UTC for the server render", () => {
    const moment = new Date("2026-06-03T17:05:00Z");
    expect(dateTimeFormat("en-US", "mediumDateTimeUtc").format(moment)).toBe("Jun 3, 2026, 5:05 PM");
    expect(dateTimeFormat("en-GB", "mediumDateTimeUtc").format(moment)).toBe("3 Jun 2026, 17:05");
  });

  it("builds each style and locale's formatter once", () => {
    expect(dateTimeFormat("en-US", "longDateUtc")).toBe(dateTimeFormat("en-US", "longDateUtc"));
    expect(dateTimeFormat("en-US", "longDateUtc")).not.toBe(dateTimeFormat("en-GB", "longDateUtc"));
    expect(dateTimeFormat("en-US", "longDateUtc")).not.toBe(dateTimeFormat("en-US", "mediumDateTimeUtc"));
  });
});

describe("localeFrom", () => {
  it("takes the reader's first supported locale, else en-US", () => {
    expect(localeFrom("de-DE,de;q=0.9,en;q=0.5")).toBe("de-DE");
    expect(localeFrom("zz, fr-CA;q=0.8")).toBe("fr-CA");
    expect(localeFrom(null)).toBe("en-US");
    expect(localeFrom("*")).toBe("en-US");
  });

  it("answers with a locale ICU ships, so invented tags cannot grow the formatter caches", () => {
    expect(localeFrom("en-x-abc123")).toBe("en");
    expect(localeFrom("fr-CA-u-nu-arab")).toBe("fr-CA");
    // Private-use subtags, unknown regions and extensions all fold into a small set of locales.
    const invented = fc.sample(fc.stringMatching(/^[a-z]{2}(-[A-Z]{2})?(-x-[a-z0-9]{1,8})?(-u-nu-[a-z]{4})?$/), 2000);
    const answers = new Set(invented.map((tag) => localeFrom(tag)));
    for (const locale of answers) expect(Intl.DateTimeFormat.supportedLocalesOf([locale])).toEqual([locale]);
    expect(answers.size).toBeLessThan(700);
    for (const locale of answers) expect(locale).not.toMatch(/-x-|-u-/);
  });
});
