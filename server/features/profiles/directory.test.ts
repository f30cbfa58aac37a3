import { beforeAll, describe, expect, it } from "vitest";
import { bioPages, connectedAccounts, profiles, user } from "#server/platform/db/schema";
import { listProfiles, parseProfilesQuery, PROFILES_PAGE_SIZE } from "#server/features/profiles/directory";
import { ENGINES, migratedDatabase } from "#tests/support/databases";

describe.each(ENGINES)("profiles directory (%s)", (engine) => {
  const database = migratedDatabase(engine);

  beforeAll(async () => {
    const owners = ["ana", "ben", "cy"];
    await database.db.insert(user).values(owners.map((id) => ({ id, name: id, email: `${id}@profiles.example`, emailVerified: true })));
    await database.db.insert(profiles).values([
      { uid: "ana", name: "Ana Rivers" },
      { uid: "ben", name: "Ben 100%_Real" },
      { uid: "cy", name: "" },
    ]);
    await database.db.insert(connectedAccounts).values({ uid: "ana", stateToken: "state-ana", completed: true });
    const page = (i: number, uid: string, name: string, extra: Partial<typeof bioPages.$inferInsert> = {}) => ({
      id: `page-${i}`, uid, customEnding: `ending_${String(i).padStart(2, "0")}`, name, ...extra,
    });
    await database.db.insert(bioPages).values([
      page(1, "ana", "zebra Tunes", { blurb: "Music every week.", links: [{ type: "youtube", url: "https://youtube.com/@a" }, { type: "website", url: "javascript:alert(1)" as string }] }),
      page(2, "ben", "Apple Talk"),
      page(3, "cy", "apple pie cooking"),
      ...Array.from({ length: 12 }, (_, i) => page(10 + i, "cy", `Middle ${String(i).padStart(2, "0")}`)),
    ]);
  });

  it("lists every page by name, case-insensitively, 12 a page, without a count", async () => {
    const one = await listProfiles(database.db, "", 1);
    expect(one.items).toHaveLength(PROFILES_PAGE_SIZE);
    expect(one.items.slice(0, 3).map((p) => p.name)).toEqual(["Apple Talk", "apple pie cooking", "Middle 00"].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(one).toMatchObject({ hasNext: true, hasPrevious: false });
    const two = await listProfiles(database.db, "", 2);
    expect(two.items.map((p) => p.name)).toEqual(["Middle 10", "Middle 11", "zebra Tunes"]);
    expect(two).toMatchObject({ hasNext: false, hasPrevious: true });
  });

  it("shows the owner's name, safe link labels and whether they take sponsorships", async () => {
    const [zebra] = (await listProfiles(database.db, "zebra", 1)).items;
    expect(zebra).toEqual({ customEnding: "ending_01", name: "zebra Tunes", ownerName: "Ana Rivers", blurb: "Music every week.", linkLabels: ["YouTube"], acceptsSponsorships: true, photoId: null });
    const [apple] = (await listProfiles(database.db, "apple talk", 1)).items;
    expect(apple).toMatchObject({ ownerName: "Ben 100%_Real", acceptsSponsorships: false });
  });

  it("searches page name or profile name, with % and _ taken literally", async () => {
    const names = async (q: string) => (await listProfiles(database.db, q, 1)).items.map((p) => p.name);
    expect(await names("APPLE")).toHaveLength(2);
    expect(await names("rivers")).toEqual(["zebra Tunes"]);
    expect(await names("100%_")).toEqual(["Apple Talk"]);
    expect(await names("%")).toEqual(["Apple Talk"]);
    expect(await names("_")).toEqual(["Apple Talk"]);
    expect(await names("nobody")).toEqual([]);
  });

  it("reads name and page from the address, falling back to page 1", () => {
    expect(parseProfilesQuery(new URLSearchParams("name=+Ana+&page=2"))).toEqual({ query: "Ana", page: 2 });
    for (const page of ["0", "x", "501", "-3"]) expect(parseProfilesQuery(new URLSearchParams({ page })).page).toBe(1);
  });
});
