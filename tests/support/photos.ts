import zlib from "node:zlib";
import sharp from "sharp";

/**
 * A phone-like photo: a sky gradient, a few soft shapes and sensor noise, so
 * it compresses like a real picture (a flat colour would make every size
 * figure meaningless). By default 12 MP, about 5 MB as JPEG, with EXIF that
 * names the camera and where it was taken.
 */
export async function phonePhoto({ width = 4032, height = 3024, quality = 92, noise = 18, orientation }: { width?: number; height?: number; quality?: number; noise?: number; orientation?: number } = {}): Promise<Buffer> {
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3a7bd5"/><stop offset="0.6" stop-color="#f3c98b"/><stop offset="1" stop-color="#5b3b1f"/></linearGradient>` +
      `<radialGradient id="f" cx="0.5" cy="0.4" r="0.5"><stop offset="0" stop-color="#f1c6a8"/><stop offset="1" stop-color="#8a5a44"/></radialGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#s)"/>` +
      `<ellipse cx="${width / 2}" cy="${height * 0.42}" rx="${width * 0.16}" ry="${height * 0.26}" fill="url(#f)"/>` +
      `<circle cx="${width * 0.2}" cy="${height * 0.25}" r="${height * 0.12}" fill="#ffe27a" opacity="0.8"/>` +
      `<rect x="0" y="${height * 0.78}" width="${width}" height="${height * 0.22}" fill="#2f5d34" opacity="0.85"/>` +
      `</svg>`,
  );
  const grain = await sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: noise } } })
    .raw()
    .toBuffer();
  return sharp(scene)
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: "overlay" }])
    .jpeg({ quality })
    .withExif({
      IFD0: { Make: "TestPhone", Model: "Camera 12", ...(orientation ? { Orientation: String(orientation) } : {}) },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 1234/100", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 3900/100" },
    })
    .toBuffer();
}

/** A tiny PNG that says it is `width` × `height` pixels: a decompression bomb's header. */
export async function pixelBombPng(width = 100_000, height = 100_000): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } }).png().toBuffer());
  // IHDR is the first chunk: length (4) at 8, type (4) at 12, width at 16, height at 20, CRC after its 13 data bytes.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}
