import { contributionText } from "#isomorphic/contribution-text";
import type { PublicBioPage } from "#server/bio/public-page";
import { escapeHtml, type BioSite } from "./escape";

/** A link to the app host's checkout for this page (ADR 0017). */
export function checkoutHref(page: PublicBioPage, site: BioSite, query: string): string {
  return `${escapeHtml(site.publicOrigin)}/app/payments/checkout?page=${encodeURIComponent(page.customEnding)}&amp;${query}`;
}

/** The owner's sponsorship options, each with a Sponsor action when the page takes payments. */
export function sponsorshipsSection(page: PublicBioPage, site: BioSite): string {
  const sponsorships = page.sponsorships.map((option) => {
    const collectable = option.minContributionCents > 0;
    const action =
      page.takesPayments && collectable
        ? `<a class="p" href="${checkoutHref(page, site, `option=${encodeURIComponent(option.id)}`)}" aria-label="Sponsor ${escapeHtml(option.title)}">Sponsor</a>`
        : "";
    return `<li><b>${escapeHtml(option.title)}</b>${escapeHtml(contributionText(option.minContributionCents, option.currency, site.appName))}${action}</li>`;
  });
  return sponsorships.length > 0 ? `<section aria-labelledby="s"><h2 id="s">Sponsorship options</h2><ul class="s">${sponsorships.join("")}</ul></section>` : "";
}
