import { desc, isNotNull } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { bioPages, opportunityPosts } from "#server/db/schema";
import { summaryColumns, withLikedFlags, type OpportunitySummary } from "#server/opportunities/list";

export type FeaturedPage = {
  customEnding: string;
  name: string;
  blurb: string;
  linkTypes: string[];
};

export type FeaturedResult = { kind: "SUCCESS"; opportunities: OpportunitySummary[]; pages: FeaturedPage[] };

/** What staff picked for /featured (rows with featured_at set), newest pick first. */
export async function listFeatured(db: Db, viewerUid: string | null, limit = 12): Promise<FeaturedResult> {
  const [posts, pages] = await Promise.all([
    db
      .select(summaryColumns)
      .from(opportunityPosts)
      .where(isNotNull(opportunityPosts.featuredAt))
      .orderBy(desc(opportunityPosts.featuredAt), opportunityPosts.id)
      .limit(limit),
    db
      .select({
        customEnding: bioPages.customEnding,
        name: bioPages.name,
        blurb: bioPages.blurb,
        links: bioPages.links,
      })
      .from(bioPages)
      .where(isNotNull(bioPages.featuredAt))
      .orderBy(desc(bioPages.featuredAt), bioPages.id)
      .limit(limit),
  ]);
  return {
    kind: "SUCCESS",
    opportunities: await withLikedFlags(db, viewerUid, posts),
    pages: pages.map(({ links, ...page }) => ({ ...page, linkTypes: links.map((link) => link.type) })),
  };
}
