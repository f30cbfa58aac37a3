import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#server/db/client";
import { bioPageDailyViews, bioPageLinkClicks, bioPageViews, bioPages } from "#server/db/schema";
import { seedDatabase } from "#server/seed";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { createViewCounter, VIEW_DEDUPE_WINDOW_MS } from "./view-counter";

describe.each(ENGINES)("bio view counter on %s", (engine) => {
  const database = migratedDatabase(engine);
  let pageId = "";
  const views = async () => (await database.db.select({ count: bioPageViews.count }).from(bioPageViews).where(eq(bioPageViews.pageId, pageId)))[0]!.count;

  beforeAll(async () => {
    await seedDatabase(database.db);
    pageId = (await database.db.select({ id: bioPages.id }).from(bioPages).where(eq(bioPages.customEnding, "mayamakes")))[0]!.id;
  });

  it("adds views to the record and the UTC day, clicks to their link and day, in one flush", async () => {
    let now = Date.parse("2026-11-22T23:59:59.500Z");
    const counter = createViewCounter(database.db, { flushEveryMs: 60_000, now: () => now });
    const before = await views();
    counter.view(pageId, null);
    counter.view(pageId, null);
    counter.click(pageId, "youtube", null);
    now += 1_000; // the next UTC day
    counter.view(pageId, null);
    counter.click(pageId, "youtube", null);
    await counter.close();
    expect(await views()).toBe(before + 3);
    const days = await database.db.select({ day: bioPageDailyViews.day, count: bioPageDailyViews.count }).from(bioPageDailyViews).where(eq(bioPageDailyViews.pageId, pageId));
    expect(days.toSorted((a, b) => a.day.localeCompare(b.day))).toEqual([
      { day: "2026-11-22", count: 2 },
      { day: "2026-11-23", count: 1 },
    ]);
    const clicks = await database.db.select({ day: bioPageLinkClicks.day, count: bioPageLinkClicks.count }).from(bioPageLinkClicks).where(eq(bioPageLinkClicks.pageId, pageId));
    expect(clicks.toSorted((a, b) => a.day.localeCompare(b.day))).toEqual([
      { day: "2026-11-22", count: 1 },
      { day: "2026-11-23", count: 1 },
    ]);
  });

  it("keeps a failed flush's counts for the next try, and adds them exactly once", async () => {
    let failing = true;
    const flaky = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key === "transaction" && failing) return () => Promise.reject(new Error("database away"));
        return Reflect.get(target, key, receiver);
      },
    }) as Db;
    const errors: unknown[] = [];
    const counter = createViewCounter(flaky, { flushEveryMs: 60_000, onError: (error) => errors.push(error) });
    const before = await views();
    for (let i = 0; i < 7; i++) counter.view(pageId, null);
    await counter.flush();
    expect(errors).toHaveLength(1);
    expect(await views()).toBe(before);
    counter.view(pageId, null);
    failing = false;
    await counter.flush();
    expect(await views()).toBe(before + 8);
    await counter.close();
    expect(await views()).toBe(before + 8);
    expect(counter.stats()).toMatchObject({ pendingKeys: 0, failures: 1, dropped: 0 });
  });

  it("bounds what waits and drops (and counts) the rest; unknown pages are left out silently", async () => {
    const counter = createViewCounter(database.db, { flushEveryMs: 60_000, maxKeys: 2 });
    counter.view("no_such_page", null);
    counter.view(pageId, null);
    counter.click(pageId, "instagram", null);
    counter.view(pageId, null);
    expect(counter.stats()).toMatchObject({ pendingKeys: 2, dropped: 1 });
    const before = await views();
    await counter.close();
    // Both views of the page (one key); the click, a third key, was dropped.
    expect(await views()).toBe(before + 2);
    // Closed: nothing more is counted.
    counter.view(pageId, null);
    expect(counter.stats().pendingKeys).toBe(0);
  });

  it("counts one view per client network and page per half hour, and one click per link; bounded in memory", async () => {
    let now = Date.parse("2026-11-25T12:00:00Z");
    const counter = createViewCounter(database.db, { flushEveryMs: 60_000, now: () => now });
    const before = await views();
    for (let i = 0; i < 300; i++) counter.view(pageId, "192.0.2.10");
    counter.view(pageId, "::ffff:192.0.2.10");
    counter.view(pageId, "2001:db8:aa:bb::1");
    counter.view(pageId, "2001:db8:aa:bb:1:2:3:4");
    counter.view(pageId, "192.0.2.11");
    for (let i = 0; i < 5; i++) {
      counter.click(pageId, "youtube", "192.0.2.10");
      counter.click(pageId, "instagram", "192.0.2.10");
    }
    now += VIEW_DEDUPE_WINDOW_MS - 1;
    counter.view(pageId, "192.0.2.10");
    now += 1;
    counter.view(pageId, "192.0.2.10");
    await counter.flush();
    // 192.0.2.10 (twice: once more after the window), 2001:db8:aa:bb::/64, 192.0.2.11.
    expect(await views()).toBe(before + 4);
    const clicks = await database.db.select({ type: bioPageLinkClicks.linkType, count: bioPageLinkClicks.count }).from(bioPageLinkClicks)
      .where(and(eq(bioPageLinkClicks.pageId, pageId), eq(bioPageLinkClicks.day, "2026-11-25")));
    expect(clicks.toSorted((a, b) => a.type.localeCompare(b.type))).toEqual([{ type: "instagram", count: 1 }, { type: "youtube", count: 1 }]);
    await counter.close();

    const bounded = createViewCounter(database.db, { flushEveryMs: 60_000, maxRemembered: 100, now: () => now });
    for (let i = 0; i < 1000; i++) bounded.view(pageId, `10.1.${i >> 8}.${i & 255}`);
    expect(bounded.stats().remembered).toBe(100);
    await bounded.close();
  });
});
