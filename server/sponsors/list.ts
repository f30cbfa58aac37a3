import { and, asc, desc, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { externalSponsors } from "#server/db/schema";
import { SPONSOR_PAGE_SIZE } from "./links";
import type { DirectoryQuery } from "./query";

/** A company as the list shows it (SPEC blurb). Pro only. */
export type SponsorBlurb = { id: string; name: string; tags: string[]; blurb: string; website: string };

export type SponsorPage<T> = { items: T[]; page: number; hasPrevious: boolean; hasNext: boolean };

const blurbColumns = {
  id: externalSponsors.id,
  name: externalSponsors.name,
  tags: externalSponsors.tags,
  blurb: externalSponsors.blurb,
  website: externalSponsors.website,
};

/** `column @> array[…]`: one GIN index lookup per array, AND of every element. */
function containsAll(column: typeof externalSponsors.tags | typeof externalSponsors.namePrefixes, values: string[]): SQL | undefined {
  return values.length ? sql`${column} @> ${sql.param(values)}::text[]` : undefined;
}

/**
 * One page (1-based) of the list, by name then id: every tag must match, and
 * every search word must start a word of the name. It reads 11 rows to know
 * whether a next page exists and never counts the matches, so a search of a
 * common tag costs the same at 150 companies as at 100,000.
 */
export async function listSponsorBlurbs(db: Db, query: Pick<DirectoryQuery, "tags" | "terms" | "page">): Promise<SponsorPage<SponsorBlurb>> {
  const rows = await db
    .select(blurbColumns)
    .from(externalSponsors)
    .where(and(containsAll(externalSponsors.tags, query.tags), containsAll(externalSponsors.namePrefixes, query.terms)))
    .orderBy(asc(externalSponsors.name), asc(externalSponsors.id))
    .limit(SPONSOR_PAGE_SIZE + 1)
    .offset((query.page - 1) * SPONSOR_PAGE_SIZE);
  return toPage(rows, query.page);
}

/** Recently added (SPEC recents): newest first, 10 a page. Pro only. */
export async function listRecentSponsors(db: Db, page: number): Promise<SponsorPage<SponsorBlurb & { addedAt: string }>> {
  const rows = await db
    .select({ ...blurbColumns, addedAt: externalSponsors.addedAt })
    .from(externalSponsors)
    .orderBy(desc(externalSponsors.addedAt), desc(externalSponsors.id))
    .limit(SPONSOR_PAGE_SIZE + 1)
    .offset((page - 1) * SPONSOR_PAGE_SIZE);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map((row) => ({ ...row, addedAt: row.addedAt.toISOString() })) };
}

function toPage<T>(rows: T[], page: number): SponsorPage<T> {
  return { items: rows.slice(0, SPONSOR_PAGE_SIZE), page, hasPrevious: page > 1, hasNext: rows.length > SPONSOR_PAGE_SIZE };
}
