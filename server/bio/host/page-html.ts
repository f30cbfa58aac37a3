import { contributionText } from "#isomorphic/contribution-text";
import type { PublicBioPage } from "#server/bio/public-page";
import { LINK_LABELS, httpUrl } from "#server/bio/links";
import { linkIcon } from "./icons";
import { BIO_STYLE } from "./style";

/** What every page of the host needs to know about the site. */
export type BioSite = { bioOrigin: string; publicOrigin: string; appName: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for element content and double- or single-quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The address as a reader recognises it: host without "www.", then the path, shortened. */
export function shownDestination(url: URL): string {
  const host = url.hostname.replace(/^www\./, "");
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const shown = `${host}${path}`;
  return shown.length > 48 ? `${shown.slice(0, 47)}…` : shown;
}

/** The first `max` characters of `text` (whole code points), on one line, for meta descriptions. */
function summary(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

function head(parts: { title: string; description: string; canonical?: string; extra?: string; site: BioSite; robots?: string }): string {
  const { title, description, canonical, extra = "", robots } = parts;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="description" content="${escapeHtml(description)}">` +
    (robots ? `<meta name="robots" content="${robots}">` : "") +
    (canonical ? `<link rel="canonical" href="${escapeHtml(canonical)}">` : "") +
    `<meta name="theme-color" content="#603f8b">` +
    `<link rel="icon" href="/favicon.ico" type="image/svg+xml">` +
    extra +
    `<style>${BIO_STYLE}</style></head>`
  );
}

function footer(site: BioSite): string {
  return `<footer><a href="${escapeHtml(site.publicOrigin)}/">Made with ${escapeHtml(site.appName)}</a></footer>`;
}

/**
 * A public bio page as one HTML document: no script, one inline style,
 * inline icons for the links it has. Every value from the page is escaped;
 * a link is rendered only if its stored address is an http(s) URL (checked
 * again here, whatever `readPublicPage` filtered), and it points at the
 * host's counted redirect, with the destination shown under its label.
 */
export function renderBioPage(page: PublicBioPage, site: BioSite, shareVersion: string): string {
  const canonical = `${site.bioOrigin}/${page.customEnding}`;
  const description = page.blurb.trim() ? summary(page.blurb, 160) : `${page.name}: links and sponsorship options on ${site.appName}.`;
  const image = `${canonical}/share.png?v=${shareVersion}`;
  const meta = (attr: "property" | "name", key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
  const social =
    meta("property", "og:type", "profile") +
    meta("property", "og:site_name", site.appName) +
    meta("property", "og:title", page.name) +
    meta("property", "og:description", description) +
    meta("property", "og:url", canonical) +
    meta("property", "og:image", image) +
    meta("property", "og:image:width", "1200") +
    meta("property", "og:image:height", "630") +
    meta("property", "og:image:alt", `${page.name} on ${site.appName}`) +
    meta("name", "twitter:card", "summary_large_image") +
    meta("name", "twitter:title", page.name) +
    meta("name", "twitter:description", description) +
    meta("name", "twitter:image", image);

  const links = page.links.flatMap((link) => {
    const url = httpUrl(link.url);
    if (!url) return [];
    return [
      `<li><a href="/${page.customEnding}/go/${link.type}" rel="noopener">${linkIcon(link.type)}` +
        `<span><b>${escapeHtml(LINK_LABELS[link.type])}</b><small>${escapeHtml(shownDestination(url))}</small></span></a></li>`,
    ];
  });
  // Pay actions are plain links to the app host's checkout (ADR 0017): this host keeps no script and no form.
  const checkout = (query: string) => `${escapeHtml(site.publicOrigin)}/app/payments/checkout?page=${encodeURIComponent(page.customEnding)}&amp;${query}`;
  const sponsorships = page.sponsorships.map((option) => {
    const collectable = option.minContributionCents > 0;
    const action =
      page.takesPayments && collectable
        ? `<a class="p" href="${checkout(`option=${encodeURIComponent(option.id)}`)}" aria-label="Sponsor ${escapeHtml(option.title)}">Sponsor</a>`
        : "";
    return `<li><b>${escapeHtml(option.title)}</b>${escapeHtml(contributionText(option.minContributionCents, option.currency, site.appName))}${action}</li>`;
  });
  const tip = page.takesPayments ? `<p class="t"><a class="p" href="${checkout("kind=tip")}">Send a tip</a></p>` : "";
  const initial = [...page.name.trim()][0]?.toLocaleUpperCase("en-US") ?? "";

  return (
    head({ title: `${page.name} | ${site.appName}`, description, canonical, extra: social, site }) +
    `<body><main><header><div class="i" aria-hidden="true">${escapeHtml(initial)}</div><h1>${escapeHtml(page.name)}</h1>` +
    (page.blurb.trim() ? `<p class="b">${escapeHtml(page.blurb.replace(/\r\n?/g, "\n").trim())}</p>` : "") +
    `</header>` +
    (links.length > 0 ? `<nav aria-label="Links"><ul class="l">${links.join("")}</ul></nav>` : "") +
    (sponsorships.length > 0 ? `<section aria-labelledby="s"><h2 id="s">Sponsorship options</h2><ul class="s">${sponsorships.join("")}</ul></section>` : "") +
    tip +
    `</main>${footer(site)}</body></html>`
  );
}

/** The host's own 404: for unknown endings and anything else it does not serve. */
export function renderNotFound(site: BioSite): string {
  return (
    head({ title: `Page not found | ${site.appName}`, description: "There is no bio page at this address.", robots: "noindex", site }) +
    `<body><main><header><h1>This page doesn't exist</h1>` +
    `<p class="b">There is no bio page at this address. Check the spelling, or ask its owner for the right link.</p></header>` +
    `<p><a href="${escapeHtml(site.publicOrigin)}/app/account/bizbio">Make your own bio page</a></p>` +
    `</main>${footer(site)}</body></html>`
  );
}

/**
 * A page whose owner's account is disabled (server/accounts/active-owner.ts):
 * nothing of the page is shown, and it comes back as it was when the account
 * is enabled again (docs/decisions/0029-disabled-accounts.md).
 */
export function renderUnavailable(site: BioSite): string {
  return (
    head({ title: `Page unavailable | ${site.appName}`, description: "This bio page is unavailable.", robots: "noindex", site }) +
    `<body><main><header><h1>This page is unavailable</h1>` +
    `<p class="b">This bio page can't be shown right now, and it can't take payments.</p></header>` +
    `<p><a href="${escapeHtml(site.publicOrigin)}/app/account/bizbio">Make your own bio page</a></p>` +
    `</main>${footer(site)}</body></html>`
  );
}
