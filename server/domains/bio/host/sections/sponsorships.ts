import { contributionText } from "#isomorphic/contribution-text";
import { formatMoney } from "#isomorphic/format";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import type { SponsorshipOffer } from "#server/domains/bio/sponsorship-options";
import { escapeHtml, type BioSite } from "./escape";

/** A link to the app host's checkout for this page (ADR 0017). `query` is already HTML-escaped. */
export function checkoutHref(page: PublicBioPage, site: BioSite, query: string): string {
  return `${escapeHtml(site.publicOrigin)}/app/payments/checkout?page=${encodeURIComponent(page.customEnding)}&amp;${query}`;
}

/** An offer's price line stands out; its benefits read as a short list inside the card. */
export const SPONSORSHIPS_STYLE =
  ".s .r{display:block;margin-top:.25rem;font-weight:700}" +
  ".s .g{display:block;margin:.5rem 0 0;padding:0 0 0 1.25rem;list-style:disc}" +
  ".s .g li{padding:0;border:0;border-radius:0;background:none;overflow-wrap:anywhere}" +
  ".s .d{margin:.5rem 0 0;overflow-wrap:anywhere}";

/** At most this many benefits, and this many characters of each (or of the description), keep a card short. */
const MAX_BENEFITS = 3;
const MAX_TEXT = 140;

function clip(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** What the sponsor gets: the post's benefits as a list, else the start of its description. */
function whatYouGet(option: SponsorshipOffer): string {
  if (option.benefits.length > 0) {
    const items = option.benefits.slice(0, MAX_BENEFITS).map((benefit) => `<li>${escapeHtml(clip(benefit, MAX_TEXT))}</li>`);
    return `<ul class="g" aria-label="What you get">${items.join("")}</ul>`;
  }
  const description = clip(option.description, MAX_TEXT);
  return description ? `<p class="d">${escapeHtml(description)}</p>` : "";
}

/**
 * The owner's sponsorship options as offers: title, price (a post's minimum
 * is where the price starts, so "From $X"), what the sponsor gets, and a
 * Sponsor action when the page takes payments.
 */
export function sponsorshipsSection(page: PublicBioPage, site: BioSite): string {
  const sponsorships = page.sponsorships.map((option) => {
    const collectable = option.minContributionCents > 0;
    const price = collectable ? `From ${formatMoney(option.minContributionCents, option.currency)}` : contributionText(0, option.currency, site.appName);
    const action =
      page.takesPayments && collectable
        ? `<a class="p" href="${checkoutHref(page, site, `option=${encodeURIComponent(option.id)}`)}" aria-label="Sponsor ${escapeHtml(option.title)}">Sponsor</a>`
        : "";
    return `<li><b>${escapeHtml(option.title)}</b><span class="r">${escapeHtml(price)}</span>${whatYouGet(option)}${action}</li>`;
  });
  return sponsorships.length > 0 ? `<section aria-labelledby="s"><h2 id="s">Sponsorship options</h2><ul class="s">${sponsorships.join("")}</ul></section>` : "";
}
