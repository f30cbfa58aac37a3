import { formatMoney } from "#isomorphic/format";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { escapeHtml, type BioSite } from "./escape";
import { checkoutHref } from "./sponsorships";

/**
 * The support block's look, in the page's theme colours (the bio host's CSS
 * contract: --bg --fg --btn --btn-fg). The fallbacks are the default theme's,
 * for a page drawn before its variables are set. Every amount is at least
 * 48 px tall and a quarter of the row wide: a thumb's target on a phone.
 */
export const SUPPORT_STYLE =
  ".u{margin:1.75rem 0 0;text-align:center}" +
  ".u h2{margin:0;font-size:1.25rem}" +
  ".a{grid-template-columns:repeat(auto-fit,minmax(4.5rem,1fr));gap:.5rem;margin:.75rem 0 0}" +
  ".a a{display:flex;align-items:center;justify-content:center;min-height:3rem;padding:.5rem;border:2px solid var(--btn);border-radius:2rem;" +
  "background:var(--btn);color:var(--btn-fg);font-weight:700;font-size:1.1rem;text-decoration:none}" +
  ".a a:hover{text-decoration:underline}" +
  ".a .o{background:transparent;color:var(--fg)}" +
  ".a a:focus-visible{outline:3px solid var(--fg);outline-offset:2px}";

/**
 * "Support {name}" right under the profile: the creator's preset amounts and
 * "Other", each a plain link to the app host's checkout with the amount
 * chosen (no form, no script: it works in every in-app browser, and the
 * host's CSP can keep `form-action 'none'`). Shown only when the page takes
 * payments and its owner accepts tips.
 */
export function supportSection(page: PublicBioPage, site: BioSite): string {
  if (!page.takesPayments || !page.acceptTips) return "";
  const amounts = page.tipPresets.filter((amount) => Number.isSafeInteger(amount) && amount > 0);
  const links = amounts.map((amount) => `<li><a href="${checkoutHref(page, site, `kind=tip&amp;amount=${amount}`)}">${escapeHtml(formatMoney(amount))}</a></li>`);
  links.push(`<li><a class="o" href="${checkoutHref(page, site, "kind=tip")}">Other</a></li>`);
  return `<section class="u" aria-labelledby="u"><h2 id="u">Support ${escapeHtml(page.name)}</h2><ul class="a">${links.join("")}</ul></section>`;
}
