/**
 * What a file really is, from its first bytes. The name's extension and the
 * browser's Content-Type are the sender's claims; these are the file's own.
 */
export type ImageKind = "jpeg" | "png" | "webp" | "heif" | "avif";
/** Kinds we recognise and refuse, each with its own message. */
export type RefusedKind = "svg" | "gif" | "html" | "pdf";

const startsWith = (bytes: Uint8Array, at: number, magic: number[]) => magic.every((byte, i) => bytes[at + i] === byte);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

// ISO base media (HEIF family): `ftyp` at 4, the major brand at 8.
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]);
const AVIF_BRANDS = new Set(["avif", "avis"]);

export function sniffImage(bytes: Uint8Array): ImageKind | RefusedKind | null {
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  if (ascii(bytes, 4, 8) === "ftyp") {
    const brand = ascii(bytes, 8, 12);
    if (AVIF_BRANDS.has(brand)) return "avif";
    if (HEIF_BRANDS.has(brand)) return "heif";
    return null;
  }
  if (ascii(bytes, 0, 4) === "GIF8") return "gif";
  if (ascii(bytes, 0, 5) === "%PDF-") return "pdf";
  // Markup: SVG (which can carry script) and HTML, after a BOM and white space.
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, "").trimStart().toLowerCase();
  if (head.startsWith("<")) return head.includes("<svg") ? "svg" : "html";
  return null;
}
