import type { PublicBioPage } from "#server/bio/public-page";
import type { BioSite } from "./escape";
import { checkoutHref } from "./sponsorships";

/** The tip action, when the page takes payments. */
export function supportSection(page: PublicBioPage, site: BioSite): string {
  return page.takesPayments ? `<p class="t"><a class="p" href="${checkoutHref(page, site, "kind=tip")}">Send a tip</a></p>` : "";
}
