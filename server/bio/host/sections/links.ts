import type { PublicBioPage } from "#server/bio/public-page";
import { LINK_LABELS, httpUrl } from "#server/bio/links";
import { linkIcon } from "#server/bio/host/icons";
import { escapeHtml } from "./escape";

/** The address as a reader recognises it: host without "www.", then the path, shortened. */
export function shownDestination(url: URL): string {
  const host = url.hostname.replace(/^www\./, "");
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const shown = `${host}${path}`;
  return shown.length > 48 ? `${shown.slice(0, 47)}…` : shown;
}

/**
 * The page's links, each pointing at the host's counted redirect, with the
 * destination shown under its label. A link is rendered only if its stored
 * address is an http(s) URL (checked again here, whatever `readPublicPage` filtered).
 */
export function linksSection(page: PublicBioPage): string {
  const links = page.links.flatMap((link) => {
    const url = httpUrl(link.url);
    if (!url) return [];
    return [
      `<li><a href="/${page.customEnding}/go/${link.type}" rel="noopener">${linkIcon(link.type)}` +
        `<span><b>${escapeHtml(LINK_LABELS[link.type])}</b><small>${escapeHtml(shownDestination(url))}</small></span></a></li>`,
    ];
  });
  return links.length > 0 ? `<nav aria-label="Links"><ul class="l">${links.join("")}</ul></nav>` : "";
}
