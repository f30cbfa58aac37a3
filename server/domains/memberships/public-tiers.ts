import type { Db } from "#server/platform/db/client";
import { readPageTiers, spotsLeft, type MembershipTier } from "./tiers";

/**
 * A tier as a fan sees it (the bio page's "Become a member", the join page): only what is offered,
 * never its welcome message (that is for members) nor how many belong beyond the places left.
 */
export type PublicTier = {
  id: string;
  name: string;
  /** Minor units of `currency` per month; the yearly price per year, or null when sold monthly only. */
  monthlyPrice: number;
  yearlyPrice: number | null;
  currency: string;
  benefits: string[];
  /** Places left when the tier is limited (0: full), null when it is not. */
  spotsLeft: number | null;
};

export function publicTierOf(tier: MembershipTier): PublicTier {
  return {
    id: tier.id,
    name: tier.name,
    monthlyPrice: tier.monthlyPrice,
    yearlyPrice: tier.yearlyPrice,
    currency: tier.currency,
    benefits: tier.benefits,
    spotsLeft: spotsLeft(tier),
  };
}

/** The page's active tiers in its order: paused and retired ones are not offered, so not shown. */
export async function readPublicTiers(db: Db, bioPageId: string): Promise<PublicTier[]> {
  return (await readPageTiers(db, bioPageId)).filter((tier) => tier.status === "active").map(publicTierOf);
}
