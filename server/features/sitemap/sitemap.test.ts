import { desc } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { opportunityPosts } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { buildSitemap } from "./sitemap";

const ORIGIN = "https://sponsorgrid.example";
const PAGES = [{ path: "/" }, { path: "/blog" }, { path: "/app/opportunities" }];
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe.each(ENGINES)("sitemap on %s", (engine) => {
  const database = migratedDatabase(engine);
  let ids: string[];
  beforeAll(async () => {
    await seedDatabase(database.db);
    ids = (await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).orderBy(desc(opportunityPosts.id))).map((r) => r.id);
  });

  it("lists the public pages and every opportunity in one file while they fit", async () => {
    const { kind, xml } = await buildSitemap(database.db, { origin: ORIGIN, pages: PAGES, part: null });
    expect(kind).toBe("SUCCESS");
    expect(xml).toContain("<urlset");
    expect(locs(xml)).toEqual([...PAGES.map((p) => ORIGIN + p.path), ...ids.map((id) => `${ORIGIN}/app/opportunities/${id}`)]);
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
  });

  it("becomes an index of bounded parts when there are more than one file may hold", async () => {
    expect(ids.length).toBeGreaterThan(6);
    const maxUrls = 5; // 3 pages + the 2 newest posts in part 1, then 5 posts a part
    const index = await buildSitemap(database.db, { origin: ORIGIN, pages: PAGES, part: null, maxUrls });
    expect(index.xml).toContain("<sitemapindex");
    const parts = locs(index.xml);
    expect(parts.length).toBe(1 + Math.ceil((ids.length - 2) / maxUrls));

    const seen: string[] = [];
    for (const [i, loc] of parts.entries()) {
      const part = new URL(loc).searchParams.get("part");
      expect(part).toBe(String(i + 1));
      const { kind, xml } = await buildSitemap(database.db, { origin: ORIGIN, pages: PAGES, part, maxUrls });
      expect(kind).toBe("SUCCESS");
      expect(locs(xml).length).toBeLessThanOrEqual(maxUrls);
      seen.push(...locs(xml));
    }
    expect(seen).toEqual([...PAGES.map((p) => ORIGIN + p.path), ...ids.map((id) => `${ORIGIN}/app/opportunities/${id}`)]);

    for (const part of [String(parts.length + 1), "0", "-1", "abc", "1e3"]) {
      expect(await buildSitemap(database.db, { origin: ORIGIN, pages: PAGES, part, maxUrls }), part).toMatchObject({ kind: "ERROR", code: "not-found", xml: expect.stringContaining("<urlset") });
    }
  });
});
