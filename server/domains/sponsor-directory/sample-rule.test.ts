import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { externalSponsors } from "#server/platform/db/schema";
import { directoryCounts, lockedPreview, monthStartUtc } from "#server/domains/sponsor-directory/evidence";
import { getSponsorDetail } from "#server/domains/sponsor-directory/detail";
import { listRecentSponsors, listSponsorBlurbs } from "#server/domains/sponsor-directory/list";
import { listSponsorPreviews } from "#server/domains/sponsor-directory/previews";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { insertSponsors, sponsorRow } from "#tests/support/sponsor-directory";

const NOW = new Date("2026-11-29T12:00:00Z");
const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();
const everyone = { tags: [], terms: [], page: 1 };

describe.each(ENGINES)("sample companies and the Pro page's evidence (%s)", (engine) => {
  const database = migratedDatabase(engine);

  beforeAll(async () => {
    await insertSponsors(database.db, [
      sponsorRow("sample-old", "Sample Old", { sample: true, inPreviewSample: true, addedAt: new Date("2026-10-31T23:59:59Z") }),
      sponsorRow("sample-new", "Sample New", {
        sample: true,
        inPreviewSample: true,
        addedAt: new Date("2026-11-01T00:00:00Z"),
        details: { sponsors: "Gaming channels.", formats: ["Integrated read", "Affiliate code", "Dedicated video"], apply: "The secret way in is the creator form.", applyUrl: "https://sample-new.example/creators" },
      }),
      sponsorRow("sample-retired", "Sample Retired", { sample: true, addedAt: new Date("2026-11-20T12:00:00Z"), retiredAt: new Date("2026-11-21T12:00:00Z") }),
    ]);
  });

  it("counts from the first of the month, in UTC", () => {
    expect(monthStartUtc(NOW).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(monthStartUtc(new Date("2026-12-01T00:30:00+02:00")).toISOString()).toBe("2026-11-01T00:00:00.000Z");
  });

  it("shows the samples while no real company exists, and counts them as samples", async () => {
    expect(ids((await listSponsorBlurbs(database.db, everyone)).items)).toEqual(["sample-new", "sample-old"]);
    expect(ids((await listRecentSponsors(database.db, 1)).items)).toEqual(["sample-new", "sample-old"]);
    expect(ids(await listSponsorPreviews(database.db))).toEqual(["sample-new", "sample-old"]);
    expect(await getSponsorDetail(database.db, "sample-old")).toMatchObject({ sample: true });
    expect(await directoryCounts(database.db, NOW)).toEqual({ companies: 2, addedThisMonth: 1, samples: true });
  });

  it("previews the newest company with its locked facts named, never their values", async () => {
    const preview = await lockedPreview(database.db);
    expect(preview).toEqual({
      name: "Sample New",
      tags: [],
      preview: "Sample New works with creators.",
      sample: true,
      locked: [
        { label: "About the company", detail: null },
        { label: "Website", detail: null },
        { label: "What they sponsor", detail: null },
        { label: "Formats", detail: "3 deal formats" },
        { label: "How to apply", detail: null },
        { label: "Apply page", detail: null },
      ],
    });
    const said = JSON.stringify(preview);
    for (const secret of ["sponsors creators who make", "sample-new.example", "Gaming channels", "secret way in", "Integrated read"]) expect(said).not.toContain(secret);
  });

  it("hides every sample from every reader's read once a real company exists, and brings them back if it is retired", async () => {
    await insertSponsors(database.db, [sponsorRow("real-co", "Real Co", { addedAt: new Date("2026-11-28T12:00:00Z") })]);
    expect(ids((await listSponsorBlurbs(database.db, everyone)).items)).toEqual(["real-co"]);
    expect(ids((await listRecentSponsors(database.db, 1)).items)).toEqual(["real-co"]);
    expect(await getSponsorDetail(database.db, "sample-old")).toBeNull();
    expect(await getSponsorDetail(database.db, "real-co")).toMatchObject({ sample: false });
    expect(await directoryCounts(database.db, NOW)).toEqual({ companies: 1, addedThisMonth: 1, samples: false });
    // Staff's companies are never in the chosen preview sample: the newest stand in, so non-Pro readers still see some.
    expect(ids(await listSponsorPreviews(database.db))).toEqual(["real-co"]);
    expect(await lockedPreview(database.db)).toMatchObject({ name: "Real Co", sample: false });

    await database.db.update(externalSponsors).set({ retiredAt: NOW }).where(eq(externalSponsors.id, "real-co"));
    expect(ids((await listSponsorBlurbs(database.db, everyone)).items)).toEqual(["sample-new", "sample-old"]);
    expect(await directoryCounts(database.db, NOW)).toEqual({ companies: 2, addedThisMonth: 1, samples: true });
    await database.db.update(externalSponsors).set({ retiredAt: null }).where(eq(externalSponsors.id, "real-co"));
  });

  it("says an empty directory is empty", async () => {
    await database.db.delete(externalSponsors);
    expect(await directoryCounts(database.db, NOW)).toEqual({ companies: 0, addedThisMonth: 0, samples: false });
    expect(await lockedPreview(database.db)).toBeNull();
    expect(await listSponsorPreviews(database.db)).toEqual([]);
  });
});
