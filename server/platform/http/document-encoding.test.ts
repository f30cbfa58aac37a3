import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { documentEncoding, encodeDocument } from "./document-encoding";

const html = Buffer.from(`<!DOCTYPE html><html lang="en"><body>${"<p>Sponsorship opportunities for creators</p>".repeat(200)}</body></html>`);

describe("document encoding", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["gzip", "gzip"],
    ["br, gzip;q=0", "br"],
    ["deflate", null],
    ["identity", null],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["", null],
    [null, null],
  ] as const)("answers Accept-Encoding %j with %s", (header, expected) => {
    expect(documentEncoding(header)).toBe(expected);
  });

  it("compresses with brotli so that it decodes to the same document", async () => {
    const { body, encoding } = await encodeDocument(html, "gzip, deflate, br");
    expect(encoding).toBe("br");
    expect(body.length).toBeLessThan(html.length / 10);
    expect(zlib.brotliDecompressSync(body).equals(html)).toBe(true);
  });

  it("compresses with gzip for a client without brotli", async () => {
    const { body, encoding } = await encodeDocument(html, "gzip");
    expect(encoding).toBe("gzip");
    expect(zlib.gunzipSync(body).equals(html)).toBe(true);
  });

  it("sends the document as it is to a client that accepts no compression it knows", async () => {
    const { body, encoding } = await encodeDocument(html, "identity");
    expect(encoding).toBeNull();
    expect(body).toBe(html);
  });
});
