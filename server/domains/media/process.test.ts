import fc from "fast-check";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { PHOTO_MAX_BYTES } from "#isomorphic/photo-upload";
import { phonePhoto, pixelBombPng } from "#tests/support/photos";
import { PHOTO_MESSAGES, photoIdOf, processPhoto } from "./process";
import { sniffImage } from "./sniff";

let photo: Buffer;
let png: Buffer;

beforeAll(async () => {
  photo = await phonePhoto({ width: 1600, height: 1200 });
  png = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } }).png().toBuffer();
});

const refusedWith = async (file: Buffer) => {
  const result = await processPhoto(file);
  if (result.kind === "SUCCESS") throw new Error("expected a refusal");
  return result;
};

describe("processPhoto", () => {
  it("makes every size in WebP and AVIF, square, from a phone photo", async () => {
    const result = await processPhoto(photo);
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(result.variants.map((v) => `${v.size}.${v.format}`)).toEqual(["96.webp", "96.avif", "192.webp", "192.avif", "384.webp", "384.avif"]);
    for (const variant of result.variants) {
      const meta = await sharp(variant.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([variant.size, variant.size]);
      expect(meta.format).toBe(variant.format === "webp" ? "webp" : "heif");
    }
    // The 2× size of the bio page's face stays within the page's photo budget.
    expect(result.variants.find((v) => v.size === 192 && v.format === "webp")!.bytes.length).toBeLessThanOrEqual(20 * 1024);
  });

  it("leaves no EXIF, GPS, XMP or ICC in what it serves", async () => {
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    expect(photo.includes(Buffer.from("TestPhone"))).toBe(true);
    const result = await processPhoto(photo);
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    for (const { bytes } of result.variants) {
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(bytes.includes(Buffer.from("TestPhone"))).toBe(false);
      expect(bytes.includes(Buffer.from("Exif"))).toBe(false);
    }
  });

  it("turns a photo the way its EXIF orientation says before cropping", async () => {
    // Left half red, right half blue as stored; orientation 6 shows it turned 90° clockwise: red on top.
    const halves = await sharp({ create: { width: 400, height: 200, channels: 3, background: "#0000ff" } })
      .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: "#ff0000" } }, left: 0, top: 0 }])
      .jpeg()
      .withExif({ IFD0: { Orientation: "6" } })
      .toBuffer();
    const result = await processPhoto(halves);
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    const { data } = await sharp(result.variants.find((v) => v.size === 96 && v.format === "webp")!.bytes).raw().toBuffer({ resolveWithObject: true });
    const top = [data[48 * 3]!, data[48 * 3 + 2]!];
    expect(top[0]).toBeGreaterThan(150);
    expect(top[1]).toBeLessThan(100);
  });

  it("takes PNG, WebP and AVIF by their bytes, whatever they were called", async () => {
    for (const file of [png, await sharp(png).webp().toBuffer(), await sharp(png).avif().toBuffer()]) {
      expect((await processPhoto(file)).kind).toBe("SUCCESS");
    }
  });

  it("refuses SVG, even named photo.jpg, with its own message", async () => {
    const svg = Buffer.from(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`);
    expect(await refusedWith(svg)).toMatchObject({ code: "unsupported-media-type", message: PHOTO_MESSAGES.svg });
  });

  it("says how to send a HEIC photo the decoder can't read", async () => {
    // An HEVC-coded HEIC's signature with no image the decoder can open behind it.
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic\0\0\0\0mif1heic"), Buffer.alloc(200, 7)]);
    expect(sniffImage(heic)).toBe("heif");
    expect((await refusedWith(heic)).message).toBe(PHOTO_MESSAGES.heic);
  });

  it("refuses GIFs, HTML and PDFs", async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#f00" } }).gif().toBuffer();
    expect((await refusedWith(gif)).message).toBe(PHOTO_MESSAGES.gif);
    expect((await refusedWith(Buffer.from("<!doctype html><p>hi"))).message).toBe(PHOTO_MESSAGES.notImage);
    expect((await refusedWith(Buffer.from("%PDF-1.7\n..."))).message).toBe(PHOTO_MESSAGES.notImage);
  });

  it("refuses a decompression bomb from its header, before decoding", async () => {
    const started = Date.now();
    expect(await refusedWith(await pixelBombPng())).toMatchObject({ reason: "TOO_MANY_PIXELS", message: PHOTO_MESSAGES.tooManyPixels });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("refuses truncated JPEGs and PNGs as damaged", async () => {
    for (const file of [photo, png]) {
      for (const keep of [0.3, 0.6, 0.9]) {
        const refused = await refusedWith(file.subarray(0, Math.floor(file.length * keep)));
        expect(refused.message).toMatch(/damaged|isn't a photo/);
      }
    }
  });

  it("takes a PNG with HTML after its end, and serves only re-encoded pixels", async () => {
    const polyglot = Buffer.concat([png, Buffer.from("<html><script>alert(document.cookie)</script></html>")]);
    const result = await processPhoto(polyglot);
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    for (const { bytes } of result.variants) expect(bytes.includes(Buffer.from("<script"))).toBe(false);
  });

  it("refuses an empty file and one over the size limit", async () => {
    expect((await refusedWith(Buffer.alloc(0))).message).toBe(PHOTO_MESSAGES.empty);
    expect((await refusedWith(Buffer.alloc(PHOTO_MAX_BYTES + 1, 0xff))).message).toBe(PHOTO_MESSAGES.tooLarge);
  });

  it("answers every random or mangled file with a refusal or a photo, never a throw", async () => {
    const jpegHead = photo.subarray(0, 4096);
    const mangled = fc.oneof(
      fc.uint8Array({ maxLength: 4096 }),
      // A real image's start with random bytes after it, or random bytes written over it.
      fc.uint8Array({ maxLength: 2048 }).map((tail) => Buffer.concat([jpegHead.subarray(0, 600), tail])),
      fc.uint8Array({ maxLength: 2048 }).map((tail) => Buffer.concat([png.subarray(0, 33), tail])),
      fc.tuple(fc.nat({ max: png.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
        const copy = Buffer.from(png);
        copy[at] = byte;
        return copy;
      }),
    );
    await fc.assert(
      fc.asyncProperty(mangled, async (bytes) => {
        const result = await processPhoto(Buffer.from(bytes));
        expect(["SUCCESS", "ERROR"]).toContain(result.kind);
        if (result.kind === "ERROR") expect(result.message.length).toBeGreaterThan(10);
      }),
      { numRuns: 150 },
    );
  });
});

describe("sniffImage", () => {
  it("reads the kind from the bytes", async () => {
    expect(sniffImage(photo)).toBe("jpeg");
    expect(sniffImage(png)).toBe("png");
    expect(sniffImage(await sharp(png).webp().toBuffer())).toBe("webp");
    expect(sniffImage(await sharp(png).avif().toBuffer())).toBe("avif");
    expect(sniffImage(Buffer.from("\uFEFF  <svg xmlns='http://www.w3.org/2000/svg'/>"))).toBe("svg");
    expect(sniffImage(Buffer.from("hello"))).toBeNull();
  });
});

describe("photoIdOf", () => {
  it("is the same for the same owner and bytes, and differs between owners", async () => {
    const result = await processPhoto(png);
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(photoIdOf("a", result.variants)).toBe(photoIdOf("a", result.variants));
    expect(photoIdOf("a", result.variants)).not.toBe(photoIdOf("b", result.variants));
    expect(photoIdOf("a", result.variants)).toMatch(/^[0-9a-f]{32}$/);
  });
});
