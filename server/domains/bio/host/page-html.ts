import { themeOf, type BioTheme } from "#isomorphic/bio-theme";
import { reportPath } from "#isomorphic/report-reasons";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { escapeHtml, type BioSite } from "./sections/escape";
import { goalSection } from "./sections/goal";
import { linksSection, socialsSection } from "./sections/links";
import { membershipsSection } from "./sections/memberships";
import { packagesSection } from "./sections/packages";
import { profileSection } from "./sections/profile";
import { sponsorshipsSection } from "./sections/sponsorships";
import { supportSection } from "./sections/support";
import { wallSection } from "./sections/wall";
import { styleElements } from "./style";

export { escapeHtml, type BioSite };
export { shownDestination } from "./sections/links";

/** The first `max` characters of `text` (whole code points), on one line, for meta descriptions. */
function summary(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

function head(parts: { title: string; description: string; canonical?: string; extra?: string; site: BioSite; robots?: string; theme?: BioTheme }): string {
  const { title, description, canonical, extra = "", robots } = parts;
  const theme = themeOf(parts.theme);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="description" content="${escapeHtml(description)}">` +
    (robots ? `<meta name="robots" content="${robots}">` : "") +
    (canonical ? `<link rel="canonical" href="${escapeHtml(canonical)}">` : "") +
    `<meta name="theme-color" content="${theme.background}">` +
    `<link rel="icon" href="/favicon.ico" type="image/svg+xml">` +
    extra +
    styleElements(theme) +
    `</head>`
  );
}

/**
 * The footer; a page's own adds "Report", a plain link to the app host's report form (no
 * script, no cookie, no form on this host: ADR 0050).
 */
function footer(site: BioSite, reportEnding?: string): string {
  const report = reportEnding
    ? ` · <a href="${escapeHtml(`${site.publicOrigin}${reportPath("bio_page", reportEnding)}`)}" rel="nofollow">Report this page</a>`
    : "";
  return `<footer><a href="${escapeHtml(site.publicOrigin)}/">Made with ${escapeHtml(site.appName)}</a>${report}</footer>`;
}

/**
 * A public bio page as one HTML document: no script, two inline styles (its
 * theme's colours and font, the host's stylesheet; `bioCspFor` lists them),
 * inline icons for the links it has. Every value from the page is escaped.
 * Each part of the page is drawn by its own file in ./sections/, in the
 * order a visitor reads it: who this is, how to support them (once, or every month as a member) and what for
 * (the goal), where else to find them (the social icons), the links, how to
 * work with them (packages, an offer), the sponsorship offers, the supporters.
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

  return (
    head({ title: `${page.name} | ${site.appName}`, description, canonical, extra: social, site, theme: page.theme }) +
    `<body><main>` +
    profileSection(page) +
    supportSection(page, site) +
    membershipsSection(page, site) +
    goalSection(page) +
    socialsSection(page) +
    linksSection(page) +
    packagesSection(page, site) +
    sponsorshipsSection(page, site) +
    wallSection(page) +
    `</main>${footer(site, page.customEnding)}</body></html>`
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
 * A page whose owner's account is disabled (server/domains/accounts/active-owner.ts):
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
