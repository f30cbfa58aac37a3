import { and, asc, isNull, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors } from "#server/platform/db/schema";

/** What anyone may see of a company (SPEC preview): no blurb, website or details. */
export type SponsorPreview = { id: string; name: string; tags: string[]; preview: string; sample: boolean };

/** Longest sample we ever show; the catalogue marks a few dozen at most. */
const MAX_SAMPLE = 30;

/** The fixed preview sample (in_preview_sample), by name, through its partial index. */
export async function listSponsorPreviews(db: Db): Promise<SponsorPreview[]> {
  return db
    .select({ id: externalSponsors.id, name: externalSponsors.name, tags: externalSponsors.tags, preview: externalSponsors.preview, sample: externalSponsors.sample })
    .from(externalSponsors)
    .where(and(sql`${externalSponsors.inPreviewSample}`, isNull(externalSponsors.retiredAt)))
    .orderBy(asc(externalSponsors.name), asc(externalSponsors.id))
    .limit(MAX_SAMPLE);
}
