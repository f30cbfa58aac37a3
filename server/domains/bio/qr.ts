import QRCode, { type QRCodeToStringOptions } from "qrcode";

/** A print-friendly PNG: 1024 px is about 8.7 cm at 300 dpi, sharp on a poster or a flyer. */
export const QR_PNG_SIZE = 1024;

// Black on white with the standard 4-module quiet zone: every scanner reads it, on screen and in
// print. Level M survives about 15% damage, plenty for an address of this length.
const OPTIONS = { errorCorrectionLevel: "M", margin: 4, color: { dark: "#000000", light: "#ffffff" } } as const;

/** The public address of a bio page, as printed in its QR code: {BIO_ORIGIN}/{ending}. */
export function bioPageAddress(bioOrigin: string, customEnding: string): string {
  return `${new URL(bioOrigin).origin}/${customEnding}`;
}

/**
 * The QR code as an SVG document. `size` sets its width and height (for a
 * download that opens at a useful size); without it the SVG fills its box.
 */
export async function qrSvg(address: string, size?: number): Promise<string> {
  // Drawing one costs about a millisecond of CPU and the creator's home shows it on every visit:
  // the few addresses drawn lately are kept (the same address always draws the same code).
  const key = `${size ?? ""} ${address}`;
  const kept = recentSvgs.get(key);
  if (kept !== undefined) return kept;
  const options: QRCodeToStringOptions = { ...OPTIONS, type: "svg", ...(size ? { width: size } : {}) };
  const svg = await QRCode.toString(address, options);
  if (recentSvgs.size >= RECENT_SVGS) recentSvgs.delete(recentSvgs.keys().next().value!);
  recentSvgs.set(key, svg);
  return svg;
}

/** About 5 KB each: a few hundred creators' codes in a megabyte or two. */
const RECENT_SVGS = 300;
const recentSvgs = new Map<string, string>();

export async function qrPng(address: string, size = QR_PNG_SIZE): Promise<Buffer> {
  return QRCode.toBuffer(address, { ...OPTIONS, type: "png", width: size });
}
