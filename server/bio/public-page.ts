import { and, desc, eq, isNotNull } from "drizzle-orm";
import { ownerIsActive } from "#server/accounts/active-owner";
import type { Db } from "#server/db/client";
import { bioPages, connectedAccounts, profiles, type BioPageLink } from "#server/db/schema";
import { couldBeEnding } from "./endings";
import { httpUrl, isLinkType, LINK_LABELS } from "./links";
import { publicSponsorshipOptions, type SponsorshipChoice } from "./sponsorship-options";

/** Everything a public bio page shows, as of one read. */
export type PublicBioPage = {
  id: string;
  uid: string;
  customEnding: string;
  name: string;
  blurb: string;
  /** Only http(s) links, whatever the row holds (data written before today's rules, by hand, …). */
  links: BioPageLink[];
  sponsorships: SponsorshipChoice[];
  /**
   * The owner's payout account is complete (connected_accounts.completed), so
   * the page offers Sponsor and tip actions. It turns on together with
   * profiles.payments_enabled, whose changes redraw cached pages.
   */
  takesPayments: boolean;
  /**
   * False while staff have the owner's account disabled: the page then shows
   * as unavailable and takes no payment (server/accounts/active-owner.ts).
   */
  ownerActive: boolean;
  /** The owner's profile photo (server/media/), or null: the page shows the name's initial. */
  photoId: string | null;
  updatedAt: Date;
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
      updatedAt: bioPages.updatedAt,
      accountCompleted: connectedAccounts.completed,
      ownerActive: ownerIsActive(bioPages.uid).mapWith(Boolean),
      photoId: profiles.photoId,
    })
    .from(bioPages)
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .leftJoin(profiles, eq(profiles.uid, bioPages.uid))
    .where(eq(bioPages.customEnding, ending));
  if (!page) return null;
  const { accountCompleted, ...fields } = page;
  // Nothing of a disabled owner's page is shown, so its sponsorship options are not read.
  const sponsorships = page.ownerActive ? await publicSponsorshipOptions(db, page.uid, page.sponsorships) : [];
  return { ...fields, links: page.links.filter((link) => httpUrl(link.url) !== null), sponsorships, takesPayments: accountCompleted === true };
}

/** A bio page as cards elsewhere in the product show it (home, /featured). */
export type BioPageCard = { customEnding: string; name: string; blurb: string; linkTypes: string[]; /** The links' labels, as the cards show them. */ linkLabels: string[] };

/** Pages staff picked (featured_at set), newest pick first; none of a disabled account. */
export async function listFeaturedPages(db: Db, limit = 12): Promise<BioPageCard[]> {
  const rows = await db
    .select({ customEnding: bioPages.customEnding, name: bioPages.name, blurb: bioPages.blurb, links: bioPages.links })
    .from(bioPages)
    .where(and(isNotNull(bioPages.featuredAt), ownerIsActive(bioPages.uid)))
    .orderBy(desc(bioPages.featuredAt), bioPages.id)
    .limit(limit);
  return rows.map(({ links, ...page }) => {
    const types = links.map((link) => link.type).filter(isLinkType);
    return { ...page, linkTypes: types, linkLabels: types.map((type) => LINK_LABELS[type]) };
  });
}
