import zlib from "node:zlib";
import sharp from "sharp";

/**
 * A phone-like photo: a sky gradient, many small shapes and sensor noise, so
 * it compresses like a real picture (a flat colour would make every size
 * figure meaningless). By default 12 MP, about 5 MB as JPEG, with EXIF that
 * names the camera and where it was taken.
 */
export async function phonePhoto({ width = 4032, height = 3024, quality = 85, noise = 12, orientation, seed = 7 }: { width?: number; height?: number; quality?: number; noise?: number; orientation?: number; seed?: number } = {}): Promise<Buffer> {
  // Drawn at a quarter of the size (rendering SVG is slow), then scaled up: the detail a face
  // photo has at 192 px (hair, foliage) comes from many small shapes, the grain from noise.
  const [w, h] = [Math.round(width / 4), Math.round(height / 4)];
  let state = seed;
  const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
  let shapes = "";
  for (let i = 0; i < 1500; i++) {
    shapes += `<circle cx="${Math.floor(random() * w)}" cy="${Math.floor(random() * h)}" r="${(2 + random() * 22).toFixed(1)}" fill="hsl(${Math.floor(random() * 360)},${Math.floor(30 + random() * 60)}%,${Math.floor(25 + random() * 50)}%)" fill-opacity="0.7"/>`;
  }
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
      `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3a7bd5"/><stop offset="0.6" stop-color="#f3c98b"/><stop offset="1" stop-color="#5b3b1f"/></linearGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#s)"/>${shapes}` +
      `<ellipse cx="${w / 2}" cy="${h * 0.42}" rx="${w * 0.16}" ry="${h * 0.26}" fill="#e0b090"/>` +
      `</svg>`,
  );
  const drawn = await sharp(scene).resize(width, height).raw().toBuffer();
  const grain = await sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: noise } } })
    .raw()
    .toBuffer();
  return sharp(drawn, { raw: { width, height, channels: 3 } })
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
