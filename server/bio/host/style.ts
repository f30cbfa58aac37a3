import crypto from "node:crypto";
import { PROFILE_STYLE } from "./sections/profile";

/**
 * The bio host's only stylesheet, inlined in every page it serves (one
 * request less than a file; about 1.5 KB before compression). Its hash is the
 * whole `style-src` of the host's CSP, so no other style, and no script at
 * all, can run there.
 *
 * Theme (SPEC §9): purple #603f8b ground, mint #b4fee7 link cards, pink
 * #fd49a0 only where no text sits on it against purple (contrast). System
 * fonts: nothing to download.
 */
export const BIO_STYLE = [
  "*{box-sizing:border-box}",
  'html{background:#603f8b;color:#fff;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}',
  "body{margin:0 auto;max-width:36rem;padding:2.5rem 1rem 2rem}",
  "header{text-align:center}",
  ".i{display:grid;place-items:center;width:5.5rem;height:5.5rem;margin:0 auto 1rem;border-radius:50%;background:#fd49a0;color:#2b1a40;font-size:2.5rem;font-weight:700}",
  "h1{margin:0;font-size:1.6rem;line-height:1.25;overflow-wrap:anywhere}",
  ".b{margin:.75rem 0 0;white-space:pre-line;overflow-wrap:anywhere}",
  "ul{list-style:none;margin:1.5rem 0 0;padding:0;display:grid;gap:.75rem}",
  ".l a{display:flex;align-items:center;gap:1rem;min-height:4rem;padding:.75rem 1rem;border:3px solid #b4fee7;border-radius:1rem;background:#b4fee7;color:#2b1a40;text-decoration:none}",
  ".l a:hover{border-color:#fd49a0}",
  ".l a:focus-visible{outline:3px solid #fff;outline-offset:3px}",
  "svg{flex:none;width:28px;height:28px;fill:none;stroke:#603f8b;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
  ".l b,.s b{display:block;font-size:1.05rem;overflow-wrap:anywhere}",
  ".l small{display:block;font-size:.85rem;color:#4b2f70;overflow-wrap:anywhere}",
  "h2{margin:2.5rem 0 0;font-size:1.2rem;text-align:center}",
  ".s li{padding:1rem;border-left:6px solid #fd49a0;border-radius:1rem;background:#fff;color:#2b1a40}",
  // Sponsor / Send a tip: links that look like buttons, 44 px tall (touch target), pink ring on focus.
  ".p{display:inline-block;min-height:2.75rem;margin-top:.5rem;padding:.6rem 1.25rem;border-radius:2rem;background:#603f8b;color:#fff;font-weight:700;text-decoration:none}",
  ".p:hover{background:#4b2f70}",
  ".p:focus-visible{outline:3px solid #fd49a0;outline-offset:2px}",
  ".s .p{display:table}",
  ".t{margin:2rem 0 0;text-align:center}",
  ".t .p{background:#fd49a0;color:#2b1a40}",
  ".t .p:hover{background:#b4fee7}",
  "footer{margin-top:3rem;text-align:center;font-size:.9rem}",
  "footer a,main>p a{color:#b4fee7}",
  PROFILE_STYLE,
].join("");

const STYLE_HASH = `'sha256-${crypto.createHash("sha256").update(BIO_STYLE).digest("base64")}'`;

/**
 * No script, no frame, no form, no plugin, no base: the one inline style by
 * its hash, images from the host itself (the favicon). Links to the networks
 * are plain navigations, which a CSP does not restrict. `connect-src 'self'`
 * opens nothing (no script runs to connect anywhere), but tools that fetch
 * /robots.txt from inside the page, as Lighthouse does, are held to it.
 */
export const BIO_CSP = `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
