import { publicBioPage } from "#tests/support/public-bio-page";
import { describe, expect, it } from "vitest";
import { presetById } from "#isomorphic/bio-theme";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import type { Db } from "#server/platform/db/client";
import { createRenderedPages, type PageLookup, type RenderedPage } from "./rendered-pages";
import { bioCspFor } from "./style";

const site = { bioOrigin: "http://bio.localhost:3000", publicOrigin: "http://localhost:3000", appName: "Sponsorgrid" };

function page(ending: string, name = "Maya"): PublicBioPage {
  return publicBioPage({ id: `id_${ending}`, uid: "u", customEnding: ending, name, blurb: "x".repeat(2000), takesPayments: false });
}

/** The lookup as a rendered page (the test fails if it is "unavailable" or missing). */
function renderedOf(lookup: PageLookup): RenderedPage {
  if (!lookup || lookup === "unavailable") throw new Error(`expected a rendered page, got ${String(lookup)}`);
  return lookup;
}

/** A store over fake data: `rows` is the database, `generation` the counter writes move. */
function setup(options: { maxBytes?: number; maxAgeMs?: number } = {}) {
  const rows = new Map<string, PublicBioPage>([["maya", page("maya")]]);
  let generation = 1;
  let now = 0;
  const reads: string[] = [];
  const pages = createRenderedPages({
    db: null as unknown as Db,
    generation: { current: () => String(generation) },
    site,
    now: () => now,
    ...options,
    read: async (_db, ending) => {
      reads.push(ending);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return rows.get(ending) ?? null;
    },
  });
  return { pages, rows, reads, bump: () => (generation += 1), tick: (ms: number) => (now += ms) };
}

describe("pages rendered once per version", () => {
  it("reads a page once however many requests wait, then answers from memory", async () => {
    const { pages, reads } = setup();
    const answers = await Promise.all(Array.from({ length: 50 }, () => pages.get("maya")));
    expect(reads).toEqual(["maya"]);
    expect(new Set(answers).size).toBe(1);
    expect(pages.get("maya")).toBe(answers[0]);
    expect(pages.stats()).toMatchObject({ reads: 1, renders: 1 });
  });

  it("after a write, reads again, and renders again only when the page changed", async () => {
    const { pages, rows, bump } = setup();
    const first = await pages.get("maya");
    bump();
    expect(await pages.get("maya")).toBe(first);
    expect(pages.stats()).toMatchObject({ reads: 2, renders: 1 });
    rows.set("maya", page("maya", "Maya Chen"));
    bump();
    const second = renderedOf(await pages.get("maya"));
    expect(second).not.toBe(first);
    expect(second.identity.toString()).toContain("Maya Chen");
    expect(second.etag).not.toBe(renderedOf(first).etag);
    rows.delete("maya");
    bump();
    expect(await pages.get("maya")).toBeNull();
  });

  it("renders again when only the theme changed, and keeps the new page's CSP and share image version with its bytes", async () => {
    const { pages, rows, bump } = setup();
    const first = renderedOf(await pages.get("maya"));
    expect(first.csp).toBe(bioCspFor(first.identity.toString()));
    rows.set("maya", { ...page("maya"), theme: presetById("midnight")!.theme });
    bump();
    const second = renderedOf(await pages.get("maya"));
    expect(second.identity.toString()).toContain("--bg:#0f172a");
    expect(second.csp).toBe(bioCspFor(second.identity.toString()));
    expect(second.csp).not.toBe(first.csp);
    expect(second.shareVersion).not.toBe(first.shareVersion);
  });

  it("answers 'unavailable' while the owner is disabled, with nothing of the page kept, and the page again once enabled", async () => {
    const { pages, rows, bump } = setup();
    const before = renderedOf(await pages.get("maya"));
    rows.set("maya", { ...page("maya"), ownerActive: false });
    bump();
    expect(await pages.get("maya")).toBe("unavailable");
    expect(pages.get("maya")).toBe("unavailable");
    expect(pages.stats().bytes).toBeLessThan(before.identity.length);
    rows.set("maya", page("maya"));
    bump();
    expect(renderedOf(await pages.get("maya")).identity.toString()).toContain("<h1>Maya</h1>");
  });

  it("keeps misses too, reads again after maxAge, and never queries for what cannot be an ending", async () => {
    const { pages, reads, tick } = setup({ maxAgeMs: 1000 });
    expect(await pages.get("nobody")).toBeNull();
    expect(pages.get("nobody")).toBeNull();
    expect(reads).toEqual(["nobody"]);
    tick(1001);
    await pages.get("nobody");
    expect(reads).toEqual(["nobody", "nobody"]);
    expect(pages.get("Not-An-Ending")).toBeNull();
    expect(pages.get("x".repeat(100))).toBeNull();
    expect(reads).toHaveLength(2);
  });

  it("holds at most maxBytes, least recently used out first", async () => {
    // Room for two and a half pages, whatever the page's style weighs today.
    const measure = setup();
    await measure.pages.get("maya");
    const maxBytes = Math.floor(measure.pages.stats().bytes * 2.5);
    const { pages, rows } = setup({ maxBytes });
    for (const ending of ["a", "b", "c", "d"]) rows.set(ending, page(ending));
    await pages.get("a");
    await pages.get("b");
    pages.get("a"); // a is used again: b is now the oldest
    await pages.get("c");
    await pages.get("d");
    expect(pages.stats().bytes).toBeLessThanOrEqual(maxBytes);
    expect(pages.stats().entries).toBe(2);
    const reads = pages.stats().reads;
    pages.get("d");
    expect(pages.stats().reads).toBe(reads);
  });
});

describe("share images in the budget", () => {
  it("counts a page's share image once it is made", async () => {
    const { pages } = setup();
    const rendered = renderedOf(await pages.get("maya"));
    const before = pages.stats().bytes;
    const png = await rendered.shareImage();
    expect(await rendered.shareImage()).toBe(png);
    expect(pages.stats().bytes).toBe(before + png.length);
  });
});
