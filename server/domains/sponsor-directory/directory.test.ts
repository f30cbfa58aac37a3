import { eq } from "drizzle-orm";
import { describe, expect, it, beforeAll } from "vitest";
import sponsorTagData from "#server/tools/seed/data/sponsor-tags.json" with { type: "json" };
import sponsorData from "#server/tools/seed/data/sponsors.json" with { type: "json" };
import { upsertSponsorDirectory } from "#server/tools/seed/sponsor-directory";
import { externalSponsors, logs, proMemberships, user } from "#server/platform/db/schema";
import { createSearchLog } from "#server/platform/search-log/search-log";
import { directoryAccess } from "#server/domains/sponsor-directory/access";
import { sponsorCatalogue } from "#server/domains/sponsor-directory/catalogue";
import { getSponsorDetail } from "#server/domains/sponsor-directory/detail";
import { RECENT_SPONSOR_COUNT } from "#isomorphic/sponsor-directory-links";
import { listRecentSponsors, listSponsorBlurbs } from "#server/domains/sponsor-directory/list";
import { listSponsorPreviews } from "#server/domains/sponsor-directory/previews";
import { parseDirectoryQuery } from "#server/domains/sponsor-directory/query";
import { logSponsorSearch } from "#server/domains/sponsor-directory/search-log";
import { listSponsorTags } from "#server/domains/sponsor-directory/tags";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { insertSponsors, insertSponsorTags, sponsorRow } from "#tests/support/sponsor-directory";

const KNOWN = new Set(["tech", "gaming", "food", "audio"]);
const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);

describe.each(ENGINES)("sponsor directory (%s)", (engine) => {
  const database = migratedDatabase(engine);

  beforeAll(async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));
    // 23 "Acme nn" companies (tech; even ones also gaming), and a few named ones.
    const acme = Array.from({ length: 23 }, (_, i) => {
      const n = String(i + 1).padStart(2, "0");
      return sponsorRow(`acme-${n}`, `Acme ${n}`, { tags: i % 2 === 0 ? ["tech", "gaming"] : ["tech"], addedAt: day(i) });
    });
    await insertSponsors(database.db, [
      ...acme,
      sponsorRow("skillet-fern", "SkilletFern", { tags: ["food"], inPreviewSample: true, addedAt: day(40) }),
      sponsorRow("skillet-world", "Skillet World Audio", { tags: ["audio", "tech"], inPreviewSample: true, addedAt: day(41) }),
      sponsorRow("tunnelvpn", "TunnelVPN", { tags: ["tech"], addedAt: day(42), details: { sponsors: "Tech.", formats: ["Affiliate code"], apply: "Their partner page.", applyUrl: "https://tunnelvpn.example/partners" } }),
      // Same name as another: id breaks the tie.
      sponsorRow("b-twin", "Twin", { addedAt: day(43) }),
      sponsorRow("a-twin", "Twin", { addedAt: day(43) }),
    ]);
    await insertSponsorTags(database.db, ["tech", "gaming", "food", "audio"]);
  });

  it("lists blurbs by name, then id, 10 a page, and says whether more follow", async () => {
    const one = await listSponsorBlurbs(database.db, { tags: [], terms: [], page: 1 });
    expect(names(one)).toEqual(["Acme 01", "Acme 02", "Acme 03", "Acme 04", "Acme 05", "Acme 06", "Acme 07", "Acme 08", "Acme 09", "Acme 10"]);
    expect(one).toMatchObject({ page: 1, hasPrevious: false, hasNext: true });
    expect(Object.keys(one.items[0]!).sort()).toEqual(["blurb", "id", "name", "sample", "tags", "website"]);
    const three = await listSponsorBlurbs(database.db, { tags: [], terms: [], page: 3 });
    expect(names(three)).toEqual(["Acme 21", "Acme 22", "Acme 23", "SkilletFern", "Skillet World Audio", "TunnelVPN", "Twin", "Twin"].sort(byDbOrder(three)));
    expect(three.items.slice(-2).map((item) => item.id)).toEqual(["a-twin", "b-twin"]);
    expect(three).toMatchObject({ hasPrevious: true, hasNext: false });
    const beyond = await listSponsorBlurbs(database.db, { tags: [], terms: [], page: 9 });
    expect(beyond).toMatchObject({ items: [], hasNext: false, hasPrevious: true });
  });

  it("keeps only companies with every tag asked for", async () => {
    const gaming = await listSponsorBlurbs(database.db, { tags: ["tech", "gaming"], terms: [], page: 1 });
    expect(names(gaming)).toEqual(["Acme 01", "Acme 03", "Acme 05", "Acme 07", "Acme 09", "Acme 11", "Acme 13", "Acme 15", "Acme 17", "Acme 19"]);
    expect(gaming.hasNext).toBe(true);
    const second = await listSponsorBlurbs(database.db, { tags: ["gaming", "tech"], terms: [], page: 2 });
    expect(names(second)).toEqual(["Acme 21", "Acme 23"]);
    expect(second.hasNext).toBe(false);
    expect(names(await listSponsorBlurbs(database.db, { tags: ["audio", "tech"], terms: [], page: 1 }))).toEqual(["Skillet World Audio"]);
    expect(names(await listSponsorBlurbs(database.db, { tags: ["audio", "food"], terms: [], page: 1 }))).toEqual([]);
  });

  it("finds names by the start of any word, in any case, and combines name with tags", async () => {
    const search = (name: string, tags: string[] = []) =>
      listSponsorBlurbs(database.db, { tags, terms: parseDirectoryQuery(new URLSearchParams({ name }), KNOWN).query.terms, page: 1 }).then(names);
    expect(await search("ski")).toEqual(["SkilletFern", "Skillet World Audio"].sort(collator));
    expect(await search("WORLD")).toEqual(["Skillet World Audio"]);
    expect(await search("skillet au")).toEqual(["Skillet World Audio"]);
    expect(await search("orld")).toEqual([]);
    expect(await search("tunn")).toEqual(["TunnelVPN"]);
    expect(await search("skillet", ["food"])).toEqual(["SkilletFern"]);
    expect(await search("acme 2", ["gaming"])).toEqual(["Acme 21", "Acme 23"]);
  });

  it("lists recently added companies newest first, 10 a page", async () => {
    const one = await listRecentSponsors(database.db, 1);
    expect(one.items.map((item) => item.id).slice(0, 5)).toEqual(["b-twin", "a-twin", "tunnelvpn", "skillet-world", "skillet-fern"]);
    expect(one.items).toHaveLength(10);
    expect(one.hasNext).toBe(true);
    const three = await listRecentSponsors(database.db, 3);
    expect(three.items.map((item) => item.id)).toEqual(["acme-08", "acme-07", "acme-06", "acme-05", "acme-04", "acme-03", "acme-02", "acme-01"]);
    expect(three.hasNext).toBe(false);
  });

  it("shows the preview sample by name, without blurbs or websites", async () => {
    const previews = await listSponsorPreviews(database.db);
    expect(previews.map((p) => p.id).sort()).toEqual(["skillet-fern", "skillet-world"]);
    expect(Object.keys(previews[0]!).sort()).toEqual(["id", "name", "preview", "sample", "tags"]);
  });

  it("reads one company's detail, and null for unknown or impossible ids", async () => {
    const tunnel = await getSponsorDetail(database.db, "tunnelvpn");
    expect(tunnel).toMatchObject({ name: "TunnelVPN", website: "https://tunnelvpn.example", details: { applyUrl: "https://tunnelvpn.example/partners", formats: ["Affiliate code"] } });
    expect(await getSponsorDetail(database.db, "nobody")).toBeNull();
    expect(await getSponsorDetail(database.db, "../etc' or 1=1")).toBeNull();
  });

  it("lists the sponsor tags by name", async () => {
    expect(await listSponsorTags(database.db)).toEqual(["audio", "food", "gaming", "tech"]);
  });

  it("logs tag and name searches through the batched search log", async () => {
    await database.db.insert(user).values({ id: "searcher", name: "S", email: "searcher@dir.example", emailVerified: true });
    const searchLog = createSearchLog(database.db);
    logSponsorSearch(searchLog, "searcher", { tags: ["tech", "gaming"], name: "Skillet" });
    logSponsorSearch(searchLog, "searcher", { tags: [], name: "" });
    await searchLog.close();
    const rows = await database.db.select({ subtype: logs.subtype, description: logs.description, collection: logs.collection }).from(logs).where(eq(logs.uid, "searcher"));
    expect(rows.map((row) => row.subtype).sort()).toEqual(["name_skillet", "tag_gaming", "tag_tech"]);
    expect(rows.every((row) => row.description === "search" && row.collection === "external_sponsor_blurbs")).toBe(true);
  });

  it("decides who sees what: guest, unverified, preview, pro", async () => {
    await database.db.insert(user).values([
      { id: "plain", name: "P", email: "plain@dir.example", emailVerified: true },
      { id: "paid", name: "Q", email: "paid@dir.example", emailVerified: true },
      { id: "lapsed", name: "L", email: "lapsed@dir.example", emailVerified: true },
    ]);
    await database.db.insert(proMemberships).values([
      { uid: "paid", plan: "limitless", status: "active" },
      { uid: "lapsed", plan: "launchpad", status: "active", currentPeriodEnd: new Date("2020-01-01T00:00:00Z") },
    ]);
    const person = (id: string, emailVerified = true) => ({ id, email: `${id}@dir.example`, name: id, emailVerified, image: null });
    expect(await directoryAccess(database.db, null)).toBe("guest");
    expect(await directoryAccess(database.db, person("paid", false))).toBe("unverified");
    expect(await directoryAccess(database.db, person("plain"))).toBe("preview");
    expect(await directoryAccess(database.db, person("lapsed"))).toBe("preview");
    expect(await directoryAccess(database.db, person("paid"))).toBe("pro");
  });
});

describe.each(ENGINES)("Recently Added over the seeded catalogue (%s)", (engine) => {
  const database = migratedDatabase(engine);
  const now = new Date("2026-11-25T09:00:00Z");

  it("shows a company added after the seed first, and only the newest companies", async () => {
    await upsertSponsorDirectory(database.db);
    const newest = [...sponsorData].sort((a, b) => b.added.localeCompare(a.added) || b.id.localeCompare(a.id));
    expect((await listRecentSponsors(database.db, 1)).items[0]!.id).toBe(newest[0]!.id);

    // An operator adds a company today, well after every seeded date.
    const base = structuredClone(sponsorData[0]!);
    const added = {
      ...base,
      id: "fresh_sample_co",
      name: "Fresh Sample Co",
      added: "2026-11-25",
      details: { ...base.details, apply: "Through the form on its own site, which it opened today." },
    };
    const { rows } = sponsorCatalogue([...sponsorData, added], sponsorTagData, now);
    await database.db.insert(externalSponsors).values(rows.at(-1)!);

    const one = await listRecentSponsors(database.db, 1);
    expect(one.items.map((item) => item.id).slice(0, 3)).toEqual(["fresh_sample_co", newest[0]!.id, newest[1]!.id]);
    expect(one.items[0]).toMatchObject({ name: "Fresh Sample Co", sample: true, addedAt: "2026-11-25T12:00:00.000Z" });

    // The newest RECENT_SPONSOR_COUNT (30) of 151 companies: three full pages, then nothing.
    const pages = await Promise.all([1, 2, 3, 4].map((page) => listRecentSponsors(database.db, page)));
    expect(pages.map((page) => page.items.length)).toEqual([10, 10, 10, 0]);
    expect(pages.map((page) => page.hasNext)).toEqual([true, true, false, false]);
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(["fresh_sample_co", ...newest.slice(0, RECENT_SPONSOR_COUNT - 1).map((s) => s.id)]);
  });
});

describe("parseDirectoryQuery", () => {
  const parse = (query: string) => parseDirectoryQuery(new URLSearchParams(query), KNOWN);
  it("reads tags, name and a 1-based page", () => {
    expect(parse("tags[]=Tech&tags[]=gaming&tags[]=tech&name=+Skillet+Fern+&page=3")).toEqual({
      query: { tags: ["tech", "gaming"], name: "Skillet Fern", terms: ["skillet", "fern"], page: 3 },
      error: null,
    });
    expect(parse("").query).toEqual({ tags: [], name: "", terms: [], page: 1 });
  });
  it("drops what it cannot use and says why", () => {
    expect(parse("tags[]=nope&tags[]=tech")).toMatchObject({ query: { tags: ["tech"] }, error: "Unknown tag: “nope”." });
    for (const page of ["0", "-1", "abc", "501", "1e3"]) {
      expect(parse(`page=${page}`)).toMatchObject({ query: { page: 1 }, error: "That page link is not valid. Here is the first page." });
    }
    const seven = new Set(["a", "b", "c", "d", "e", "f", "g"]);
    const many = parseDirectoryQuery(new URLSearchParams([...seven].map((t) => ["tags[]", t])), seven);
    expect(many.query.tags).toHaveLength(6);
    expect(many.error).toMatch(/at most 6 tags/);
  });
});

// The database's collation orders names; compare with its own order rather than guess it.
function byDbOrder(page: { items: { name: string }[] }) {
  const order = page.items.map((item) => item.name);
  return (a: string, b: string) => order.indexOf(a) - order.indexOf(b);
}
const collator = (a: string, b: string) => a.localeCompare(b);
