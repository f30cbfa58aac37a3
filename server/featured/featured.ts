import { desc, isNotNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { bizbPages, opportunityPosts } from "../db/schema";

export type FeaturedOpportunity = {
  id: string;
  title: string;
  organization: string;
  minContributionCents: number;
  currency: string;
  applicationDeadline: string | null;
  tags: string[];
  totalHearts: number;
};

export type FeaturedPage = {
  customEnding: string;
  name: string;
  blurb: string;
  linkTypes: string[];
};

export type FeaturedResult = { kind: "SUCCESS"; opportunities: FeaturedOpportunity[]; pages: FeaturedPage[] };

/** What staff picked for /featured (rows with featured_at set), newest pick first. */
export async function listFeatured(db: Db, limit = 12): Promise<FeaturedResult> {
  const [posts, pages] = await Promise.all([
    db
      .select({
        id: opportunityPosts.id,
        title: opportunityPosts.title,
        organization: opportunityPosts.organization,
        minContributionCents: opportunityPosts.minContributionCents,
        currency: opportunityPosts.currency,
        applicationDeadline: opportunityPosts.applicationDeadline,
        tags: opportunityPosts.tags,
        totalHearts: opportunityPosts.totalHearts,
      })
      .from(opportunityPosts)
      .where(isNotNull(opportunityPosts.featuredAt))
      .orderBy(desc(opportunityPosts.featuredAt), opportunityPosts.id)
      .limit(limit),
    db
      .select({
        customEnding: bizbPages.customEnding,
        name: bizbPages.name,
        blurb: bizbPages.blurb,
        links: bizbPages.links,
      })
      .from(bizbPages)
      .where(isNotNull(bizbPages.featuredAt))
      .orderBy(desc(bizbPages.featuredAt), bizbPages.id)
      .limit(limit),
  ]);
  return {
    kind: "SUCCESS",
    opportunities: posts.map((post) => ({ ...post, applicationDeadline: post.applicationDeadline?.toISOString() ?? null })),
    pages: pages.map(({ links, ...page }) => ({ ...page, linkTypes: links.map((link) => link.type) })),
  };
}
