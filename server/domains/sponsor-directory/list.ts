import { and, asc, desc, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors } from "#server/platform/db/schema";
import { RECENT_SPONSOR_COUNT, SPONSOR_PAGE_SIZE } from "#isomorphic/sponsor-directory-links";
import type { DirectoryQuery } from "./query";
import { shownInDirectory } from "./shown";

/** A company as the list shows it (SPEC blurb). Pro only. `sample`: an invented company, which the page says once above the list. */
export type SponsorBlurb = { id: string; name: string; tags: string[]; blurb: string; website: string; sample: boolean };

export type SponsorPage<T> = { items: T[]; page: number; hasPrevious: boolean; hasNext: boolean };

const blurbColumns = {
  id: externalSponsors.id,
  name: externalSponsors.name,
  tags: externalSponsors.tags,
  blurb: externalSponsors.blurb,
  website: externalSponsors.website,
  sample: externalSponsors.sample,
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
    .where(and(shownInDirectory(), containsAll(externalSponsors.tags, query.tags), containsAll(externalSponsors.namePrefixes, query.terms)))
    .orderBy(asc(externalSponsors.name), asc(externalSponsors.id))
    .limit(SPONSOR_PAGE_SIZE + 1)
    .offset((query.page - 1) * SPONSOR_PAGE_SIZE);
  return toPage(rows, query.page);
}

/**
 * Recently added (SPEC recents): the RECENT_SPONSOR_COUNT newest companies,
 * by added time then id (newest first), 10 a page, read backwards along
 * external_sponsors_added_idx. No date window: a company added today is first
 * today, and the list never empties because time passed. Retired companies
 * (back office) are left out, and samples once a real company exists (shown.ts). Pro only.
 */
export async function listRecentSponsors(db: Db, page: number): Promise<SponsorPage<SponsorBlurb & { addedAt: string }>> {
  const offset = (page - 1) * SPONSOR_PAGE_SIZE;
  const room = Math.min(SPONSOR_PAGE_SIZE, RECENT_SPONSOR_COUNT - offset);
  if (room <= 0) return { items: [], page, hasPrevious: page > 1, hasNext: false };
  const rows = await db
    .select({ ...blurbColumns, addedAt: externalSponsors.addedAt })
    .from(externalSponsors)
    .where(shownInDirectory())
    .orderBy(desc(externalSponsors.addedAt), desc(externalSponsors.id))
    .limit(room + 1)
    .offset(offset);
  const items = rows.slice(0, room).map((row) => ({ ...row, addedAt: row.addedAt.toISOString() }));
  return { items, page, hasPrevious: page > 1, hasNext: rows.length > room && offset + room < RECENT_SPONSOR_COUNT };
}

function toPage<T>(rows: T[], page: number): SponsorPage<T> {
  return { items: rows.slice(0, SPONSOR_PAGE_SIZE), page, hasPrevious: page > 1, hasNext: rows.length > SPONSOR_PAGE_SIZE };
}
