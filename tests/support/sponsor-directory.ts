import type { Db } from "#server/platform/db/client";
import { externalSponsors, tags } from "#server/platform/db/schema";
import { namePrefixes, nameWords } from "#server/domains/sponsor-directory/names";

export type SponsorRow = typeof externalSponsors.$inferInsert;

/**
 * A directory company for tests: the name's search columns are filled the way
 * the catalogue loader fills them (names.ts), everything else has a default.
 */
export function sponsorRow(id: string, name: string, overrides: Partial<SponsorRow> = {}): SponsorRow {
  const words = nameWords(name);
  return {
    id,
    name,
    nameArray: words,
    namePrefixes: namePrefixes(words),
    tags: [],
    blurb: `${name} sponsors creators who make things people love.`,
    preview: `${name} works with creators.`,
    inPreviewSample: false,
    website: `https://${id}.example`,
    details: { sponsors: "Tech and lifestyle channels.", formats: ["Integrated video read"], apply: "Apply through their creator program.", applyUrl: null },
    addedAt: new Date("2026-01-01T00:00:00Z"),
    ...overrides,
  };
}

export async function insertSponsors(db: Db, rows: SponsorRow[]): Promise<void> {
  if (rows.length) await db.insert(externalSponsors).values(rows);
}

export async function insertSponsorTags(db: Db, names: string[]): Promise<void> {
  if (names.length) await db.insert(tags).values(names.map((name) => ({ kind: "external_sponsor" as const, name }))).onConflictDoNothing();
}
