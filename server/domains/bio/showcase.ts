import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import { themeOf, type BioTheme } from "#isomorphic/bio-theme";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, profiles } from "#server/platform/db/schema";
import { isLinkType, isShown, linkTitle } from "./links";

/**
 * A featured page as the home page draws it in a phone: what a fan sees first (photo, name, the
 * story, the support block, the first links), in the page's own theme. Only what the public page
 * shows; nothing that needs a second read.
 */
export type ShowcasePage = {
  customEnding: string;
  name: string;
  blurb: string;
  theme: BioTheme;
  photoId: string | null;
  /** The first few links' labels, in the owner's order. */
  links: string[];
  /** The support block shows (tips on and a complete payout account), with its preset amounts in minor units. */
  tips: number[] | null;
  goal: { title: string; target: number } | null;
};

const SHOWN_LINKS = 4;

/**
 * Pages staff picked (featured_at set), newest pick first, none of a disabled or removed account,
 * in one statement. The home is guest-cached and bio page writes (featuring included) move its
 * generation, so this runs once per change, not per visit.
 */
export async function listShowcasePages(db: Db, limit = 3): Promise<ShowcasePage[]> {
  const rows = await db
    .select({
      customEnding: bioPages.customEnding,
      name: bioPages.name,
      blurb: bioPages.blurb,
      links: bioPages.links,
      theme: bioPages.theme,
      photoId: profiles.photoId,
      acceptTips: bioPages.acceptTips,
      tipPresets: bioPages.tipPresets,
      payoutsComplete: connectedAccounts.completed,
      goalTitle: bioPages.goalTitle,
      goalTarget: bioPages.goalTarget,
    })
    .from(bioPages)
    .leftJoin(profiles, eq(profiles.uid, bioPages.uid))
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .where(and(isNotNull(bioPages.featuredAt), ownerIsActive(bioPages.uid), isNull(bioPages.removedAt)))
    .orderBy(desc(bioPages.featuredAt), bioPages.id)
    .limit(limit);
  return rows.map((row) => ({
    customEnding: row.customEnding,
    name: row.name,
    blurb: row.blurb,
    theme: themeOf(row.theme),
    photoId: row.photoId ?? null,
    links: row.links.filter((link) => isShown(link) && isLinkType(link.type)).slice(0, SHOWN_LINKS).map(linkTitle),
    tips: row.acceptTips && row.payoutsComplete === true ? row.tipPresets : null,
    goal: row.goalTitle && row.goalTarget ? { title: row.goalTitle, target: row.goalTarget } : null,
  }));
}
