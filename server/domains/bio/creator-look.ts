import { eq } from "drizzle-orm";
import { themeOf, type BioTheme } from "#isomorphic/bio-theme";
import type { Db } from "#server/platform/db/client";
import { bioPages, profiles } from "#server/platform/db/schema";

/**
 * How a creator's page looks where a fan pays them (checkout, success,
 * cancelled): their face, their page's name and its theme, so the payment
 * path stays with the creator instead of detouring through the marketing site.
 */
export type CreatorLook = { name: string; ending: string; photoId: string | null; theme: BioTheme };

/** The look of the bio page `pageId`, or null when the page is gone. */
export async function readCreatorLook(db: Pick<Db, "select">, pageId: string): Promise<CreatorLook | null> {
  const [row] = await db
    .select({ name: bioPages.name, ending: bioPages.customEnding, theme: bioPages.theme, photoId: profiles.photoId })
    .from(bioPages)
    .leftJoin(profiles, eq(profiles.uid, bioPages.uid))
    .where(eq(bioPages.id, pageId));
  return row ? { name: row.name, ending: row.ending, photoId: row.photoId ?? null, theme: themeOf(row.theme) } : null;
}
