import { DIRECT_SITE } from "#isomorphic/insights-periods";

/**
 * The site a visit came from, as a bio page's insights list it: the host of
 * the Referer header, lowercased, without a port or a leading "www." (and the
 * mobile and link-shim subdomains big networks send: m., l., lm., mobile.), so
 * "https://l.instagram.com/?u=…" is "instagram.com". Nothing else of the
 * address is kept: no path, no query, never the full URL. "Direct" when the
 * browser sent none, when it is not a web (or Android app) address, when it
 * is too long to be a real host, or when it is the bio host itself (a visitor
 * going from one page to another there is not a site sending them).
 * Any string in, a short host or "Direct" out; it never throws.
 */
export function referrerSites(ownOrigin: string): (header: string | string[] | undefined) => string {
  const own = siteOf(ownOrigin);
  return (header) => {
    if (typeof header !== "string" || header === "" || header.length > MAX_HEADER) return DIRECT_SITE;
    const site = siteOf(header);
    return site === null || site === own ? DIRECT_SITE : site;
  };
}

const MAX_HEADER = 4096;
const MAX_SITE = 100;
const SCHEMES = new Set(["http:", "https:", "android-app:"]);
const SUBDOMAIN = /^(?:www\d{0,3}|m|mobile|l|lm)\./;
// What a normalised host may hold: DNS letters (punycode stays ASCII), an IPv4 or a bracketed IPv6.
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;

function siteOf(address: string): string | null {
  const url = URL.parse(address.trim());
  if (url === null || !SCHEMES.has(url.protocol)) return null;
  let host = url.hostname.toLowerCase().replace(/\.$/, "");
  const bare = host.replace(SUBDOMAIN, "");
  // "m.com" stays itself: only a subdomain of a domain with a dot left is dropped.
  if (bare !== host && bare.includes(".")) host = bare;
  return host !== "" && host.length <= MAX_SITE && HOST.test(host) ? host : null;
}
