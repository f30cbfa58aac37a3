import { packageRequestPath } from "#isomorphic/bio-packages";
import { formatMoney } from "#isomorphic/format";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { escapeHtml, type BioSite } from "./escape";

/** A package is a sponsorship card (`.s`) with a title of its own level, and the creator's line breaks kept. */
export const PACKAGES_STYLE = ".k h3{margin:0;font-size:1.05rem;overflow-wrap:anywhere}.k .d{white-space:pre-line}.k small{display:block}";

const days = (n: number) => (n === 1 ? "1 day" : `${n} days`);

/**
 * "Work with me": the owner's packages, each with a Request link to the app host's offer form
 * prefilled from it, then one "Make an offer" link for anything else. Plain links, as the host
 * runs no script and takes no form. Shown only while the page takes payments (a deal is paid to
 * book); the Profiles card offers "Make an offer" by the same rule.
 */
export function packagesSection(page: PublicBioPage, site: BioSite): string {
  if (!page.takesPayments) return "";
  const href = (packageId?: string) => escapeHtml(`${site.publicOrigin}${packageRequestPath(page.customEnding, packageId)}`);
  const cards = page.packages.map(
    (item) =>
      `<li><h3>${escapeHtml(item.title)}</h3><p class="d">${escapeHtml(item.details)}</p>` +
      `<span class="r">${escapeHtml(formatMoney(item.price, item.currency))}</span><small>Delivered within ${days(item.turnaroundDays)}</small>` +
      `<a class="p" href="${href(item.id)}" aria-label="Request ${escapeHtml(item.title)}">Request</a></li>`,
  );
  const list = cards.length > 0 ? `<ul class="s k">${cards.join("")}</ul>` : "";
  return `<section aria-labelledby="k"><h2 id="k">Work with me</h2>${list}<p class="t"><a class="p" href="${href()}">Make an offer</a></p></section>`;
}
