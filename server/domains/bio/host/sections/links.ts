import type { PublicBioPage } from "#server/domains/bio/public-page";
import { SOCIAL_TYPES, httpUrl, linkTitle } from "#server/domains/bio/links";
import { linkIcon } from "#server/domains/bio/host/icons";
import type { BioPageLink } from "#server/platform/db/schema";
import { escapeHtml } from "./escape";

/** The address as a reader recognises it: host without "www.", then the path, shortened. */
export function shownDestination(url: URL): string {
  const host = url.hostname.replace(/^www\./, "");
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const shown = `${host}${path}`;
  return shown.length > 48 ? `${shown.slice(0, 47)}…` : shown;
}

/**
 * The page's links that are drawn, in the owner's order, split into social
 * networks (icons) and the rest (buttons). `readPublicPage` already left out
 * links switched off; a link is drawn only if its address is an http(s) URL
 * (checked again here, whatever was filtered before).
 */
type DrawnLink = Omit<BioPageLink, "url"> & { url: URL };

function drawn(page: PublicBioPage): { socials: DrawnLink[]; buttons: DrawnLink[] } {
  const links = page.links.flatMap((link) => {
    const url = httpUrl(link.url);
    return url && link.enabled !== false ? [{ ...link, url }] : [];
  });
  return { socials: links.filter((link) => SOCIAL_TYPES.has(link.type)), buttons: links.filter((link) => !SOCIAL_TYPES.has(link.type)) };
}

/**
 * The social networks as one compact row of their icons, each a counted
 * redirect named by its title (or the network's name) for screen readers.
 * Placed right under the support block, as link-in-bio pages do (ADR 0038).
 */
export function socialsSection(page: PublicBioPage): string {
  const { socials } = drawn(page);
  if (socials.length === 0) return "";
  const items = socials.map(
    (link) => `<li><a href="/${page.customEnding}/go/${link.type}" rel="noopener" aria-label="${escapeHtml(linkTitle(link))}">${linkIcon(link.type)}</a></li>`,
  );
  return `<nav aria-label="Social networks"><ul class="so">${items.join("")}</ul></nav>`;
}

/**
 * Every other link as a full-width button: the icon, the link's title (or its
 * type's label) and, under it, where it leads.
 */
export function linksSection(page: PublicBioPage): string {
  const { buttons } = drawn(page);
  if (buttons.length === 0) return "";
  const items = buttons.map(
    (link) =>
      `<li><a href="/${page.customEnding}/go/${link.type}" rel="noopener">${linkIcon(link.type)}` +
      `<span><b>${escapeHtml(linkTitle(link))}</b><small>${escapeHtml(shownDestination(link.url))}</small></span></a></li>`,
  );
  return `<nav aria-label="Links"><ul class="lk">${items.join("")}</ul></nav>`;
}

/**
 * The two parts' CSS, in the theme's colours (--bg --fg --btn --btn-fg):
 * icons in the text colour on the page's background, buttons in the button
 * colours. 48 px touch targets; focus shows as a ring in the text colour.
 */
export const LINKS_STYLE = [
  ".so{display:flex;flex-wrap:wrap;justify-content:center;gap:.25rem;margin:1.25rem 0 0}",
  ".so a{display:grid;place-items:center;width:3rem;height:3rem;border-radius:50%;color:var(--fg)}",
  ".so a:hover{background:color-mix(in srgb,var(--fg) 12%,transparent)}",
  ".so a:focus-visible,.lk a:focus-visible{outline:3px solid var(--fg);outline-offset:2px}",
  ".so svg{width:26px;height:26px;fill:currentColor;stroke:none}",
  ".lk a{display:flex;align-items:center;gap:1rem;min-height:3.5rem;padding:.7rem 1rem;border-radius:1rem;background:var(--btn);color:var(--btn-fg);text-decoration:none}",
  ".lk a:hover{box-shadow:0 0 0 3px var(--fg)}",
  ".lk svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
  ".lk svg.f{fill:currentColor;stroke:none}",
  ".lk span{flex:1;min-width:0}",
  ".lk b{display:block;font-size:1.05rem;overflow-wrap:anywhere}",
  ".lk small{display:block;font-size:.85rem;overflow-wrap:anywhere}",
].join("");
