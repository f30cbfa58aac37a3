import { inArray, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors, tags } from "#server/platform/db/schema";
import { sponsorCatalogue } from "#server/domains/sponsor-directory/catalogue";
import retiredSponsorIds from "#server/tools/seed/data/retired-sponsor-ids.json" with { type: "json" };
import sponsorTagData from "#server/tools/seed/data/sponsor-tags.json" with { type: "json" };
import sponsorData from "#server/tools/seed/data/sponsors.json" with { type: "json" };

/**
 * Upserts the curated sponsor directory on every start. It is product
 * content, not demo data, so it goes in with demo data off too; editing
 * sponsors.json and restarting updates the rows in place.
 *
 * Companies (and tags) no longer in the files are left in the database:
 * Pro members may have a company's page open or bookmarked, and a hand edit
 * that drops an entry by mistake should not silently empty the directory.
 * Staff curate companies in the back office (ADR 0055): a row they changed (staff_edited_at) is
 * theirs and never overwritten here, and they retire rather than delete.
 * Removing a company is a deliberate act: delete its row
 * (`delete from external_sponsors where id = '…'`) when taking it out of the file,
 * or list its id in `retired-sponsor-ids.json`.
 *
 * Retired ids are the one exception, deleted on every start unless the file
 * lists them again: the 191 real companies the seed carried until migration 0018,
 * whose facts had no source (ADR 0022). Only those exact ids go, so companies
 * an operator or a test added by hand are never touched.
 */
export async function upsertSponsorDirectory(
  db: Db,
  data: { entries: unknown; tagList: unknown; retiredIds?: string[] } = { entries: sponsorData, tagList: sponsorTagData, retiredIds: retiredSponsorIds },
): Promise<{ tagsAdded: number; sponsors: number; retired: number }> {
  const { tags: tagNames, rows } = sponsorCatalogue(data.entries, data.tagList);
  const listed = new Set(rows.map((row) => row.id));
  const retiredIds = (data.retiredIds ?? []).filter((id) => !listed.has(id));
  return db.transaction(async (tx) => {
    const added = await tx
      .insert(tags)
      .values(tagNames.map((name) => ({ kind: "external_sponsor" as const, name })))
      .onConflictDoNothing()
      .returning({ name: tags.name });
    if (rows.length > 0) {
      await tx
        .insert(externalSponsors)
        .values(rows)
        .onConflictDoUpdate({
          target: externalSponsors.id,
          set: {
            name: sql`excluded.name`,
            nameArray: sql`excluded.name_array`,
            namePrefixes: sql`excluded.name_prefixes`,
            tags: sql`excluded.tags`,
            blurb: sql`excluded.blurb`,
            preview: sql`excluded.preview`,
            inPreviewSample: sql`excluded.in_preview_sample`,
            sample: sql`excluded.sample`,
            website: sql`excluded.website`,
            details: sql`excluded.details`,
            addedAt: sql`excluded.added_at`,
          },
          // Unchanged rows are not rewritten, so a routine restart leaves no dead tuples behind.
          // Rows staff curated in the back office (staff_edited_at) are theirs now: never overwritten.
          setWhere: sql`${externalSponsors.staffEditedAt} is null and (${externalSponsors.name}, ${externalSponsors.tags}, ${externalSponsors.blurb}, ${externalSponsors.preview},
            ${externalSponsors.inPreviewSample}, ${externalSponsors.sample}, ${externalSponsors.website}, ${externalSponsors.details}, ${externalSponsors.addedAt})
            is distinct from (excluded.name, excluded.tags, excluded.blurb, excluded.preview,
            excluded.in_preview_sample, excluded.sample, excluded.website, excluded.details, excluded.added_at)`,
        });
    }
    const retired = retiredIds.length
      ? await tx
          .delete(externalSponsors)
          .where(inArray(externalSponsors.id, retiredIds))
          .returning({ id: externalSponsors.id })
      : [];
    return { tagsAdded: added.length, sponsors: rows.length, retired: retired.length };
  });
}
