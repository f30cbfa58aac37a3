import crypto from "node:crypto";
import { GOAL_STYLE } from "./sections/goal";
import { WALL_STYLE } from "./sections/wall";
import { SPONSORSHIPS_STYLE } from "./sections/sponsorships";
import { SUPPORT_STYLE } from "./sections/support";
import { LINKS_STYLE } from "./sections/links";
import { fontStack, themeOf, type BioTheme } from "#isomorphic/bio-theme";
import { PROFILE_STYLE } from "./sections/profile";
import { PACKAGES_STYLE } from "./sections/packages";
import { MEMBERSHIPS_STYLE } from "./sections/memberships";

/**
 * The bio host's stylesheet, inlined in every page it serves (one request
 * less than a file; about 1.5 KB before compression), and the page's theme
 * as a second, tiny inline style of CSS custom properties:
 *
 *   --bg      page background        --fg      text on the background
 *   --btn     button/card background --btn-fg  text on buttons and cards
 *   --font    the font stack
 *
 * Every colour below is one of these, so every theme works: the theme
 * helper (isomorphic/bio-theme.ts) holds fg/bg and btn-fg/btn to 4.5:1 and
 * btn/bg to 3:1. Each page's CSP lists the hashes of its own style elements,
 * so no other style, and no script at all, can run there.
 */
export const BIO_STYLE = [
  "*{box-sizing:border-box}",
  "html{background:var(--bg);color:var(--fg);font:16px/1.5 var(--font);-webkit-text-size-adjust:100%}",
  "body{margin:0 auto;max-width:36rem;padding:2.5rem 1rem 2rem}",
  "header{text-align:center}",
  ".i{display:grid;place-items:center;width:5.5rem;height:5.5rem;margin:0 auto 1rem;border-radius:50%;background:var(--btn);color:var(--btn-fg);font-size:2.5rem;font-weight:700}",
  "h1{margin:0;font-size:1.6rem;line-height:1.25;overflow-wrap:anywhere}",
  ".b{margin:.75rem 0 0;white-space:pre-line;overflow-wrap:anywhere}",
  "ul{list-style:none;margin:1.5rem 0 0;padding:0;display:grid;gap:.75rem}",
  ".l a{display:flex;align-items:center;gap:1rem;min-height:4rem;padding:.75rem 1rem;border:3px solid var(--btn);border-radius:1rem;background:var(--btn);color:var(--btn-fg);text-decoration:none}",
  ".l a:hover{border-color:var(--btn-fg)}",
  "a:focus-visible{outline:3px solid var(--fg);outline-offset:3px}",
  "svg{flex:none;width:28px;height:28px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
  ".l b,.s b{display:block;font-size:1.05rem;overflow-wrap:anywhere}",
  ".l small{display:block;font-size:.85rem;overflow-wrap:anywhere}",
  "h2{margin:2.5rem 0 0;font-size:1.2rem;text-align:center}",
  ".s li{padding:1rem;border-radius:1rem;background:var(--btn);color:var(--btn-fg)}",
  // Sponsor / Send a tip: links that look like buttons, 44 px tall (touch target); on a card, the card's colours swapped.
  ".p{display:inline-block;min-height:2.75rem;margin-top:.5rem;padding:.6rem 1.25rem;border:2px solid var(--btn);border-radius:2rem;background:var(--btn);color:var(--btn-fg);font-weight:700;text-decoration:none}",
  ".p:hover{text-decoration:underline}",
  ".s .p{display:table;border-color:var(--btn-fg);background:var(--btn-fg);color:var(--btn)}",
  ".s .p:focus-visible{outline-color:var(--btn-fg)}",
  ".t{margin:2rem 0 0;text-align:center}",
  "footer{margin-top:3rem;text-align:center;font-size:.9rem}",
  "footer a,main>p a{color:var(--fg)}",
  GOAL_STYLE,
  WALL_STYLE,
  SUPPORT_STYLE,
  SPONSORSHIPS_STYLE,
  PACKAGES_STYLE,
  MEMBERSHIPS_STYLE,
  LINKS_STYLE,
  PROFILE_STYLE,
].join("");

/** The page's theme as the custom properties above (values checked by `themeOf`, so nothing else reaches the CSS). */
export function themeStyle(stored: BioTheme | null | undefined): string {
  const theme = themeOf(stored);
  return `:root{--bg:${theme.background};--fg:${theme.text};--btn:${theme.button};--btn-fg:${theme.buttonText};--font:${fontStack(theme.font)}}`;
}

/** The page's style elements: the theme, then the shared stylesheet. */
export function styleElements(theme: BioTheme | null | undefined): string {
  return `<style>${themeStyle(theme)}</style><style>${BIO_STYLE}</style>`;
}

const hashOf = (css: string) => `'sha256-${crypto.createHash("sha256").update(css).digest("base64")}'`;
const BASE_HASH = hashOf(BIO_STYLE);
// A theme is one of a few presets or rarely changed custom colours: its hash is remembered (bounded, pure).
const themeHashes = new Map<string, string>();

function styleHash(css: string): string {
  if (css === BIO_STYLE) return BASE_HASH;
  let hash = themeHashes.get(css);
  if (hash === undefined) {
    hash = hashOf(css);
    if (themeHashes.size < 1000) themeHashes.set(css, hash);
  }
  return hash;
}

const STYLE_ELEMENT = /<style>([^<]*)<\/style>/g;

/**
 * The CSP of one document drawn by the host: its inline style elements by
 * their hashes, and nothing else. No script, no frame, no form, no plugin,
 * no base: images from the host itself (the favicon, photos). Links to the
 * networks are plain navigations, which a CSP does not restrict.
 * `connect-src 'self'` opens nothing (no script runs to connect anywhere),
 * but tools that fetch /robots.txt from inside the page, as Lighthouse does,
 * are held to it. Visitor text never reaches a style element (it is
 * escaped), so every style element is the host's own.
 */
export function bioCspFor(html: string, frameAncestors = "'none'"): string {
  const hashes = [...new Set([...html.matchAll(STYLE_ELEMENT)].map((match) => styleHash(match[1]!)))];
  return `default-src 'none'; style-src ${hashes.join(" ") || "'none'"}; img-src 'self'; connect-src 'self'; frame-ancestors ${frameAncestors}; base-uri 'none'; form-action 'none'`;
}
