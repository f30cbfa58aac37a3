import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { parseInsightsPeriod } from "#isomorphic/insights-periods";
import { bioPageDailyReferrers, bioPageDailyViews, bioPageLinkClicks, bioPageViews, sponsorSessions, user } from "#server/platform/db/schema";
import { parseBioPageForm } from "./form";
import { createBioPage } from "./pages";
import { conversionRate, INSIGHTS_DAYS, readBioPageInsights, TOP_SITES, windowDays } from "./stats";

const OWNER = { uid: "insights-owner" };
const STRANGER = { uid: "insights-stranger" };
// 5 March 2026, just after a month boundary (and February's 28 days).
const NOW = new Date("2026-03-05T23:30:00Z");

function form(links: { type: string; url: string }[]) {
  const parsed = parseBioPageForm({ name: "Stats page", customEnding: "", blurb: "", links, sponsorships: [] });
  if (parsed.kind !== "SUCCESS") throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.form;
}

describe("the 30-day window", () => {
  it("ends on today's UTC day and crosses month boundaries day by day", () => {
    const days = windowDays(NOW);
    expect(days).toHaveLength(INSIGHTS_DAYS);
    expect(days.at(-1)).toBe("2026-03-05");
    expect(days[0]).toBe("2026-02-04");
    expect(days).toContain("2026-02-28");
    expect(days).not.toContain("2026-02-29");
    expect(days.indexOf("2026-03-01") - days.indexOf("2026-02-28")).toBe(1);
    // 00:30 in Berlin is still the previous day in UTC.
    expect(windowDays(new Date("2026-03-05T00:30:00+01:00")).at(-1)).toBe("2026-03-04");
  });
});

describe("the periods", () => {
  it("are 7, 30, 90 and 365 days; anything else asked for is 30", () => {
    for (const days of [7, 30, 90, 365]) expect(parseInsightsPeriod(String(days))).toBe(days);
    for (const value of [null, undefined, "", "0", "-7", "7.0", " 7", "07", "366", "1e2", "abc", "30; drop"]) expect(parseInsightsPeriod(value)).toBe(30);
  });

  it("each end today and reach back their length in UTC days, across a leap day", () => {
    const now = new Date("2028-03-01T12:00:00Z");
    expect(windowDays(now, 7)).toEqual(["2028-02-24", "2028-02-25", "2028-02-26", "2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(windowDays(now, 90)[0]).toBe("2027-12-03");
    const year = windowDays(now, 365);
    expect(year).toHaveLength(365);
    expect(year[0]).toBe("2027-03-03");
    expect(new Set(year).size).toBe(365);
  });
});

describe("conversion", () => {
  it("is tips per view, and nothing without views", () => {
    expect(conversionRate(3, 150)).toBe(0.02);
    expect(conversionRate(0, 40)).toBe(0);
    expect(conversionRate(2, 0)).toBeNull();
    expect(conversionRate(0, 0)).toBeNull();
  });
});

describe.each(ENGINES)("bio page insights on %s", (engine) => {
  const database = migratedDatabase(engine);
  let pageId: string;

  beforeAll(async () => {
    await database.db.insert(user).values([
      { id: OWNER.uid, name: "Owner", email: "insights-owner@stats.example", emailVerified: true },
      { id: STRANGER.uid, name: "Stranger", email: "insights-stranger@stats.example", emailVerified: true },
    ]);
    const created = await createBioPage(
      database.db,
      OWNER,
      form([
        { type: "youtube", url: "https://youtube.com/@owner" },
        { type: "website", url: "https://owner.example" },
        { type: "instagram", url: "https://instagram.com/owner" },
      ]),
    );
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    pageId = created.id;
    await database.db.update(bioPageViews).set({ count: 1000 }).where(eq(bioPageViews.pageId, pageId));
    await database.db.insert(bioPageDailyViews).values([
      { pageId, day: "2026-02-03", count: 500 }, // one day before the window
      { pageId, day: "2026-02-04", count: 4 }, // its first day
      { pageId, day: "2026-02-28", count: 7 },
      { pageId, day: "2026-03-01", count: 9 },
      { pageId, day: "2026-03-05", count: 2 }, // today
      { pageId, day: "2026-03-06", count: 300 }, // tomorrow, as a clock ahead of ours could write
    ]);
    await database.db.insert(bioPageLinkClicks).values([
      { pageId, linkType: "website", day: "2026-01-10", count: 40 },
      { pageId, linkType: "website", day: "2026-03-02", count: 3 },
      { pageId, linkType: "youtube", day: "2026-02-04", count: 5 },
      { pageId, linkType: "youtube", day: "2026-02-03", count: 6 },
      // A link the owner has since removed from the page.
      { pageId, linkType: "tiktok", day: "2026-02-20", count: 8 },
    ]);
    await database.db.insert(bioPageDailyReferrers).values([
      { pageId, day: "2026-02-03", site: "spam.example", count: 500 }, // before the 30-day window
      { pageId, day: "2026-02-04", site: "instagram.com", count: 3 },
      { pageId, day: "2026-02-04", site: "Direct", count: 1 },
      { pageId, day: "2026-02-28", site: "youtube.com", count: 7 },
      { pageId, day: "2026-03-01", site: "instagram.com", count: 5 },
      // 2026-03-01's other 4 views and today's 2 were counted before sites were.
    ]);
    const tip = (id: string, created: string, status: string, kind = "tip") => ({
      id,
      kind: kind as "tip",
      provider: "sandbox",
      posterUid: OWNER.uid,
      bioPageId: pageId,
      destinationAccountId: "acct_owner",
      amount: 500,
      message: "Thanks",
      status: status as "completed",
      created: new Date(created),
    });
    await database.db.insert(sponsorSessions).values([
      tip("ss_paid_first_day", "2026-02-04T00:00:00Z", "completed"),
      tip("ss_refunded", "2026-03-01T08:00:00Z", "refunded"),
      tip("ss_disputed", "2026-03-05T23:00:00Z", "disputed"),
      tip("ss_pending", "2026-03-02T08:00:00Z", "pending"),
      tip("ss_failed", "2026-03-02T08:00:00Z", "failed"),
      tip("ss_expired", "2026-03-02T08:00:00Z", "expired"),
      tip("ss_before", "2026-02-03T23:59:59Z", "completed"),
      tip("ss_sponsorship", "2026-03-02T08:00:00Z", "completed", "sponsorship"),
    ]);
  });

  it("counts paid tips of the window (refunded and disputed ones too) and divides them by its views", async () => {
    const result = await readBioPageInsights(database.db, OWNER, pageId, { now: NOW });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights).toMatchObject({ period: 30, viewsInWindow: 22, clicksInWindow: 16, tipsInWindow: 3 });
    expect(result.insights.conversion).toBeCloseTo(3 / 22);
    const week = await readBioPageInsights(database.db, OWNER, pageId, { period: 7, now: NOW });
    if (week.kind !== "SUCCESS") throw new Error(week.message);
    // 27 Feb to 5 Mar: 7 + 9 + 2 views, the refunded and the disputed tip.
    expect(week.insights).toMatchObject({ period: 7, viewsInWindow: 18, tipsInWindow: 2, clicksInWindow: 3 });
    expect(week.insights.days).toHaveLength(7);
  });

  it("names the window's referring sites, most first, and says how many views have no site recorded", async () => {
    const result = await readBioPageInsights(database.db, OWNER, pageId, { now: NOW });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights.sites).toEqual([
      { site: "instagram.com", views: 8 },
      { site: "youtube.com", views: 7 },
      { site: "Direct", views: 1 },
    ]);
    expect(result.insights).toMatchObject({ otherSites: 0, unrecordedSites: 22 - 16 });
    const year = await readBioPageInsights(database.db, OWNER, pageId, { period: 365, now: NOW });
    if (year.kind !== "SUCCESS") throw new Error(year.message);
    expect(year.insights.sites[0]).toEqual({ site: "spam.example", views: 500 });
    expect(year.insights).toMatchObject({ viewsInWindow: 522, tipsInWindow: 4, clicksInWindow: 62 });
    expect(year.insights.days).toHaveLength(365);
  });

  it("names the top sites only and sums the rest", async () => {
    const created = await createBioPage(database.db, OWNER, form([]));
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    const sites = Array.from({ length: TOP_SITES + 3 }, (_, i) => ({ pageId: created.id, day: "2026-03-05", site: `site${String(i).padStart(2, "0")}.example`, count: 100 - i }));
    await database.db.insert(bioPageDailyReferrers).values(sites);
    await database.db.insert(bioPageDailyViews).values({ pageId: created.id, day: "2026-03-05", count: sites.reduce((sum, row) => sum + row.count, 0) });
    const result = await readBioPageInsights(database.db, OWNER, created.id, { now: NOW });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights.sites.map((row) => row.site)).toEqual(sites.slice(0, TOP_SITES).map((row) => row.site));
    expect(result.insights).toMatchObject({ otherSites: 90 + 89 + 88, unrecordedSites: 0 });
  });

  it("counts views per UTC day over the last 30 days, zero-filled, oldest first", async () => {
    const result = await readBioPageInsights(database.db, OWNER, pageId, { now: NOW });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    const { days, viewsInWindow, totalViews } = result.insights;
    expect(days.map((d) => d.day)).toEqual(windowDays(NOW));
    const views = Object.fromEntries(days.map((d) => [d.day, d.views]));
    expect(views).toMatchObject({ "2026-02-04": 4, "2026-02-28": 7, "2026-03-01": 9, "2026-03-05": 2, "2026-02-05": 0, "2026-03-02": 0 });
    expect(days.filter((d) => d.views === 0)).toHaveLength(26);
    expect(viewsInWindow).toBe(22);
    expect(totalViews).toBe(1000);
  });

  it("counts clicks per link in the page's order, unclicked links at 0, removed links after them", async () => {
    const result = await readBioPageInsights(database.db, OWNER, pageId, { now: NOW });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights.clicks).toEqual([
      { type: "youtube", label: "YouTube", url: "https://youtube.com/@owner", shown: true, lastDays: 5, allTime: 11 },
      { type: "website", label: "Website", url: "https://owner.example", shown: true, lastDays: 3, allTime: 43 },
      { type: "instagram", label: "Instagram", url: "https://instagram.com/owner", shown: true, lastDays: 0, allTime: 0 },
      { type: "tiktok", label: "TikTok", url: null, shown: false, lastDays: 8, allTime: 8 },
    ]);
    expect(result.insights.page).toMatchObject({ id: pageId, name: "Stats page" });
  });

  it("moves the window with the clock: late in March, February's views and clicks have left it", async () => {
    const result = await readBioPageInsights(database.db, OWNER, pageId, { now: new Date("2026-03-31T12:00:00Z") });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights.days[0]!.day).toBe("2026-03-02");
    expect(result.insights.viewsInWindow).toBe(2 + 300);
    expect(result.insights.clicks.map((c) => c.lastDays)).toEqual([0, 3, 0, 0]);
  });

  it("is all zeros for a page nobody has visited", async () => {
    const created = await createBioPage(database.db, OWNER, form([]));
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    const result = await readBioPageInsights(database.db, OWNER, created.id, { now: NOW });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights.days.every((d) => d.views === 0)).toBe(true);
    expect(result.insights).toMatchObject({ viewsInWindow: 0, totalViews: 0, clicks: [], tipsInWindow: 0, conversion: null, sites: [], otherSites: 0, unrecordedSites: 0 });
  });

  it("answers someone else's page, a missing one and a malformed id alike: not found", async () => {
    for (const [owner, id] of [
      [STRANGER, pageId],
      [OWNER, "A".repeat(20)],
      [OWNER, "'; drop table bio_pages; --"],
    ] as const) {
      expect(await readBioPageInsights(database.db, owner, id, { now: NOW })).toMatchObject({ kind: "ERROR", code: "not-found" });
    }
  });
});
