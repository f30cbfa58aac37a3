// Lighthouse (mobile: its default phone emulation and throttling) on the guest
// pages that matter most, against the built server on a fresh embedded database:
// performance and SEO scores, and the compressed JavaScript each page loads.
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
  env: { NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
});
const { base } = server;

let chrome;
try {
  const list = await (await fetch(`${base}/app/opportunities`)).text();
  const detail = list.match(/href="(\/app\/opportunities\/[0-9]{10}_[A-Za-z0-9]+)"/)?.[1];
  const pages = ["/", "/app/opportunities", ...(detail ? [detail] : [])];

  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  console.log(`lighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model}`);
  console.log("page                                                 performance   SEO   JS bytes (compressed)   JS requests");
  for (const page of pages) {
    const { lhr } = await lighthouse(`${base}${page}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "seo"],
    });
    const scripts = lhr.audits["resource-summary"].details.items.find((item) => item.resourceType === "script");
    const perf = lhr.categories.performance.score;
    const seo = lhr.categories.seo.score;
    console.log(
      `${page.padEnd(52)}${perf.toFixed(2).padStart(12)}${seo.toFixed(2).padStart(6)}${String(scripts?.transferSize ?? 0).padStart(24)}${String(scripts?.requestCount ?? 0).padStart(14)}`,
    );
    const failing = lhr.categories.seo.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit.score !== null && audit.score < 1)
      .map((audit) => audit.id);
    if (failing.length) console.log(`  SEO audits not passed: ${failing.join(", ")}`);
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
