import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { bioCountedVisits, bioPageDailyReferrers, bioPageDailyViews, bioPageLinkClicks, bioPageViews, bioPages } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { createViewCounter, pruneCountedVisits, VIEW_DEDUPE_WINDOW_MS, type ViewCounterOptions } from "./view-counter";

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

  it("adds each counted view to its referring site's day, once per network whatever sites it came from; the day's sites add up to its views", async () => {
    const now = Date.parse("2026-11-20T10:00:00Z");
    const counter = createViewCounter(database.db, { flushEveryMs: 60_000, now: () => now });
    counter.view(pageId, "198.51.100.1", "instagram.com");
    // The same network again, from another site, within the half hour: not a view, so no site either.
    counter.view(pageId, "198.51.100.1", "youtube.com");
    counter.view(pageId, "198.51.100.2", "instagram.com");
    counter.view(pageId, "198.51.100.3", "youtube.com");
    counter.view(pageId, "198.51.100.4");
    counter.view(pageId, null, "t.co");
    await counter.close();
    const sites = await database.db.select({ site: bioPageDailyReferrers.site, count: bioPageDailyReferrers.count }).from(bioPageDailyReferrers)
      .where(and(eq(bioPageDailyReferrers.pageId, pageId), eq(bioPageDailyReferrers.day, "2026-11-20")));
    expect(sites.toSorted((a, b) => a.site.localeCompare(b.site))).toEqual([
      { site: "Direct", count: 1 },
      { site: "instagram.com", count: 2 },
      { site: "t.co", count: 1 },
      { site: "youtube.com", count: 1 },
    ]);
    const [day] = await database.db.select({ count: bioPageDailyViews.count }).from(bioPageDailyViews)
      .where(and(eq(bioPageDailyViews.pageId, pageId), eq(bioPageDailyViews.day, "2026-11-20")));
    expect(day!.count).toBe(5);
    // A later batch adds to the same rows.
    const again = createViewCounter(database.db, { flushEveryMs: 60_000, now: () => now });
    again.view(pageId, null, "instagram.com");
    await again.close();
    const [instagram] = await database.db.select({ count: bioPageDailyReferrers.count }).from(bioPageDailyReferrers)
      .where(and(eq(bioPageDailyReferrers.pageId, pageId), eq(bioPageDailyReferrers.day, "2026-11-20"), eq(bioPageDailyReferrers.site, "instagram.com")));
    expect(instagram!.count).toBe(3);
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

  describe("two processes (two counters with one salt) on one database", () => {
    const SALT = "the-same-in-every-process";
    const clicksOn = async (day: string, type: "youtube" | "instagram") =>
      (await database.db.select({ count: bioPageLinkClicks.count }).from(bioPageLinkClicks)
        .where(and(eq(bioPageLinkClicks.pageId, pageId), eq(bioPageLinkClicks.day, day), eq(bioPageLinkClicks.linkType, type))))[0]?.count ?? 0;
    const pair = (now: () => number, options: ViewCounterOptions = {}) =>
      [0, 1].map(() => createViewCounter(database.db, { flushEveryMs: 60_000, visitorSalt: SALT, now, ...options })) as [ReturnType<typeof createViewCounter>, ReturnType<typeof createViewCounter>];

    it("counts a network once per half hour whichever process it reaches, in either order of flushes; distinct networks each once", async () => {
      let now = Date.parse("2026-11-24T09:00:00Z");
      const [a, b] = pair(() => now);
      const before = await views();
      a.view(pageId, "198.51.100.1");
      now += 1_000;
      b.view(pageId, "198.51.100.1");
      b.view(pageId, "2001:db8:5::1");
      a.view(pageId, "2001:db8:5::2"); // the same /64
      await a.flush();
      await b.flush();
      expect(await views()).toBe(before + 2);

      // B flushes its repeat first this time: still one.
      b.view(pageId, "198.51.100.2");
      a.view(pageId, "198.51.100.2");
      await b.flush();
      await a.flush();
      expect(await views()).toBe(before + 3);

      // A window after the first counted view, the network counts again (once), through either.
      now = Date.parse("2026-11-24T09:30:00Z");
      b.view(pageId, "198.51.100.1");
      a.view(pageId, "198.51.100.1");
      await Promise.all([a.flush(), b.flush()]);
      expect(await views()).toBe(before + 4);

      // Five networks split over both: five.
      for (let i = 0; i < 5; i++) [a, b][i % 2]!.view(pageId, `203.0.113.${i}`);
      await Promise.all([a.close(), b.close()]);
      expect(await views()).toBe(before + 9);
      const days = await database.db.select({ day: bioPageDailyViews.day, count: bioPageDailyViews.count }).from(bioPageDailyViews)
        .where(and(eq(bioPageDailyViews.pageId, pageId), eq(bioPageDailyViews.day, "2026-11-24")));
      expect(days).toEqual([{ day: "2026-11-24", count: 9 }]);
    });

    it("counts a network's click of each link once per half hour across both", async () => {
      let now = Date.parse("2026-11-21T18:00:00Z");
      const [a, b] = pair(() => now);
      for (const counter of [a, b, a, b]) {
        counter.click(pageId, "youtube", "198.51.100.7");
        counter.click(pageId, "instagram", "198.51.100.7");
      }
      b.click(pageId, "youtube", "198.51.100.8");
      await Promise.all([a.flush(), b.flush()]);
      expect([await clicksOn("2026-11-21", "youtube"), await clicksOn("2026-11-21", "instagram")]).toEqual([2, 1]);
      now += VIEW_DEDUPE_WINDOW_MS - 1;
      a.click(pageId, "youtube", "198.51.100.7");
      await a.flush();
      expect(await clicksOn("2026-11-21", "youtube")).toBe(2);
      now += 1;
      b.click(pageId, "youtube", "198.51.100.7");
      await Promise.all([a.close(), b.close()]);
      expect(await clicksOn("2026-11-21", "youtube")).toBe(3);
    });

    it("retries a failed flush without counting twice, also when the failed one had committed", async () => {
      const now = Date.parse("2026-11-20T10:00:00Z");
      let failure: "before" | "after" | null = "before";
      const flaky = new Proxy(database.db, {
        get(target, key, receiver) {
          if (key !== "transaction" || failure === null) return Reflect.get(target, key, receiver);
          // "after": the transaction commits but the answer is lost (the connection dropped).
          return failure === "before"
            ? () => Promise.reject(new Error("database away"))
            : async (work: Parameters<Db["transaction"]>[0]) => {
                await target.transaction(work);
                throw new Error("connection lost after commit");
              };
        },
      }) as Db;
      const a = createViewCounter(flaky, { flushEveryMs: 60_000, visitorSalt: SALT, now: () => now, onError: () => {} });
      const b = createViewCounter(database.db, { flushEveryMs: 60_000, visitorSalt: SALT, now: () => now });
      const before = await views();
      a.view(pageId, "198.51.100.20");
      a.view(pageId, "198.51.100.21");
      await a.flush();
      expect(a.stats()).toMatchObject({ failures: 1, pendingVisits: 2 });
      expect(await views()).toBe(before);
      // Meanwhile the other process counts one of those networks.
      b.view(pageId, "198.51.100.21");
      await b.flush();
      failure = "after";
      await a.flush();
      // Both visits wait again; one was counted (A's commit), the other already by B.
      expect(a.stats()).toMatchObject({ failures: 2, pendingVisits: 2 });
      expect(await views()).toBe(before + 2);
      failure = null;
      await a.close();
      await b.close();
      expect(await views()).toBe(before + 2);
      expect(a.stats()).toMatchObject({ pendingVisits: 0, dropped: 0 });
    });

    it("prunes counted visits older than the window, and only those", async () => {
      const at = Date.parse("2026-11-19T10:00:00Z");
      const counter = createViewCounter(database.db, { flushEveryMs: 60_000, visitorSalt: "prune-test", now: () => at });
      counter.view(pageId, "198.51.100.30");
      await counter.close();
      const rows = async () => (await database.db.select({ at: bioCountedVisits.countedAt }).from(bioCountedVisits)).filter((row) => row.at.getTime() === at).length;
      expect(await rows()).toBe(1);
      await pruneCountedVisits(database.db, new Date(at + VIEW_DEDUPE_WINDOW_MS - 1));
      expect(await rows()).toBe(1);
      expect(await pruneCountedVisits(database.db, new Date(at + VIEW_DEDUPE_WINDOW_MS + 1))).toBeGreaterThanOrEqual(1);
      expect(await rows()).toBe(0);
    });
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
