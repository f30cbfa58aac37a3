import crypto from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { PHOTO_SIZES, type PhotoSize } from "#isomorphic/profile-photo";
import { PHOTO_MAX_BYTES, PHOTO_MAX_TEXT, PHOTO_TYPES_TEXT } from "#isomorphic/photo-upload";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { sniffImage, type ImageKind } from "./sniff";

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
  const largest = PHOTO_SIZES[PHOTO_SIZES.length - 1]!;
  const decoded = await decodeImage(file, PHOTO_CHECKS, (source) =>
    source
      .rotate()
      .resize(largest, largest, { fit: "cover", position: sharp.strategy.attention })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  if (decoded.kind === "ERROR") return decoded;
  const { data, info } = decoded.value;
  const { width, height, channels } = info;
  const variants: PhotoVariant[] = [];
  for (const size of PHOTO_SIZES) {
    const pixels = sharp(data, { raw: { width, height, channels } }).resize(size, size);
    for (const format of PHOTO_FORMATS) {
      // AVIF at its fastest effort: at these sizes the files come out the same size (±3 %), and
      // effort 3 took 40× as long (0.4–0.8 s a photo on two busy cores; bench/README.md).
      const encoded = format === "webp" ? pixels.clone().webp({ quality: 78, effort: 4 }) : pixels.clone().avif({ quality: 52, effort: 0 });
      variants.push({ size, format, bytes: await encoded.toBuffer() });
    }
  }
  return success({ variants });
}

/** What one use of uploaded images takes: the kinds it accepts, its size cap, and its words for each refusal. */
export type ImageChecks = { accepted: ReadonlySet<ImageKind>; maxBytes: number; messages: Record<keyof typeof PHOTO_MESSAGES, string> };

const PHOTO_CHECKS: ImageChecks = { accepted: new Set(["jpeg", "png", "webp", "heif", "avif"]), maxBytes: PHOTO_MAX_BYTES, messages: PHOTO_MESSAGES };

/**
 * The one gate every uploaded image passes (profile photos, the deal room's files): the real type
 * read from the bytes and held to `checks.accepted`, the decoder's own reading made to agree with
 * it, the pixel count capped before any pixel is decoded, then `pipeline` run over the source
 * (which must decode it whole, so a damaged file fails here) under a time limit. Any decode
 * failure is a refusal in the caller's words, never a throw.
 */
export async function decodeImage<T>(file: Buffer, checks: ImageChecks, pipeline: (source: Sharp, kind: ImageKind) => Promise<T>): Promise<Success<{ value: T }> | PhotoRefusal> {
  const { messages } = checks;
  if (file.length === 0) return refusal("invalid-argument", "EMPTY", messages.empty);
  if (file.length > checks.maxBytes) return refusal("invalid-argument", "TOO_LARGE", messages.tooLarge);
  const kind = sniffImage(file);
  if (kind === "svg") return refusal("unsupported-media-type", "NOT_AN_IMAGE", messages.svg);
  if (kind === "gif") return refusal("unsupported-media-type", "NOT_AN_IMAGE", messages.gif);
  if (kind === "heif" && !checks.accepted.has("heif")) return refusal("unsupported-media-type", "NOT_AN_IMAGE", messages.heic);
  if (kind === null || kind === "html" || kind === "pdf" || !checks.accepted.has(kind)) return refusal("unsupported-media-type", "NOT_AN_IMAGE", messages.notImage);
  try {
    const source = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true, pages: 1 });
    const meta = await source.metadata();
    // The decoder must agree with the bytes' own signature (sharp calls HEIC and AVIF both "heif").
    if (meta.format !== (kind === "avif" ? "heif" : kind)) return refusal("unsupported-media-type", "NOT_AN_IMAGE", messages.notImage);
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) return refusal("unprocessable-content", "TOO_MANY_PIXELS", messages.tooManyPixels);
    return success({ value: await pipeline(source.timeout({ seconds: TIMEOUT_SECONDS }), kind) });
  } catch (error) {
    return decodeRefusal(kind, error, messages);
  }
}

function decodeRefusal(kind: string, error: unknown, messages: ImageChecks["messages"]): PhotoRefusal {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return refusal("unprocessable-content", "TOO_MANY_PIXELS", messages.tooManyPixels);
  // Sharp's own build reads AVIF but not HEVC-coded HEIC (a patent-encumbered codec it leaves out).
  if (kind === "heif") return refusal("unsupported-media-type", "NOT_AN_IMAGE", messages.heic);
  return refusal("unprocessable-content", "BROKEN", messages.broken);
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
