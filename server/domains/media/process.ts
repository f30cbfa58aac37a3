import crypto from "node:crypto";
import sharp from "sharp";
import { PHOTO_SIZES, type PhotoSize } from "#isomorphic/profile-photo";
import { PHOTO_MAX_BYTES, PHOTO_MAX_TEXT, PHOTO_TYPES_TEXT } from "#isomorphic/photo-upload";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { sniffImage } from "./sniff";

export const PHOTO_FORMATS = ["webp", "avif"] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];
export type PhotoVariant = { size: PhotoSize; format: PhotoFormat; bytes: Buffer };

/**
 * 48 megapixels: every phone's full-size photo, far below what would take
 * memory to its knees. A file that declares more (a decompression bomb is a
 * few kilobytes that unpack to gigabytes) is refused before any pixel is decoded.
 */
export const MAX_INPUT_PIXELS = 48_000_000;
/** A decode that takes longer than this is given up (a hostile file, or a machine in trouble). */
const TIMEOUT_SECONDS = 20;

export const PHOTO_MESSAGES = {
  empty: "Choose a photo to upload.",
  tooLarge: `That file is larger than ${PHOTO_MAX_TEXT}. Choose a smaller photo, or export it at a smaller size.`,
  svg: `SVG drawings aren't taken as profile photos (they can carry scripts). Upload a photo as ${PHOTO_TYPES_TEXT}.`,
  gif: `GIFs aren't taken as profile photos. Upload a still photo as ${PHOTO_TYPES_TEXT}.`,
  notImage: `That file isn't a photo we can read. Upload a ${PHOTO_TYPES_TEXT} file of up to ${PHOTO_MAX_TEXT}.`,
  heic: "This HEIC photo can't be read here. On your phone, share or export it as JPEG (most phones offer “Most compatible”), then upload that.",
  tooManyPixels: "That image is too large in pixels (more than 48 megapixels). Upload a smaller copy of it.",
  broken: "That photo looks damaged or cut short, so it can't be used. Try uploading it again, or choose another one.",
} as const;

type PhotoRefusalReason = "EMPTY" | "TOO_LARGE" | "NOT_AN_IMAGE" | "TOO_MANY_PIXELS" | "BROKEN";
export type PhotoRefusal = Refusal<"invalid-argument" | "unsupported-media-type" | "unprocessable-content", PhotoRefusalReason>;
export type ProcessedPhoto = Success<{ variants: PhotoVariant[] }>;

/**
 * An uploaded file → the photo's variants (PHOTO_SIZES × PHOTO_FORMATS): the
 * real type read from the bytes; EXIF orientation applied, then every other
 * piece of metadata (EXIF, GPS, XMP, ICC, comments) left behind, because only
 * decoded pixels go on; a square crop around what draws the eye; re-encoded.
 * Nothing of the file itself reaches a visitor, so a polyglot (a PNG with HTML
 * after its end) loses everything but its pixels.
 */
export async function processPhoto(file: Buffer): Promise<ProcessedPhoto | PhotoRefusal> {
  if (file.length === 0) return refusal("invalid-argument", "EMPTY", PHOTO_MESSAGES.empty);
  if (file.length > PHOTO_MAX_BYTES) return refusal("invalid-argument", "TOO_LARGE", PHOTO_MESSAGES.tooLarge);
  const kind = sniffImage(file);
  if (kind === "svg") return refusal("unsupported-media-type", "NOT_AN_IMAGE", PHOTO_MESSAGES.svg);
  if (kind === "gif") return refusal("unsupported-media-type", "NOT_AN_IMAGE", PHOTO_MESSAGES.gif);
  if (kind === null || kind === "html" || kind === "pdf") return refusal("unsupported-media-type", "NOT_AN_IMAGE", PHOTO_MESSAGES.notImage);

  const largest = PHOTO_SIZES[PHOTO_SIZES.length - 1]!;
  let square: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
  try {
    const source = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true, pages: 1 });
    const meta = await source.metadata();
    // The decoder must agree with the bytes' own signature (sharp calls HEIC and AVIF both "heif").
    if (meta.format !== (kind === "avif" ? "heif" : kind)) return refusal("unsupported-media-type", "NOT_AN_IMAGE", PHOTO_MESSAGES.notImage);
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) return refusal("unprocessable-content", "TOO_MANY_PIXELS", PHOTO_MESSAGES.tooManyPixels);
    square = await source
      .timeout({ seconds: TIMEOUT_SECONDS })
      .rotate()
      .resize(largest, largest, { fit: "cover", position: sharp.strategy.attention })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    return decodeRefusal(kind, error);
  }

  const { width, height, channels } = square.info;
  const variants: PhotoVariant[] = [];
  for (const size of PHOTO_SIZES) {
    const pixels = sharp(square.data, { raw: { width, height, channels } }).resize(size, size);
    for (const format of PHOTO_FORMATS) {
      // AVIF at its fastest effort: at these sizes the files come out the same size (±3 %), and
      // effort 3 took 40× as long (0.4–0.8 s a photo on two busy cores; bench/README.md).
      const encoded = format === "webp" ? pixels.clone().webp({ quality: 78, effort: 4 }) : pixels.clone().avif({ quality: 52, effort: 0 });
      variants.push({ size, format, bytes: await encoded.toBuffer() });
    }
  }
  return success({ variants });
}

function decodeRefusal(kind: string, error: unknown): PhotoRefusal {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return refusal("unprocessable-content", "TOO_MANY_PIXELS", PHOTO_MESSAGES.tooManyPixels);
  // Sharp's own build reads AVIF but not HEVC-coded HEIC (a patent-encumbered codec it leaves out).
  if (kind === "heif") return refusal("unsupported-media-type", "NOT_AN_IMAGE", PHOTO_MESSAGES.heic);
  return refusal("unprocessable-content", "BROKEN", PHOTO_MESSAGES.broken);
}

/**
 * The photo's id: a hash of its owner and its encoded bytes. The same picture
 * uploaded by two people is two photos, so removing one never takes away the other's.
 */
export function photoIdOf(uid: string, variants: PhotoVariant[]): string {
  const hash = crypto.createHash("sha256").update(uid).update("\0");
  for (const variant of variants) hash.update(`${variant.size}.${variant.format}:${variant.bytes.length}\0`).update(variant.bytes);
  return hash.digest("hex").slice(0, 32);
}
