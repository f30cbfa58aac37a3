// Measures what the public pages weigh as served: HTML bytes raw and gzip-compressed,
// plus the CSS every page loads. Run against a built server:
//   npm run build && node bench/page-weight.mjs
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const PAGES = ["/", "/youtube-sponsorships", "/support", "/blog", "/featured"];
const port = 3900 + Math.floor(Math.random() * 90);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-"));

const server = spawn(process.execPath, ["server.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
  stdio: ["ignore", "pipe", "inherit"],
});
const base = `http://localhost:${port}`;

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
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      if (i > 300) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
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
  server.kill("SIGTERM");
  await new Promise((r) => server.on("exit", r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
