// Probes and the metrics scrape next to page load.
//
//   npm run build && flock /tmp/bench.lock node bench/probes/run.mjs
//
// Builds nothing itself. Starts the built server on a fresh embedded database in a temporary
// folder (BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL instead, in a database of that
// name it empties first), with a METRICS_TOKEN. While autocannon loads pages (10 connections:
// the cached home page, the opportunity list, and a tag-filtered list, which is rendered every
// time), a fixed-rate generator sends 200 req/s to /livez, then to /readyz, on keep-alive
// connections, and times each answer from the moment it was due (so a stalled server's queue
// counts against it); then 50 scrapes of /metrics, one after another, under the same load.
// Targets: /livez p99 < 5 ms, /readyz p99 < 20 ms, scrape < 50 ms (bench/README.md, "Probes and metrics").
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startBuiltServer } from "../lib/app-server.mjs";
import { emptyPostgres } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SCRAPES = 50;
const TOKEN = "bench-only-metrics-token-0123456789";
const PAGES = ["/", "/app/opportunities", "/app/opportunities?tags%5B%5D=YouTube"];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const summary = (latencies) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) };
};

/** One GET on a keep-alive agent: its status and how long from `due` to the last byte. */
function timedGet(agent, url, due, headers = {}) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - due }));
    });
    request.on("error", () => resolve({ status: 0, ms: performance.now() - due }));
  });
}

/** RATE requests a second for SECONDS, sent when due whatever earlier ones are doing (an open loop, as a balancer probes). */
async function fixedRate(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const interval = 1000 / RATE;
  const start = performance.now();
  const pending = [];
  for (let i = 0; i < RATE * SECONDS; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(timedGet(agent, url, due));
  }
  const answers = await Promise.all(pending);
  agent.destroy();
  const failed = answers.filter((answer) => answer.status !== 200).length;
  return { ...summary(answers.map((answer) => answer.ms)), failed };
}

const loadavg = () => os.loadavg().map((value) => value.toFixed(2)).join(" ");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-probes-"));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? "";
if (databaseUrl) await emptyPostgres(databaseUrl);
const server = await startBuiltServer({ root: ROOT, dataDir: databaseUrl ? "" : dataDir, databaseUrl, env: { METRICS_TOKEN: TOKEN } });
try {
  const base = server.base;
  console.log(`engine: ${databaseUrl ? "PostgreSQL" : "PGlite"}; load average before: ${loadavg()}`);
  const pageLoad = autocannon({
    url: base,
    connections: 10,
    duration: SECONDS * 2 + 30,
    requests: PAGES.map((page) => ({ method: "GET", path: page, headers: { "accept-encoding": "gzip, deflate, br" } })),
  });
  await new Promise((resolve) => setTimeout(resolve, 2000));

  const livez = await fixedRate(`${base}/livez`);
  const readyz = await fixedRate(`${base}/readyz`);
  const agent = new http.Agent({ keepAlive: true });
  const scrapes = [];
  let scrapeBytes = 0;
  for (let i = 0; i < SCRAPES; i++) {
    const started = performance.now();
    const answer = await new Promise((resolve, reject) => {
      http
        .get(`${base}/metrics`, { agent, headers: { Authorization: `Bearer ${TOKEN}` } }, (res) => {
          const pieces = [];
          res.on("data", (piece) => pieces.push(piece));
          res.on("end", () => resolve({ status: res.statusCode, bytes: Buffer.concat(pieces).length }));
        })
        .on("error", reject);
    });
    if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
    scrapeBytes = answer.bytes;
    scrapes.push(performance.now() - started);
  }
  agent.destroy();
  const loadDuring = loadavg();
  pageLoad.stop();
  const pages = await pageLoad;

  const row = (name, s, target) =>
    `| ${name} | ${s.n} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.max.toFixed(2)} | ${target} | ${s.failed ?? 0} |`;
  console.log(`\npages alongside: ${Math.round(pages.requests.average)} req/s, non-2xx ${pages.non2xx}; load average during: ${loadDuring}\n`);
  console.log("| what | requests | p50 ms | p99 ms | max ms | target | failed |");
  console.log("|---|---:|---:|---:|---:|---|---:|");
  console.log(row(`/livez at ${RATE}/s`, livez, "p99 < 5 ms"));
  console.log(row(`/readyz at ${RATE}/s`, readyz, "p99 < 20 ms"));
  console.log(row(`/metrics scrape (${Math.round(scrapeBytes / 1024)} KB)`, summary(scrapes), "< 50 ms"));
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
