import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { tags } from "#server/platform/db/schema";

/** The sponsor tag list (SPEC 'external_sponsor_tags'), sorted by name. */
export async function listSponsorTags(db: Db): Promise<string[]> {
  const rows = await db.select({ name: tags.name }).from(tags).where(eq(tags.kind, "external_sponsor")).orderBy(asc(tags.name));
  return rows.map((row) => row.name);
}
