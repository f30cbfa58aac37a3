import { LINK_TYPES, type BioPageLink, type LinkType } from "#server/platform/db/schema";

export { LINK_TYPES, type LinkType };

/** How each link type is shown: its label on the form and the public page. */
export const LINK_LABELS: Record<LinkType, string> = {
  amazon: "Amazon",
  facebook: "Facebook",
  instagram: "Instagram",
  linkedin: "LinkedIn",
  patreon: "Patreon",
  pinterest: "Pinterest",
  reddit: "Reddit",
  store: "Store",
  tiktok: "TikTok",
  twitch: "Twitch",
  twitter: "X (Twitter)",
  website: "Website",
  youtube: "YouTube",
  bluesky: "Bluesky",
  discord: "Discord",
  github: "GitHub",
  snapchat: "Snapchat",
  spotify: "Spotify",
  threads: "Threads",
  whatsapp: "WhatsApp",
  event: "Event",
  music: "Music",
  newsletter: "Newsletter",
  podcast: "Podcast",
  portfolio: "Portfolio",
};

/**
 * The networks a page shows as a compact row of their icons under the
 * support block; every other type is a full-width button with its title
 * (ADR 0038). Patreon and Amazon are buttons: they ask for money or sell,
 * which a visitor should read, not guess from a logo.
 */
export const SOCIAL_TYPES: ReadonlySet<LinkType> = new Set<LinkType>([
  "instagram", "tiktok", "youtube", "twitter", "facebook", "threads", "bluesky", "snapchat",
  "linkedin", "pinterest", "reddit", "twitch", "discord", "github", "spotify", "whatsapp",
]);

/** A link title's longest length, in characters (SPEC §5's 'Must be under 100 characters'). */
export const TITLE_UNDER = 100;

/** What a link says on the page: its own title, else its type's label. */
export function linkTitle(link: Pick<BioPageLink, "type" | "title">): string {
  return link.title?.trim() || LINK_LABELS[link.type];
}

/** A link the public sees: not switched off in the editor (links saved before the switch have no `enabled`). */
export function isShown(link: Pick<BioPageLink, "enabled">): boolean {
  return link.enabled !== false;
}

type DomainRule = { accepts(hostname: string): boolean; shown: string };

/** On one of `domains`, the name itself or any subdomain (www., m., …). */
function onDomains(...domains: string[]): DomainRule {
  const shown = domains.length <= 2 ? domains.join(" or ") : `${domains.slice(0, -1).join(", ")} or ${domains.at(-1)}`;
  return { accepts: (hostname) => domains.some((d) => hostname === d || hostname.endsWith(`.${d}`)), shown };
}

// Amazon runs a store per country: amazon.com, amazon.co.uk, amazon.com.au, amazon.de, … and amzn.to links.
const AMAZON_HOST = /(^|\.)(amazon\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})|amzn\.(to|eu)|a\.co)$/;

/**
 * The domains a link of a network's type must be on. Store, website and the
 * other kinds of button (event, music, newsletter, podcast, portfolio) take
 * any address. SPEC §5: social URLs need "a valid social media domain",
 * Patreon its own.
 */
export const LINK_DOMAINS: Partial<Record<LinkType, DomainRule>> = {
  amazon: { accepts: (hostname) => AMAZON_HOST.test(hostname), shown: "an Amazon domain such as amazon.com or amzn.to" },
  facebook: onDomains("facebook.com", "fb.com", "fb.me"),
  instagram: onDomains("instagram.com"),
  linkedin: onDomains("linkedin.com"),
  patreon: onDomains("patreon.com"),
  pinterest: onDomains("pinterest.com", "pin.it"),
  reddit: onDomains("reddit.com", "redd.it"),
  tiktok: onDomains("tiktok.com"),
  twitch: onDomains("twitch.tv"),
  twitter: onDomains("x.com", "twitter.com"),
  youtube: onDomains("youtube.com", "youtu.be"),
  bluesky: onDomains("bsky.app"),
  discord: onDomains("discord.gg", "discord.com"),
  github: onDomains("github.com"),
  snapchat: onDomains("snapchat.com"),
  spotify: onDomains("spotify.com", "spotify.link"),
  threads: onDomains("threads.net", "threads.com"),
  whatsapp: onDomains("wa.me", "whatsapp.com"),
};

export const HTTP_URL_MESSAGE = "URL must start with either http:// or https://";

export function isLinkType(value: string): value is LinkType {
  return (LINK_TYPES as readonly string[]).includes(value);
}

/**
 * The message for a link's address, or null when it is fine: an absolute
 * http(s) URL (nothing else is ever rendered as a link: no `javascript:`,
 * `data:`, …, in any casing or encoding, since the scheme must be spelled
 * out literally) on the type's domains.
 */
export function linkUrlProblem(type: LinkType, url: string): string | null {
  const rule = LINK_DOMAINS[type];
  const message = rule ? `${HTTP_URL_MESSAGE} and be on ${rule.shown}` : HTTP_URL_MESSAGE;
  const parsed = httpUrl(url);
  if (!parsed) return message;
  return rule && !rule.accepts(parsed.hostname) ? message : null;
}

/** The URL if `value` is a plain absolute http(s) address, else null. */
export function httpUrl(value: string): URL | null {
  // Literal scheme, then a host; no whitespace or control characters anywhere (browsers strip some, which hides tricks).
  if (!/^https?:\/\/[^\s/?#]/i.test(value) || /[\s\p{Cc}]/u.test(value)) return null;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url : null;
  } catch {
    return null;
  }
}
