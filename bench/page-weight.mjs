// Measures what the public pages weigh as served: HTML bytes raw and gzip-compressed,
// plus the CSS every page loads. Run against a built server:
//   npm run build && node bench/page-weight.mjs
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort, startProgram } from "./lib/app-server.mjs";

const PAGES = ["/", "/youtube-sponsorships", "/support", "/blog", "/featured"];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-"));

const port = await freePort();
const server = await startProgram({
  port,
  env: { NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
});
const { base } = server;

/** Raw bytes on the wire (no automatic decompression) and the Content-Encoding. */
function getRaw(url, encoding) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { "Accept-Encoding": encoding } }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ body: Buffer.concat(chunks), encoding: res.headers["content-encoding"] ?? "identity" }));
    }).on("error", reject);
  });
}

try {
  const rows = [];
  let css = null;
  for (const page of PAGES) {
    const { body: html } = await getRaw(base + page, "identity");
    const gzipped = await getRaw(base + page, "gzip");
    const scripts = (html.toString().match(/<script/g) ?? []).length;
    css ??= html.toString().match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
    rows.push({ page, html: html.length, gzip: gzipped.body.length, scripts, encoding: gzipped.encoding });
  }
  const { body: cssBody } = await getRaw(base + css, "identity");
  const { body: cssGzip } = await getRaw(base + css, "gzip");
  console.log(`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model}`);
  console.log("page                          html bytes   gzip bytes   <script> tags   served as");
  for (const r of rows) {
    console.log(`${r.page.padEnd(30)}${String(r.html).padStart(10)}${String(r.gzip).padStart(13)}${String(r.scripts).padStart(16)}   ${r.encoding ?? "identity"}`);
  }
  console.log(`${css} (shared, cached a year): ${cssBody.length} bytes, ${cssGzip.length} gzip`);
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
