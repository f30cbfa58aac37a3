import { describe, expect, it } from "vitest";
import { qrFileName, qrFileResponse } from "./qr-download.server";

const ADDRESS = "https://bizb.example/maya_makes";

describe("QR code downloads", () => {
  it("names the file after the app and the page's ending", () => {
    expect(qrFileName("Sponsorgrid", "maya_makes", "png")).toBe("sponsorgrid-maya_makes-qr.png");
    expect(qrFileName("Sponsor Grid!", "abc", "svg")).toBe("sponsor-grid-abc-qr.svg");
  });

  it("sends a 1024 px PNG as an attachment, kept by no shared cache", async () => {
    const response = await qrFileResponse(ADDRESS, "sponsorgrid-maya_makes-qr.png", "png");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="sponsorgrid-maya_makes-qr.png"');
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: width and height, big-endian, right after the chunk's length and type.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
  });

  it("sends an SVG document of the same size as an attachment", async () => {
    const response = await qrFileResponse(ADDRESS, "sponsorgrid-maya_makes-qr.svg", "svg");
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="sponsorgrid-maya_makes-qr.svg"');
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1024" height="1024" viewBox="0 0 \d+ \d+"/);
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });
});
