// Probes and the metrics scrape next to page load.
//
//   npm run build && flock /tmp/bench.lock node bench/probes/run.mjs
//
// Builds nothing itself. Starts the built server on a fresh embedded database in a temporary
// folder (BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL instead, in a database of that
// name it empties first), with a METRICS_TOKEN. While autocannon, in processes of its own, loads
// guest pages (the home page and the opportunity list, 5 connections each, as fast as they are
// answered), a fixed-rate generator sends 200 req/s to /livez, then to /readyz, on keep-alive
// connections, and times each from its sending to its last byte; then 50 scrapes of /metrics, one
// after another, under the same load. PAGE_LOAD=rendered loads the tag-filtered list instead,
// which is rendered on every request (what a probe waits behind when renders fill the event loop);
// PAGE_LOAD=none measures the probes alone (the machine's own noise).
// Targets: /livez p99 < 5 ms, /readyz p99 < 20 ms, scrape < 50 ms (bench/README.md, "Probes and metrics").
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { startBuiltServer } from "../lib/app-server.mjs";
import { emptyPostgres } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SCRAPES = 50;
const TOKEN = "bench-only-metrics-token-0123456789";
const PAGES = process.env.PAGE_LOAD === "none" ? [] : process.env.PAGE_LOAD === "rendered" ? ["/app/opportunities?tags%5B%5D=YouTube", "/app/opportunities?tags%5B%5D=Podcast"] : ["/", "/app/opportunities"];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const summary = (latencies) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) };
};

/** One GET on a keep-alive agent: its status and how long from its sending to the last byte. */
function timedGet(agent, url, headers = {}) {
  return new Promise((resolve) => {
    const due = performance.now();
    const request = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - due }));
    });
    request.on("error", () => resolve({ status: 0, ms: performance.now() - due }));
  });
}

/** RATE requests a second for SECONDS, sent when due whatever earlier ones are doing (an open loop, as a balancer probes). */
async function fixedRate(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const interval = 1000 / RATE;
  const start = performance.now();
  const pending = [];
  for (let i = 0; i < RATE * SECONDS; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(timedGet(agent, url));
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
  // Separate processes, so the generator's timers never wait behind the load's own work.
  const pageLoads = PAGES.map((page) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "node_modules/autocannon/autocannon.js"), "-c", "5", "-d", String(SECONDS * 2 + 8), "-j", "-H", "accept-encoding=gzip, deflate, br", `${base}${page}`],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    let json = "";
    child.stdout.on("data", (chunk) => (json += chunk));
    return { child, result: new Promise((resolve) => child.on("exit", () => resolve(json ? JSON.parse(json) : null))) };
  });
  await new Promise((resolve) => setTimeout(resolve, 3000));

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
  // They end on their own a little after the scrapes (their duration covers the measured part).
  const pages = await Promise.all(pageLoads.map((load) => load.result));

  const row = (name, s, target) =>
    `| ${name} | ${s.n} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.max.toFixed(2)} | ${target} | ${s.failed ?? 0} |`;
  const pageRate = pages.map((result, i) => `${PAGES[i]} ${result ? `${Math.round(result.requests.average)} req/s, non-2xx ${result.non2xx}` : "(no result)"}`);
  console.log(`\npages alongside: ${pageRate.join("; ")}; load average during: ${loadDuring}\n`);
  console.log("| what | requests | p50 ms | p99 ms | max ms | target | failed |");
  console.log("|---|---:|---:|---:|---:|---|---:|");
  console.log(row(`/livez at ${RATE}/s`, livez, "p99 < 5 ms"));
  console.log(row(`/readyz at ${RATE}/s`, readyz, "p99 < 20 ms"));
  console.log(row(`/metrics scrape (${Math.round(scrapeBytes / 1024)} KB)`, summary(scrapes), "< 50 ms"));
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
