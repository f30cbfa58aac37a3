import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { opportunityPosts, tags, totals } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { sharedGenerationSource, type GenerationSource } from "#server/platform/page-cache/generation";
import { toggleHeart } from "./hearts";
import { listOpportunities } from "./list";
import { PAGE_SIZE } from "./list-query";
import { cachedTagCatalogue, loadTagCatalogue } from "./tags";

const firstPage = { tags: [], after: null, before: null, page: 0 };

// The signed-in list reads its hearts and total in the page's one query and
// its tag catalogue from memory; neither may show anyone a stale or another person's heart.
describe.each(ENGINES)("the signed-in list's data on %s", (engine) => {
  const database = migratedDatabase(engine);

  beforeAll(async () => {
    await seedDatabase(database.db);
  });

  it("shows a heart to its giver on the very next read, and never to anyone else", async () => {
    const before = await listOpportunities(database.db, firstPage, "demo-sponsor2");
    const post = before.items[3]!;
    expect(post.liked).toBe(false);

    expect(await toggleHeart(database.db, post.id, "demo-sponsor2")).toMatchObject({ result: "added" });
    const giver = await listOpportunities(database.db, firstPage, "demo-sponsor2");
    const other = await listOpportunities(database.db, firstPage, "demo-sponsor");
    const guest = await listOpportunities(database.db, firstPage, null);
    expect(giver.items.find((item) => item.id === post.id)).toMatchObject({ liked: true, totalHearts: post.totalHearts + 1 });
    expect(other.items.find((item) => item.id === post.id)).toMatchObject({ liked: false, totalHearts: post.totalHearts + 1 });
    expect(guest.items.every((item) => !item.liked)).toBe(true);
    // Only the one heart is the giver's.
    expect(giver.items.filter((item) => item.liked && !before.items.find((b) => b.id === item.id)?.liked).map((item) => item.id)).toEqual([post.id]);

    expect(await toggleHeart(database.db, post.id, "demo-sponsor2")).toMatchObject({ result: "removed" });
    const after = await listOpportunities(database.db, firstPage, "demo-sponsor2");
    expect(after.items.find((item) => item.id === post.id)).toMatchObject({ liked: false, totalHearts: post.totalHearts });
  });

  it("reads the posts total with the page, and still has it for an empty page", async () => {
    const [counter] = await database.db.select({ total: totals.total }).from(totals).where(eq(totals.name, "opportunity posts"));
    const page = await listOpportunities(database.db, firstPage, "demo-creator");
    expect(page.items).toHaveLength(PAGE_SIZE);
    expect(page.total).toBe(counter!.total);
    const last = await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).orderBy(opportunityPosts.id);
    const empty = await listOpportunities(database.db, { ...firstPage, after: last[last.length - 1]!.id, page: 9 }, "demo-creator");
    expect(empty).toMatchObject({ items: [], message: "NO_RESULTS_FOUND", total: counter!.total });
  });

  describe("the tag catalogue kept in memory", () => {
    /** Counts the catalogue's reads by counting generation reads that found a new generation. */
    function countingGeneration(source: GenerationSource) {
      const seen: string[] = [];
      return {
        seen,
        source: {
          async current() {
            const value = await source.current();
            seen.push(value);
            return value;
          },
        },
      };
    }

    it("is read once per generation, and a tag added with the generation moved appears on the next request", async () => {
      // The sequence the trigger moves, read as the PostgreSQL processes read it (PGlite answers the same query).
      const { source } = countingGeneration(sharedGenerationSource(database.db));
      const read = cachedTagCatalogue(database.db, source);
      const first = await read();
      expect(first).toEqual(await loadTagCatalogue(database.db));
      // Same generation: the same object, no new read.
      expect(await read()).toBe(first);

      // The tags table's trigger moves the generation, as when a new start's seed adds tags.
      await database.db.insert(tags).values({ kind: "other", name: "speed test tag" });
      const next = await read();
      expect(next).not.toBe(first);
      expect(next.other).toContain("speed test tag");
      await database.db.delete(tags).where(inArray(tags.name, ["speed test tag"]));
      expect((await read()).other).not.toContain("speed test tag");
    });

    it("does not keep a failed read", async () => {
      let fail = true;
      const db = new Proxy(database.db, {
        get(target, property, receiver) {
          if (property === "select" && fail) return () => ({ from: () => ({ where: () => ({ orderBy: () => Promise.reject(new Error("down")) }) }) });
          return Reflect.get(target, property, receiver);
        },
      });
      const read = cachedTagCatalogue(db, { current: () => "1" });
      await expect(read()).rejects.toThrow("down");
      fail = false;
      expect((await read()).other.length).toBeGreaterThan(0);
    });
  });
});

// Several app processes on one PostgreSQL: the catalogue follows the shared generation.
describe.each(ENGINES.filter((engine) => engine === "postgres"))("the tag catalogue kept in memory on %s", () => {
  const database = migratedDatabase("postgres");

  beforeAll(async () => {
    await seedDatabase(database.db);
  });

  it("on PostgreSQL, sees a change another process made (the shared generation)", async () => {
    const read = cachedTagCatalogue(database.db, sharedGenerationSource(database.db));
    const first = await read();
    // Another process's write: its trigger moves the shared sequence.
    await database.db.execute(sql`insert into tags (kind, name) values ('other', 'other process tag')`);
    expect((await read()).other).toContain("other process tag");
    expect(first.other).not.toContain("other process tag");
  });
});
