import { formatMoney } from "#isomorphic/format";
import { MEMBERSHIP_PER } from "#isomorphic/membership-limits";
import { joinPath } from "#isomorphic/membership-join";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import type { PublicTier } from "#server/domains/memberships/public-tiers";
import { escapeHtml, type BioSite } from "./escape";

/** A tier is a sponsorship card (`.s`): its yearly price and places left in small type under the monthly one. */
export const MEMBERSHIPS_STYLE = ".m small{display:block}.m .f{display:table;margin-top:.5rem;font-weight:700}";

const spots = (n: number) => (n === 1 ? "1 spot left" : `${n} spots left`);

function tierCard(tier: PublicTier, page: PublicBioPage, site: BioSite): string {
  const monthly = `${formatMoney(tier.monthlyPrice, tier.currency)}${MEMBERSHIP_PER.month}`;
  const yearly = tier.yearlyPrice === null ? "" : `<small>or ${escapeHtml(formatMoney(tier.yearlyPrice, tier.currency))}${MEMBERSHIP_PER.year}</small>`;
  const benefits = tier.benefits.length > 0 ? `<ul class="g" aria-label="What members get">${tier.benefits.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : "";
  const left = tier.spotsLeft === null || tier.spotsLeft === 0 ? "" : `<small>${spots(tier.spotsLeft)}</small>`;
  const action =
    tier.spotsLeft === 0
      ? `<span class="f">Full</span>`
      : `<a class="p" href="${escapeHtml(`${site.publicOrigin}${joinPath(page.customEnding, tier.id)}`)}" aria-label="Join ${escapeHtml(tier.name)}">Join</a>`;
  return `<li><b>${escapeHtml(tier.name)}</b><span class="r">${escapeHtml(monthly)}</span>${yearly}${benefits}${left}${action}</li>`;
}

/**
 * "Become a member": the page's active membership tiers, each with its prices, what members get,
 * the places left when it is limited, and a plain Join link to the app host's join page ("Full"
 * instead when no place is left). No script and no form, as everywhere on the host. Shown only
 * while the page takes payments, by the rule of tips; `page.tiers` is empty otherwise.
 */
export function membershipsSection(page: PublicBioPage, site: BioSite): string {
  if (!page.takesPayments || page.tiers.length === 0) return "";
  return `<section aria-labelledby="m"><h2 id="m">Become a member</h2><ul class="s m">${page.tiers.map((tier) => tierCard(tier, page, site)).join("")}</ul></section>`;
}
