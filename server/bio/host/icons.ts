import type { LinkType } from "#server/db/schema";

/**
 * One small glyph per link type, drawn for this page on a 24×24 grid as
 * strokes (the page's CSS gives them colour and width). They are simple
 * shapes that recall each network — a play button, a camera, a note — not
 * the networks' logos, which stay theirs. Only the glyphs a page uses are
 * inlined into it: no icon font, no extra request.
 */
const GLYPHS: Record<LinkType, string> = {
  // A parcel with a smile under it.
  amazon: '<path d="M5 8h14v9H5zM9 8V5h6v3M7 20q5 2 10 0l1 1"/>',
  // A lower-case f in a rounded square.
  facebook: '<rect x="3" y="3" width="18" height="18" rx="4"/><path d="M15 7h-1.5A2.5 2.5 0 0 0 11 9.5V21M8 12h6"/>',
  // A camera: rounded body, lens, flash.
  instagram: '<rect x="3" y="3" width="18" height="18" rx="5"/><circle cx="12" cy="12" r="4"/><path d="M17 7h.01"/>',
  // "in" in a rounded square.
  linkedin: '<rect x="3" y="3" width="18" height="18" rx="3"/><path d="M8 11v6M8 7.5v.01M12 17v-6M12 13.5a2.5 2.5 0 0 1 5 0V17"/>',
  // A circle beside an upright bar.
  patreon: '<circle cx="14.5" cy="9.5" r="5.5"/><path d="M4 4v16"/>',
  // A pin.
  pinterest: '<path d="M12 21s-6-6.2-6-11a6 6 0 0 1 12 0c0 4.8-6 11-6 11z"/><circle cx="12" cy="10" r="2"/>',
  // A round face with an antenna.
  reddit: '<ellipse cx="12" cy="14" rx="8" ry="6"/><path d="M12 8l1.5-5 4 1M9 13h.01M15 13h.01M9.5 16.5q2.5 1.5 5 0"/><circle cx="18.5" cy="4.5" r="1.5"/>',
  // A shopping bag.
  store: '<path d="M4 8h16l-1 13H5zM9 8V6a3 3 0 0 1 6 0v2"/>',
  // A musical note.
  tiktok: '<path d="M13 3v12.5a3.5 3.5 0 1 1-3.5-3.5M13 3q1 4 5 4"/>',
  // A speech bubble with two bars.
  twitch: '<path d="M5 3h15v11l-4 4h-4l-3 3v-3H5zM11 8v4M15 8v4"/>',
  // Two crossed strokes.
  twitter: '<path d="M5 4l14 16M19 4L5 20"/>',
  // A globe.
  website: '<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3q-4 9 0 18M12 3q4 9 0 18"/>',
  // A play button.
  youtube: '<rect x="2" y="5" width="20" height="14" rx="4"/><path d="M10 9v6l5-3z"/>',
};

/** The glyph of a link type as inline SVG, hidden from assistive technology (the label names the link). */
export function linkIcon(type: LinkType): string {
  return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${GLYPHS[type]}</svg>`;
}

/** The bio host's favicon: the page's rounded square in the theme's colours. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#603f8b"/>' +
  '<path d="M9 11h14M9 16h14M9 21h9" stroke="#b4fee7" stroke-width="3" stroke-linecap="round"/><circle cx="23" cy="21" r="2.5" fill="#fd49a0"/></svg>';
