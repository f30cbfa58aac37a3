import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { seedDatabase } from "#server/tools/seed";
import retiredSponsorIds from "#server/tools/seed/data/retired-sponsor-ids.json" with { type: "json" };
import sponsorTagData from "#server/tools/seed/data/sponsor-tags.json" with { type: "json" };
import sponsorData from "#server/tools/seed/data/sponsors.json" with { type: "json" };
import { upsertSponsorDirectory } from "#server/tools/seed/sponsor-directory";
import { searchTerms } from "#server/domains/sponsor-directory/names";
import { ENGINES, migratedDatabase } from "#tests/support/databases";

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

type Snapshot = { id: string; name: string; blurb: string; tags: string[]; details: unknown; added_at: unknown; name_prefixes: string[] };
const snapshot = (db: Db) =>
  rows<Snapshot>(db, sql`select id, name, blurb, tags, details, added_at, name_prefixes from external_sponsors order by id`);

/** The ids a "Search By Name" query finds, the way the directory asks: every term a stored word prefix. */
async function searchByName(db: Db, query: string): Promise<string[]> {
  const terms = searchTerms(query);
  const found = await rows<{ id: string }>(
    db,
    sql`select id from external_sponsors
        where name_prefixes @> array[${sql.join(terms.map((t) => sql`${t}`), sql`, `)}]::text[] order by name, id`,
  );
  return found.map((r) => r.id);
}

/** A row as the seed before migration 0018 wrote it (no sample flag, no source). */
const legacy = (id: string, name: string) =>
  sql`insert into external_sponsors (id, name, name_array, tags, blurb, preview, website, details, added_at)
      values (${id}, ${name}, array[${name.toLowerCase()}], array['vpn'], 'A company the old seed described without a source.',
              'An old teaser.', ${`https://${id}.test`}, '{"sponsors": "Everyone.", "formats": ["Read"], "apply": "Old text.", "applyUrl": null}'::jsonb, now())`;

describe.each(ENGINES)("sponsor directory loader (%s)", (engine) => {
  const database = migratedDatabase(engine);

  it("fills the directory and its tags with demo data off, and a second run changes nothing", async () => {
    const first = await seedDatabase(database.db, { demo: false });
    expect(first.sponsors).toBe(sponsorData.length);
    const before = await snapshot(database.db);
    const second = await seedDatabase(database.db, { demo: false });
    expect(second.tagsAdded).toBe(0);
    expect(await snapshot(database.db)).toEqual(before);

    const [counts] = await rows<{ sponsors: number; ids: number; tags: number; users: number }>(
      database.db,
      sql`select (select count(*)::int from external_sponsors) as sponsors,
                 (select count(distinct id)::int from external_sponsors) as ids,
                 (select count(*)::int from tags where kind = 'external_sponsor') as tags,
                 (select count(*)::int from "user") as users`,
    );
    expect(counts).toEqual({ sponsors: sponsorData.length, ids: sponsorData.length, tags: sponsorTagData.length, users: 0 });
  });

  it("gives every company only tags of the external_sponsor catalogue", async () => {
    const unknown = await rows<{ tag: string }>(
      database.db,
      sql`select distinct unnest(tags) as tag from external_sponsors
          except select name from tags where kind = 'external_sponsor'`,
    );
    expect(unknown).toEqual([]);
  });

  it("finds companies by the start of any word of their name, in any case", async () => {
    expect(await searchByName(database.db, "vpn")).toEqual(["burrowlight_vpn", "hollowreed_vpn", "quietlane_vpn"]);
    expect(await searchByName(database.db, "BURROW")).toEqual(["burrowlight_vpn"]);
    expect(await searchByName(database.db, "home g")).toEqual(["kettlebolt_home_guard", "kettleflint_home_gym"]);
    expect(await searchByName(database.db, "home gy")).toEqual(["kettleflint_home_gym"]);
    expect(await searchByName(database.db, "urrowlight")).toEqual([]);
    const [vpn] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from external_sponsors where tags @> array['vpn']`);
    expect(vpn!.n).toBe(sponsorData.filter((s) => s.tags.includes("vpn")).length);
  });

  it("updates a company's content when the file changes, and leaves companies taken out of the file", async () => {
    const edited = structuredClone(sponsorData).slice(0, -1);
    const target = edited.find((s) => s.id === "burrowlight_vpn")!;
    target.name = "Burrow Light VPN";
    target.blurb = `${target.blurb} Edited for the test.`;
    target.tags = ["vpn", "travel"];
    target.added = "2026-11-01";
    target.details.applyUrl = null;
    const result = await upsertSponsorDirectory(database.db, { entries: edited, tagList: sponsorTagData });
    expect(result).toEqual({ tagsAdded: 0, sponsors: edited.length, retired: 0 });

    const [row] = await rows<Snapshot & { name_array: string[]; website: string }>(
      database.db,
      sql`select * from external_sponsors where id = 'burrowlight_vpn'`,
    );
    expect(row).toMatchObject({ name: "Burrow Light VPN", name_array: ["burrow", "light", "vpn"], tags: ["vpn", "travel"], blurb: target.blurb });
    expect((row!.details as { applyUrl: string | null }).applyUrl).toBeNull();
    expect(new Date(row!.added_at as string).toISOString()).toBe("2026-11-01T12:00:00.000Z");
    expect(await searchByName(database.db, "light")).toContain("burrowlight_vpn");

    const [dropped] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from external_sponsors where id = ${sponsorData.at(-1)!.id}`,
    );
    expect(dropped!.n).toBe(1);
    const [total] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from external_sponsors`);
    expect(total!.n).toBe(sponsorData.length);

    // Restoring the file restores the row.
    await seedDatabase(database.db, { demo: false });
    const [restored] = await rows<{ name: string }>(database.db, sql`select name from external_sponsors where id = 'burrowlight_vpn'`);
    expect(restored!.name).toBe("Burrowlight VPN");
  });

  it("removes the retired real companies an older seed wrote, and nothing else", async () => {
    // An install upgraded from before migration 0018 still holds the unsourced real companies, and may hold rows added by hand.
    await database.db.execute(legacy("nordvpn", "NordVPN"));
    await database.db.execute(legacy("hellofresh", "HelloFresh"));
    await database.db.execute(legacy("hand_added", "Hand Added"));

    const result = await upsertSponsorDirectory(database.db, { entries: sponsorData, tagList: sponsorTagData, retiredIds: retiredSponsorIds });
    expect(result.retired).toBe(2);
    const ids = await rows<{ id: string }>(database.db, sql`select id from external_sponsors where id in ('nordvpn', 'hellofresh', 'hand_added')`);
    expect(ids.map((r) => r.id)).toEqual(["hand_added"]);
    expect((await upsertSponsorDirectory(database.db, { entries: sponsorData, tagList: sponsorTagData, retiredIds: retiredSponsorIds })).retired).toBe(0);

    // A retired id the file lists again (an operator's sourced entry) is kept.
    const base = structuredClone(sponsorData[0]!);
    const details = { ...base.details, apply: "Through the form its own public page describes, as the source shows." };
    const sourced = { ...base, id: "nordvpn", name: "Sourced Company", details, sample: undefined, source: "https://press.test/facts" };
    await upsertSponsorDirectory(database.db, { entries: [...sponsorData, sourced], tagList: sponsorTagData, retiredIds: retiredSponsorIds });
    const [kept] = await rows<{ name: string; sample: boolean }>(database.db, sql`select name, sample from external_sponsors where id = 'nordvpn'`);
    expect(kept).toEqual({ name: "Sourced Company", sample: false });
    await database.db.execute(sql`delete from external_sponsors where id in ('nordvpn', 'hand_added')`);
  });

  it("retires every company the seed carried before migration 0018, and the file lists none of them", async () => {
    expect(retiredSponsorIds).toHaveLength(191);
    const listed = new Set(sponsorData.map((s) => s.id));
    expect(retiredSponsorIds.filter((id) => listed.has(id))).toEqual([]);
    await database.db.execute(legacy(retiredSponsorIds.at(-1)!, "Last Retired"));
    expect((await seedDatabase(database.db, { demo: false })).sponsorsRetired).toBe(1);
    const [left] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from external_sponsors where sample = false`);
    expect(left!.n).toBe(0);
  });

  it("refuses a bad file before writing anything", async () => {
    const before = await snapshot(database.db);
    const broken = structuredClone(sponsorData);
    broken[0]!.name = "Changed";
    broken[5]!.tags = ["not a listed tag", "vpn"];
    await expect(upsertSponsorDirectory(database.db, { entries: broken, tagList: sponsorTagData })).rejects.toThrow(
      /entry 6 .*tag "not a listed tag" is not in the sponsor tag list/,
    );
    expect(await snapshot(database.db)).toEqual(before);
  });
});
