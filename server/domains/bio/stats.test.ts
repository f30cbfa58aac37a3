import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPageDailyViews, bioPageLinkClicks, bioPageViews, user } from "#server/platform/db/schema";
import { parseBioPageForm } from "./form";
import { createBioPage } from "./pages";
import { INSIGHTS_DAYS, readBioPageInsights, windowDays } from "./stats";

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
  });

  it("counts views per UTC day over the last 30 days, zero-filled, oldest first", async () => {
    const result = await readBioPageInsights(database.db, OWNER, pageId, NOW);
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
    const result = await readBioPageInsights(database.db, OWNER, pageId, NOW);
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
    const result = await readBioPageInsights(database.db, OWNER, pageId, new Date("2026-03-31T12:00:00Z"));
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights.days[0]!.day).toBe("2026-03-02");
    expect(result.insights.viewsInWindow).toBe(2 + 300);
    expect(result.insights.clicks.map((c) => c.lastDays)).toEqual([0, 3, 0, 0]);
  });

  it("is all zeros for a page nobody has visited", async () => {
    const created = await createBioPage(database.db, OWNER, form([]));
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    const result = await readBioPageInsights(database.db, OWNER, created.id, NOW);
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.insights.days.every((d) => d.views === 0)).toBe(true);
    expect(result.insights).toMatchObject({ viewsInWindow: 0, totalViews: 0, clicks: [] });
  });

  it("answers someone else's page, a missing one and a malformed id alike: not found", async () => {
    for (const [owner, id] of [
      [STRANGER, pageId],
      [OWNER, "A".repeat(20)],
      [OWNER, "'; drop table bio_pages; --"],
    ] as const) {
      expect(await readBioPageInsights(database.db, owner, id, NOW)).toMatchObject({ kind: "ERROR", code: "not-found" });
    }
  });
});
