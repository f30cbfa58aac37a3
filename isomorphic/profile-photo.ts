/**
 * Where a profile photo's sizes are served. A photo's id is the hash of its
 * re-encoded bytes, so its addresses never change meaning and can be cached
 * for a year (server/domains/media/).
 */
export const PHOTO_SIZES = [96, 192, 384] as const;
export type PhotoSize = (typeof PHOTO_SIZES)[number];

export function photoUrl(photoId: string, size: PhotoSize, format: "webp" | "avif" = "webp"): string {
  return `/media/photos/${photoId}-${size}.${format}`;
}

/** `srcset` for an image shown `shownPx` CSS pixels wide: 1× and 2× densities. */
export function photoSrcSet(photoId: string, shownPx: number, format: "webp" | "avif" = "webp"): string {
  const pick = (px: number): PhotoSize => PHOTO_SIZES.find((size) => size >= px) ?? PHOTO_SIZES[PHOTO_SIZES.length - 1]!;
  return `${photoUrl(photoId, pick(shownPx), format)} 1x, ${photoUrl(photoId, pick(shownPx * 2), format)} 2x`;
}
