// Lighthouse (mobile: its default phone emulation and throttling) on the guest
// pages that matter most, against the built server on a fresh embedded database:
// performance, accessibility and SEO scores, the compressed JavaScript each page loads and
// everything it transferred; also the demo bio page on the bio host (http://bio.localhost:PORT).
//   npm run build && CHROME_PATH=/usr/bin/chromium node bench/lighthouse.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { freePort, startProgram } from "./lib/app-server.mjs";
import lighthouse from "lighthouse";

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-lighthouse-"));
const server = await startProgram({
  port,
  env: { NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
});
const { base } = server;

let chrome;
try {
  const list = await (await fetch(`${base}/app/opportunities`)).text();
  const detail = list.match(/href="(\/app\/opportunities\/[0-9]{10}_[A-Za-z0-9]+)"/)?.[1];
  // Chromium resolves *.localhost to this machine: the bio host needs no DNS.
  const pages = ["/", "/app/opportunities", ...(detail ? [detail] : []), `http://bio.localhost:${port}/mayamakes`];

  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  console.log(`lighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model}`);
  console.log("page                                                 performance   a11y   SEO   JS bytes (compressed)   JS requests   bytes transferred");
  for (const page of pages) {
    const { lhr } = await lighthouse(page.startsWith("http") ? page : `${base}${page}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "seo"],
    });
    const scripts = lhr.audits["resource-summary"].details.items.find((item) => item.resourceType === "script");
    const perf = lhr.categories.performance.score;
    const seo = lhr.categories.seo.score;
    const a11y = lhr.categories.accessibility.score;
    const total = lhr.audits["total-byte-weight"].numericValue;
    // A category Lighthouse could not score (a page that failed to load in time) shows as "err".
    const score = (value) => (value === null ? "err" : value.toFixed(2));
    const shown = page.startsWith("http") ? page.replace(/:\d+\//, ":PORT/") : page;
    console.log(
      `${shown.padEnd(52)}${score(perf).padStart(12)}${score(a11y).padStart(7)}${score(seo).padStart(6)}${String(scripts?.transferSize ?? 0).padStart(24)}${String(scripts?.requestCount ?? 0).padStart(14)}${String(total).padStart(20)}`,
    );
    const failing = lhr.categories.seo.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit.score !== null && audit.score < 1)
      .map((audit) => audit.id);
    if (failing.length) console.log(`  SEO audits not passed: ${failing.join(", ")}`);
    const inaccessible = lhr.categories.accessibility.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit.score !== null && audit.score < 1)
      .map((audit) => audit.id);
    if (inaccessible.length) console.log(`  accessibility audits not passed: ${inaccessible.join(", ")}`);
    const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift"]
      .map((id) => `${id.replace(/-/g, " ")} ${lhr.audits[id].displayValue}`)
      .join(", ");
    console.log(`  ${metrics}`);
  }
} finally {
  await chrome?.kill();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
