import { and, desc, isNotNull, isNull } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { opportunityPosts } from "#server/platform/db/schema";
import { listFeaturedPages, type BioPageCard } from "#server/domains/bio/public-page";
import { summaryColumns, withLikedFlags, type OpportunitySummary } from "#server/domains/opportunities/list";

export type FeaturedPage = BioPageCard;

export type FeaturedResult = { kind: "SUCCESS"; opportunities: OpportunitySummary[]; pages: FeaturedPage[] };

/** What staff picked for /featured (rows with featured_at set), newest pick first. */
export async function listFeatured(db: Db, viewerUid: string | null, limit = 12): Promise<FeaturedResult> {
  const [posts, pages] = await Promise.all([
    db
      .select(summaryColumns)
      .from(opportunityPosts)
      .where(and(isNotNull(opportunityPosts.featuredAt), ownerIsActive(opportunityPosts.posterUid), isNull(opportunityPosts.removedAt)))
      .orderBy(desc(opportunityPosts.featuredAt), opportunityPosts.id)
      .limit(limit),
    listFeaturedPages(db, limit),
  ]);
  return { kind: "SUCCESS", opportunities: await withLikedFlags(db, viewerUid, posts), pages };
}
