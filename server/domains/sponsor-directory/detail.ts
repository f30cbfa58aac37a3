import { and, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors, type ExternalSponsorDetails } from "#server/platform/db/schema";
import { shownInDirectory } from "./shown";

/** A company's page (SPEC detail + page). Pro only. */
export type SponsorDetail = {
  id: string;
  name: string;
  website: string;
  tags: string[];
  blurb: string;
  details: ExternalSponsorDetails;
  sample: boolean;
  addedAt: string;
};

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** The company with this id, or null (unknown, retired, a sample no longer shown, or not an id at all: no query then). */
export async function getSponsorDetail(db: Db, id: string): Promise<SponsorDetail | null> {
  if (!ID.test(id)) return null;
  const [row] = await db
    .select({
      id: externalSponsors.id,
      name: externalSponsors.name,
      website: externalSponsors.website,
      tags: externalSponsors.tags,
      blurb: externalSponsors.blurb,
      details: externalSponsors.details,
      sample: externalSponsors.sample,
      addedAt: externalSponsors.addedAt,
    })
    .from(externalSponsors)
    .where(and(eq(externalSponsors.id, id), shownInDirectory()));
  return row ? { ...row, addedAt: row.addedAt.toISOString() } : null;
}
