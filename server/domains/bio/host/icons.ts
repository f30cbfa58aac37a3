import fs from "node:fs";
import { createRequire } from "node:module";
import type { LinkType } from "#server/platform/db/schema";

/** Simple Icons' file name for each network it draws for us. */
const SIMPLE_ICONS: Partial<Record<LinkType, string>> = {
  bluesky: "bluesky", discord: "discord", facebook: "facebook", github: "github", instagram: "instagram", patreon: "patreon",
  pinterest: "pinterest", reddit: "reddit", snapchat: "snapchat", spotify: "spotify", threads: "threads", tiktok: "tiktok",
  twitch: "twitch", twitter: "x", whatsapp: "whatsapp", youtube: "youtube",
};

/**
 * The path of one Simple Icons mark, read from the package's own SVG file.
 * Not `import { siX } from "simple-icons"`: that module holds all 3,400
 * marks (5 MB of source; half a second and 15 MB of heap in every process
 * that loads it) for the sixteen a bio page can use.
 */
function simpleIconPath(name: string): string {
  const svg = fs.readFileSync(createRequire(import.meta.url).resolve(`simple-icons/icons/${name}.svg`), "utf8");
  const path = /<path d="([^"]+)"/.exec(svg)?.[1];
  if (!path) throw new Error(`simple-icons/icons/${name}.svg has no path`);
  return path;
}

/**
 * The networks' own marks, from Simple Icons (a maintained, CC0 set of brand
 * icons), as one filled path each on a 24×24 grid, read once at start. A
 * page inlines only the ones it uses — no icon font, no extra request.
 * LinkedIn asked for its mark to be removed from the set, so it has a drawn
 * "in" instead.
 */
const BRANDS: Partial<Record<LinkType, string>> = {
  ...Object.fromEntries(Object.entries(SIMPLE_ICONS).map(([type, name]) => [type, simpleIconPath(name)])),
  // "in" cut out of a rounded square (even-odd), filled like the brand marks beside it.
  linkedin:
    "M20.4 0H3.6A3.6 3.6 0 0 0 0 3.6v16.8A3.6 3.6 0 0 0 3.6 24h16.8a3.6 3.6 0 0 0 3.6-3.6V3.6A3.6 3.6 0 0 0 20.4 0zM4.6 6.5a1.9 1.9 0 1 0 3.8 0a1.9 1.9 0 1 0-3.8 0zM4.9 9.6h3.2v9.9H4.9zM10.6 9.6h3v1.4c.5-.9 1.6-1.7 3.2-1.7 3.2 0 3.8 2.1 3.8 4.8v5.4h-3.2v-4.8c0-1.2 0-2.6-1.6-2.6s-1.9 1.2-1.9 2.5v4.9h-3.3z",
};

/**
 * Drawn glyphs, as strokes on a 24×24 grid, for the kinds of button that are
 * not one network (a globe, a bag, an envelope, …) and for Amazon, whose mark
 * is no longer in the set.
 */
const GLYPHS: Partial<Record<LinkType, string>> = {
  // A parcel with a smile under it.
  amazon: '<path d="M5 8h14v9H5zM9 8V5h6v3M7 20q5 2 10 0l1 1"/>',
  // A shopping bag.
  store: '<path d="M4 8h16l-1 13H5zM9 8V6a3 3 0 0 1 6 0v2"/>',
  // A globe.
  website: '<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3q-4 9 0 18M12 3q4 9 0 18"/>',
  // A calendar page.
  event: '<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4"/>',
  // Two beamed notes.
  music: '<path d="M9 18V5l11-2v13"/><circle cx="6" cy="18" r="3"/><circle cx="17" cy="16" r="3"/>',
  // An envelope.
  newsletter: '<rect x="3" y="5" width="18" height="14" rx="2"/><path d="M3 7l9 6 9-6"/>',
  // A microphone.
  podcast: '<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5 11a7 7 0 0 0 14 0M12 18v3"/>',
  // A briefcase.
  portfolio: '<rect x="3" y="7" width="18" height="13" rx="2"/><path d="M9 7V5h6v2M3 13h18"/>',
};

/**
 * The icon of a link type as inline SVG, hidden from assistive technology
 * (the link's own name says where it goes). Brand marks are filled (class
 * `f`), drawn glyphs stroked; the page's CSS gives both the theme's colour.
 */
export function linkIcon(type: LinkType): string {
  const brand = BRANDS[type];
  // Simple Icons' paths are drawn for the default fill rule; the drawn "in" needs even-odd for its holes.
  const rule = type === "linkedin" ? ' fill-rule="evenodd"' : "";
  if (brand) return `<svg class="f" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path${rule} d="${brand}"/></svg>`;
  return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${GLYPHS[type] ?? GLYPHS.website}</svg>`;
}

/** The bio host's favicon: the page's rounded square in the theme's colours. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#603f8b"/>' +
  '<path d="M9 11h14M9 16h14M9 21h9" stroke="#b4fee7" stroke-width="3" stroke-linecap="round"/><circle cx="23" cy="21" r="2.5" fill="#fd49a0"/></svg>';
