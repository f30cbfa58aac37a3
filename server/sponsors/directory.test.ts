import { eq } from "drizzle-orm";
import { describe, expect, it, beforeAll } from "vitest";
import { logs, proMemberships, user } from "#server/db/schema";
import { closeSearchLog } from "#server/search-log/search-log";
import { directoryAccess } from "#server/sponsors/access";
import { getSponsorDetail } from "#server/sponsors/detail";
import { listRecentSponsors, listSponsorBlurbs } from "#server/sponsors/list";
import { listSponsorPreviews } from "#server/sponsors/previews";
import { parseDirectoryQuery } from "#server/sponsors/query";
import { logSponsorSearch } from "#server/sponsors/search-log";
import { listSponsorTags } from "#server/sponsors/tags";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { insertSponsors, insertSponsorTags, sponsorRow } from "#tests/support/sponsors";

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
      sponsorRow("hello-fresh", "HelloFresh", { tags: ["food"], inPreviewSample: true, addedAt: day(40) }),
      sponsorRow("hello-world", "Hello World Audio", { tags: ["audio", "tech"], inPreviewSample: true, addedAt: day(41) }),
      sponsorRow("nordvpn", "NordVPN", { tags: ["tech"], addedAt: day(42), details: { sponsors: "Tech.", formats: ["Affiliate code"], apply: "Their partner page.", applyUrl: "https://nordvpn.example/partners" } }),
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
    expect(Object.keys(one.items[0]!).sort()).toEqual(["blurb", "id", "name", "tags", "website"]);
    const three = await listSponsorBlurbs(database.db, { tags: [], terms: [], page: 3 });
    expect(names(three)).toEqual(["Acme 21", "Acme 22", "Acme 23", "HelloFresh", "Hello World Audio", "NordVPN", "Twin", "Twin"].sort(byDbOrder(three)));
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
    expect(names(await listSponsorBlurbs(database.db, { tags: ["audio", "tech"], terms: [], page: 1 }))).toEqual(["Hello World Audio"]);
    expect(names(await listSponsorBlurbs(database.db, { tags: ["audio", "food"], terms: [], page: 1 }))).toEqual([]);
  });

  it("finds names by the start of any word, in any case, and combines name with tags", async () => {
    const search = (name: string, tags: string[] = []) =>
      listSponsorBlurbs(database.db, { tags, terms: parseDirectoryQuery(new URLSearchParams({ name }), KNOWN).query.terms, page: 1 }).then(names);
    expect(await search("hel")).toEqual(["HelloFresh", "Hello World Audio"].sort(collator));
    expect(await search("WORLD")).toEqual(["Hello World Audio"]);
    expect(await search("hello au")).toEqual(["Hello World Audio"]);
    expect(await search("orld")).toEqual([]);
    expect(await search("nord")).toEqual(["NordVPN"]);
    expect(await search("hello", ["food"])).toEqual(["HelloFresh"]);
    expect(await search("acme 2", ["gaming"])).toEqual(["Acme 21", "Acme 23"]);
  });

  it("lists recently added companies newest first, 10 a page", async () => {
    const one = await listRecentSponsors(database.db, 1);
    expect(one.items.map((item) => item.id).slice(0, 5)).toEqual(["b-twin", "a-twin", "nordvpn", "hello-world", "hello-fresh"]);
    expect(one.items).toHaveLength(10);
    expect(one.hasNext).toBe(true);
    const three = await listRecentSponsors(database.db, 3);
    expect(three.items.map((item) => item.id)).toEqual(["acme-08", "acme-07", "acme-06", "acme-05", "acme-04", "acme-03", "acme-02", "acme-01"]);
    expect(three.hasNext).toBe(false);
  });

  it("shows the preview sample by name, without blurbs or websites", async () => {
    const previews = await listSponsorPreviews(database.db);
    expect(previews.map((p) => p.id).sort()).toEqual(["hello-fresh", "hello-world"]);
    expect(Object.keys(previews[0]!).sort()).toEqual(["id", "name", "preview", "tags"]);
  });

  it("reads one company's detail, and null for unknown or impossible ids", async () => {
    const nord = await getSponsorDetail(database.db, "nordvpn");
    expect(nord).toMatchObject({ name: "NordVPN", website: "https://nordvpn.example", details: { applyUrl: "https://nordvpn.example/partners", formats: ["Affiliate code"] } });
    expect(await getSponsorDetail(database.db, "nobody")).toBeNull();
    expect(await getSponsorDetail(database.db, "../etc' or 1=1")).toBeNull();
  });

  it("lists the sponsor tags by name", async () => {
    expect(await listSponsorTags(database.db)).toEqual(["audio", "food", "gaming", "tech"]);
  });

  it("logs tag and name searches through the batched search log", async () => {
    await database.db.insert(user).values({ id: "searcher", name: "S", email: "searcher@dir.example", emailVerified: true });
    logSponsorSearch(database.db, "searcher", { tags: ["tech", "gaming"], name: "Hello" });
    logSponsorSearch(database.db, "searcher", { tags: [], name: "" });
    await closeSearchLog(database.db);
    const rows = await database.db.select({ subtype: logs.subtype, description: logs.description, collection: logs.collection }).from(logs).where(eq(logs.uid, "searcher"));
    expect(rows.map((row) => row.subtype).sort()).toEqual(["name_hello", "tag_gaming", "tag_tech"]);
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

describe("parseDirectoryQuery", () => {
  const parse = (query: string) => parseDirectoryQuery(new URLSearchParams(query), KNOWN);
  it("reads tags, name and a 1-based page", () => {
    expect(parse("tags[]=Tech&tags[]=gaming&tags[]=tech&name=+Hello+Fresh+&page=3")).toEqual({
      query: { tags: ["tech", "gaming"], name: "Hello Fresh", terms: ["hello", "fresh"], page: 3 },
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
