import { and, asc, desc, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors } from "#server/platform/db/schema";
import { shownInDirectory } from "./shown";

/** What anyone may see of a company (SPEC preview): no blurb, website or details. */
export type SponsorPreview = { id: string; name: string; tags: string[]; preview: string; sample: boolean };

/** Longest sample we ever show; the catalogue marks a few dozen at most. */
const MAX_SAMPLE = 30;
/** How many of the newest companies stand in for a preview sample nobody chose (see below). */
const NEWEST_AS_SAMPLE = 6;

const previewColumns = {
  id: externalSponsors.id,
  name: externalSponsors.name,
  tags: externalSponsors.tags,
  preview: externalSponsors.preview,
  sample: externalSponsors.sample,
};

/**
 * The fixed preview sample (in_preview_sample), by name, through its partial index. Companies
 * staff add are never in it, so once they replace the sample catalogue (shown.ts) the sample could
 * be empty: then the newest few companies stand in, newest first, by their teaser (written for
 * non-Pro readers).
 */
export async function listSponsorPreviews(db: Db): Promise<SponsorPreview[]> {
  const chosen = await db
    .select(previewColumns)
    .from(externalSponsors)
    .where(and(sql`${externalSponsors.inPreviewSample}`, shownInDirectory()))
    .orderBy(asc(externalSponsors.name), asc(externalSponsors.id))
    .limit(MAX_SAMPLE);
  if (chosen.length > 0) return chosen;
  return db
    .select(previewColumns)
    .from(externalSponsors)
    .where(shownInDirectory())
    .orderBy(desc(externalSponsors.addedAt), desc(externalSponsors.id))
    .limit(NEWEST_AS_SAMPLE);
}
