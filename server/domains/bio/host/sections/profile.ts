import type { PublicBioPage } from "#server/domains/bio/public-page";
import { photoSrcSet, photoUrl } from "#isomorphic/profile-photo";
import { escapeHtml } from "./escape";

/** The face's size on the page, in CSS pixels (5.5rem); the photo's 96 and 192 px sizes cover 1× and 2×. */
const FACE_PX = 88;

/** The photo sits where the initial's disc would, cropped round. */
export const PROFILE_STYLE = "img.i{display:block;object-fit:cover}";

/**
 * The owner's face: their photo (AVIF where the browser takes it, else WebP),
 * loaded at once as the first thing a visitor sees, or their initial. Its alt
 * is empty: the name is the heading right below it.
 */
function face(page: PublicBioPage): string {
  if (!page.photoId) {
    const initial = [...page.name.trim()][0]?.toLocaleUpperCase("en-US") ?? "";
    return `<div class="i" aria-hidden="true">${escapeHtml(initial)}</div>`;
  }
  const id = page.photoId;
  return (
    `<picture><source type="image/avif" srcset="${escapeHtml(photoSrcSet(id, FACE_PX, "avif"))}">` +
    `<img class="i" src="${escapeHtml(photoUrl(id, 96))}" srcset="${escapeHtml(photoSrcSet(id, FACE_PX))}" width="${FACE_PX}" height="${FACE_PX}" alt="" fetchpriority="high"></picture>`
  );
}

/** The top of the page: the owner's face, the page's name and its blurb. */
export function profileSection(page: PublicBioPage): string {
  return (
    `<header>${face(page)}<h1>${escapeHtml(page.name)}</h1>` +
    (page.blurb.trim() ? `<p class="b">${escapeHtml(page.blurb.replace(/\r\n?/g, "\n").trim())}</p>` : "") +
    `</header>`
  );
}
