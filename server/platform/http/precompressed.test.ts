import express from "express";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressedAssets } from "./precompressed";

describe("precompressed assets", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-assets-"));
  const script = Buffer.from(`console.log(${JSON.stringify("x".repeat(5000))});`);
  let base = "";
  let close = () => {};
  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, "entry-abc.js"), script);
    fs.writeFileSync(path.join(dir, "entry-abc.js.br"), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dir, "plain-abc.js"), script); // no .br beside it
    const app = express();
    app.use("/assets", precompressedAssets(dir));
    app.use("/assets", express.static(dir));
    const server = app.listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => {
    close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (file: string, encoding: string) =>
    fetch(`${base}/assets/${file}`, { headers: { "Accept-Encoding": encoding }, decompress: false } as RequestInit);

  it("sends the build's brotli file to a browser that accepts brotli, as the script it encodes", async () => {
    const response = await get("entry-abc.js", "gzip, deflate, br");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect(response.headers.get("vary")).toContain("Accept-Encoding");
    expect(Buffer.from(await response.arrayBuffer()).equals(script)).toBe(true); // fetch decodes br
  });

  it("leaves other clients, and files without a brotli copy, to the static files as before", async () => {
    for (const [file, encoding] of [["entry-abc.js", "gzip"], ["entry-abc.js", "identity"], ["plain-abc.js", "br"]] as const) {
      const response = await get(file, encoding);
      expect(response.status, `${file} ${encoding}`).toBe(200);
      expect(response.headers.get("content-encoding"), `${file} ${encoding}`).toBeNull();
      expect(Buffer.from(await response.arrayBuffer()).equals(script)).toBe(true);
    }
    expect((await get("entry-abc.js.br.br", "br")).status).toBe(404);
    expect((await get("missing.js", "br")).status).toBe(404);
  });
});
