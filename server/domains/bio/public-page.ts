import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import { themeOf, type BioTheme } from "#isomorphic/bio-theme";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, profiles, type BioPageLink } from "#server/platform/db/schema";
import { couldBeEnding } from "./endings";
import { goalProgress, goalRaised, type GoalProgress } from "./goal";
import { httpUrl, isLinkType, isShown, LINK_LABELS } from "./links";
import { listPagePackages, type BioPackage } from "./packages";
import { publicSponsorshipOptions, type SponsorshipOffer } from "./sponsorship-options";
import { readWall, readWallMembers, type WallEntry, type WallTier } from "./wall";
import { readPublicTiers, type PublicTier } from "#server/domains/memberships/public-tiers";

/** Everything a public bio page shows, as of one read. */
export type PublicBioPage = {
  id: string;
  uid: string;
  customEnding: string;
  name: string;
  blurb: string;
  /**
   * Only links switched on, in the owner's order, and only http(s) ones,
   * whatever the row holds (data written before today's rules, by hand, …).
   * The host redirects only to these: a link switched off answers 404.
   */
  links: BioPageLink[];
  sponsorships: SponsorshipOffer[];
  /**
   * The "Work with me" packages (server/domains/bio/packages.ts), in the owner's order; none while
   * the page takes no payments, as a request becomes a deal that is paid to book.
   */
  packages: BioPackage[];
  /**
   * The membership tiers offered now (server/domains/memberships/), in the owner's order; none while
   * the page takes no payments, by the rule of tips.
   */
  tiers: PublicTier[];
  /** The support block (server/domains/bio/support-settings.ts): tips on/off, the preset amounts and the least a tip may be, in minor units. */
  acceptTips: boolean;
  tipPresets: number[];
  tipMinimum: number;
  /**
   * The owner's payout account is complete (connected_accounts.completed), so
   * the page offers Sponsor and tip actions. It turns on together with
   * profiles.payments_enabled, whose changes redraw cached pages.
   */
  takesPayments: boolean;
  /**
   * False while staff have the owner's account disabled: the page then shows
   * as unavailable and takes no payment (server/domains/accounts/active-owner.ts).
   */
  ownerActive: boolean;
  /** The page's look (the default theme when it never chose one). */
  theme: BioTheme;
  /** The owner's profile photo (server/domains/media/), or null: the page shows the name's initial. */
  photoId: string | null;
  updatedAt: Date;
  /** The goal bar, when the owner set a goal (server/domains/bio/goal.ts). */
  goal: GoalProgress | null;
  /** The supporter wall's entries, newest first; null while the owner has the wall off (server/domains/bio/wall.ts). */
  wall: WallEntry[] | null;
  /** The wall's members by tier (empty without members); null while the wall is off. */
  wallMembers: WallTier[] | null;
};

/** The page at `ending`, or null (unknown, or not an ending at all: no query then). */
export async function readPublicPage(db: Db, ending: string): Promise<PublicBioPage | null> {
  if (!couldBeEnding(ending)) return null;
  const [page] = await db
    .select({
      id: bioPages.id,
      uid: bioPages.uid,
      customEnding: bioPages.customEnding,
      name: bioPages.name,
      blurb: bioPages.blurb,
      links: bioPages.links,
      sponsorships: bioPages.sponsorships,
      acceptTips: bioPages.acceptTips,
      tipPresets: bioPages.tipPresets,
      tipMinimum: bioPages.tipMinimum,
      theme: bioPages.theme,
      updatedAt: bioPages.updatedAt,
      accountCompleted: connectedAccounts.completed,
      // A page staff took down answers exactly as a disabled owner's does ("unavailable", no payments).
      ownerActive: sql<boolean>`(${ownerIsActive(bioPages.uid)} and ${bioPages.removedAt} is null)`.mapWith(Boolean),
      wallEnabled: bioPages.wallEnabled,
      goalTitle: bioPages.goalTitle,
      goalTarget: bioPages.goalTarget,
      goalStartedAt: bioPages.goalStartedAt,
      photoId: profiles.photoId,
    })
    .from(bioPages)
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .leftJoin(profiles, eq(profiles.uid, bioPages.uid))
    .where(eq(bioPages.customEnding, ending));
  if (!page) return null;
  const { accountCompleted, wallEnabled, goalTitle, goalTarget, goalStartedAt, ...fields } = page;
  // Nothing of a disabled owner's page is shown, so its sponsorship options, goal and wall are not read.
  const active = page.ownerActive;
  const hasGoal = active && goalTarget !== null && goalTarget > 0;
  const takesPayments = accountCompleted === true;
  const [sponsorships, packages, tiers, raised, wall, wallMembers] = await Promise.all([
    active ? publicSponsorshipOptions(db, page.uid, page.sponsorships) : [],
    active && takesPayments ? listPagePackages(db, page.id) : [],
    active && takesPayments ? readPublicTiers(db, page.id) : [],
    hasGoal ? goalRaised(db, page.id, goalStartedAt) : 0,
    active && wallEnabled ? readWall(db, page.id) : null,
    active && wallEnabled ? readWallMembers(db, page.id) : null,
  ]);
  const goal = hasGoal ? goalProgress({ title: goalTitle ?? "", target: goalTarget }, raised) : null;
  const links = page.links.filter((link) => isShown(link) && httpUrl(link.url) !== null);
  return { ...fields, links, sponsorships, packages, tiers, takesPayments, goal, wall, wallMembers, theme: themeOf(page.theme) };
}

/** A bio page as cards elsewhere in the product show it (home, /featured). */
export type BioPageCard = { customEnding: string; name: string; blurb: string; linkTypes: string[]; /** The links' labels, as the cards show them. */ linkLabels: string[] };

/** Pages staff picked (featured_at set), newest pick first; none of a disabled account. */
export async function listFeaturedPages(db: Db, limit = 12): Promise<BioPageCard[]> {
  const rows = await db
    .select({ customEnding: bioPages.customEnding, name: bioPages.name, blurb: bioPages.blurb, links: bioPages.links })
    .from(bioPages)
    .where(and(isNotNull(bioPages.featuredAt), ownerIsActive(bioPages.uid), isNull(bioPages.removedAt)))
    .orderBy(desc(bioPages.featuredAt), bioPages.id)
    .limit(limit);
  return rows.map(({ links, ...page }) => {
    // The card lists what the page shows, by type (a custom title is the page's own words, too long for a card).
    const types = links.filter(isShown).map((link) => link.type).filter(isLinkType);
    return { ...page, linkTypes: types, linkLabels: types.map((type) => LINK_LABELS[type]) };
  });
}
