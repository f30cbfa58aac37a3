// Guest pages against nginx serving the very same bytes, in one run; then signed-in pages.
//
//   npm run build && flock /tmp/bench.lock node bench/guest-pages/run.mjs
//
// Builds nothing itself. Starts the built server (`node server.js`) on a fresh embedded
// database in a temporary folder (BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL
// instead, in a database of that name it empties first), saves each page's body and headers as
// the app sends them to a guest whose browser accepts `gzip, deflate, br`, has nginx serve
// those files from a loopback port, and loads both with autocannon, back to back, page by page.
// See bench/README.md ("Guest pages against nginx") for what is compared and why.
//
// BASELINE_DIR=<folder with another checkout's build/> also measures the signed-in pages on
// that build's server, in the same run (the "before" of the signed-in figures). SIGNED_IN_ONLY=1
// skips the guest half (no nginx); SKIP_SIGNED_IN=1 the signed-in half. GUEST_RENDER=1 with
// BASELINE_DIR also compares a guest's pages rendered on every request (GUEST_PAGE_CACHE=off).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startBuiltServer } from "../lib/app-server.mjs";
import { waitForQuiet } from "../lib/quiet.mjs";
import { startNginx } from "../lib/nginx.mjs";
import { emptyPostgres, fetchRaw } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// The machine is shared: each page is measured in several rounds, app and nginx back to back
// (app first in odd rounds, nginx first in even ones), and the median of the round ratios counts.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
// What Chromium sends; autocannon sends exactly these on every request.
const REQUEST_HEADERS = { "accept-encoding": "gzip, deflate, br", "accept-language": "en-US,en;q=0.9" };



/** `node server.js` from `root` (this checkout or BASELINE_DIR), as `npm run serve` runs it. */
async function startApp(root, dataDir, extraEnv = {}) {
  // LOG_LEVEL=warn (builtServerEnv): the request log line costs a share of every rendered request; nginx below logs nothing either.
  return startBuiltServer({ root, dataDir, databaseUrl: process.env.BENCH_DATABASE_URL ?? "", env: extraEnv });
}

// ---------------------------------------------------------------- pages as the app sends them

const HOP_BY_HOP = new Set(["connection", "keep-alive", "date", "transfer-encoding", "content-length"]);

/** One guest request with the benchmark's headers unless told otherwise. */
const fetchGuest = (url, headers = REQUEST_HEADERS) => fetchRaw(url, headers);

/** A page's bytes and headers, saved for nginx, after the app served it twice the same way. */
async function savePage(base, page, dir, index) {
  await fetchGuest(`${base}${page.path}`);
  const sent = await fetchGuest(`${base}${page.path}`);
  if (sent.status !== 200) throw new Error(`${page.path}: ${sent.status}`);
  const again = await fetchGuest(`${base}${page.path}`);
  const cached = sent.headers["x-guest-cache"] ?? "(no cache)";
  if (!again.body.equals(sent.body)) throw new Error(`${page.path}: two guest requests gave different bytes`);
  const file = path.join(dir, `page-${index}.body`);
  fs.writeFileSync(file, sent.body);
  const headers = [];
  for (let i = 0; i < sent.rawHeaders.length; i += 2) {
    const name = sent.rawHeaders[i];
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.push([name, sent.rawHeaders[i + 1]]);
  }
  fs.writeFileSync(path.join(dir, `page-${index}.headers.json`), JSON.stringify(headers, null, 1));
  return { ...page, file, headers, bytes: sent.body.length, encoding: sent.headers["content-encoding"] ?? "identity", cached };
}

// ---------------------------------------------------------------- load


/** One autocannon run; anything but a 200 fails the benchmark. */
function load(url, seconds, headers = REQUEST_HEADERS) {
  return new Promise((resolve, reject) => {
    let not200 = 0;
    // "{n}" in the address becomes a number of its own for every request.
    let n = 0;
    const unique = url.includes("{n}") ? { requests: [{ setupRequest: (request) => ({ ...request, path: request.path.replace(/\{n\}|%7Bn%7D/i, String((n += 1))) }) }] } : {};
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, ...unique }, (error, result) => {
      if (error) return reject(error);
      const bad = result.non2xx + result.errors + result.timeouts + not200;
      if (bad > 0) return reject(new Error(`${url}: ${bad} bad responses of ${result.requests.total}`));
      resolve({ rps: result.requests.total / (result.duration || seconds), requests: result.requests.total, p95: result.latency.p97_5, p50: result.latency.p50 });
    });
    instance.on("response", (_client, status) => {
      if (status !== 200) {
        not200 += 1;
        instance.stop();
      }
    });
  });
}

/** CPU time (user + system) a process has used so far, in ms (from /proc; clock ticks of 10 ms). */
function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** With `pid`, also the CPU that process spent per request of the measured load (not the warm-up). */
async function measure(url, headers, pid) {
  // CHECK_ONLY=1: start, save, serve and compare everything, but load nothing (to try the harness).
  if (process.env.CHECK_ONLY) return { rps: NaN, p95: NaN, p50: NaN, idle: NaN, cpuMs: NaN };
  const idle = await waitForQuiet();
  await load(url, WARMUP_SECONDS, headers);
  const cpuBefore = pid ? processCpuMs(pid) : 0;
  const result = await load(url, SECONDS, headers);
  const cpuMs = pid ? (processCpuMs(pid) - cpuBefore) / result.requests : NaN;
  return { ...result, idle, cpuMs };
}

// ---------------------------------------------------------------- signed in

/** Signs the demo creator in (the seeded account); returns the Cookie header to send. */
async function signIn(base) {
  const response = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo", redirectTo: "/app" }),
  });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  if (response.status !== 302 && response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  if (cookies.length === 0) throw new Error("sign-in set no cookie");
  return cookies.join("; ");
}

// The same address again and again (after the first, the current build sends the document it kept:
// server/platform/http/rendered-documents.ts), and a new address every request (never kept: every request rendered).
const SIGNED_IN_PAGES = ["/app", "/app/opportunities", "/app?r={n}", "/app/opportunities?r={n}"];

/**
 * Each page on each server, the servers back to back (order swapped every round): the medians of
 * req/s and of the server's CPU per request, and the median of the rounds' own ratios.
 */
async function signedInRound(servers, log, pages = SIGNED_IN_PAGES, who = "signed in") {
  const rows = [];
  const names = Object.keys(servers);
  for (const pagePath of pages) {
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const measured = {};
      for (const name of round % 2 === 1 ? names : [...names].reverse()) {
        const server = servers[name];
        const headers = server.cookie ? { ...REQUEST_HEADERS, cookie: server.cookie } : REQUEST_HEADERS;
        // {detail}: an opportunity of that server's own (the seed's ids differ between databases).
        const address = pagePath.replace("{detail}", server.detail);
        const check = await fetchGuest(`${server.base}${address.replace("{n}", "0")}`, headers);
        if (check.status !== 200) throw new Error(`${name} ${address} ${who}: ${check.status}`);
        measured[name] = await measure(`${server.base}${address}`, headers, server.pid);
        log(`   round ${round}, ${pagePath} ${who}, ${name}: ${measured[name].rps.toFixed(1)} req/s, server CPU ${measured[name].cpuMs.toFixed(2)} ms/request (idle before: ${Math.round(measured[name].idle * 100)} %)`);
      }
      rounds.push(measured);
    }
    const row = { path: pagePath };
    for (const name of names) row[name] = { rps: median(rounds.map((r) => r[name].rps)), cpuMs: median(rounds.map((r) => r[name].cpuMs)) };
    if (servers.baseline) {
      row.ratios = rounds.map((r) => r.current.rps / r.baseline.rps);
      row.cpuRatios = rounds.map((r) => r.baseline.cpuMs / r.current.cpuMs);
    }
    rows.push(row);
  }
  return rows;
}

/** The medians of each page on each server, and the current build against the baseline. */
function printRows(servers, rows, log) {
  const names = Object.keys(servers);
  log("");
  log(`| page | ${names.map((name) => `${name} req/s`).join(" | ")} | ${names.map((name) => `${name} server CPU ms/request`).join(" | ")} |${servers.baseline ? " current ÷ baseline req/s (median of rounds) | the rounds' ratios | baseline ÷ current CPU per request (median) |" : ""}`);
  log(`|---|${names.map(() => "---:").join("|")}|${names.map(() => "---:").join("|")}|${servers.baseline ? "---:|---|---:|" : ""}`);
  for (const row of rows) {
    const cells = [...names.map((name) => row[name].rps.toFixed(0)), ...names.map((name) => row[name].cpuMs.toFixed(2))];
    const ratios = row.ratios ? ` **${median(row.ratios).toFixed(2)}** | ${row.ratios.map((r) => r.toFixed(2)).join(", ")} | ${median(row.cpuRatios).toFixed(2)} |` : "";
    log(`| \`${row.path}\` | ${cells.join(" | ")} |${ratios}`);
  }
}

/**
 * GUEST_RENDER=1 (with BASELINE_DIR): a guest's pages rendered on every request (GUEST_PAGE_CACHE=off)
 * on this build and on the baseline, back to back, as the signed-in pages are compared.
 */
async function guestRenders(work, stops, log) {
  log("");
  log("## Guest pages rendered on every request (GUEST_PAGE_CACHE=off), same run");
  const servers = {};
  for (const [name, root] of [["current", ROOT], ["baseline", path.resolve(process.env.BASELINE_DIR)]]) {
    const app = await startApp(root, path.join(work, `${name}-render-data`), { GUEST_PAGE_CACHE: "off" });
    stops.push(() => app.stop());
    const list = await fetchGuest(`${app.base}/app/opportunities`, { "accept-encoding": "identity" });
    const detail = list.body.toString("utf8").match(/\/app\/opportunities\/[0-9]+_[A-Za-z0-9]+/)?.[0];
    if (!detail) throw new Error(`${name}: no opportunity on the list page`);
    servers[name] = { base: app.base, pid: app.pid, detail };
  }
  printRows(servers, await signedInRound(servers, log, ["/", "/youtube-sponsorships", "/app/opportunities", "{detail}"], "guest, rendered"), log);
}

// ---------------------------------------------------------------- run

/** The guest half: each page from the app's cache and from nginx, and rendered with the cache off. */
async function guestPagesAgainstNginx(app, work, stops, log) {
  const list = await fetchGuest(`${app.base}/app/opportunities`, { "accept-encoding": "identity" });
  const detailPath = list.body.toString("utf8").match(/\/app\/opportunities\/[0-9]+_[A-Za-z0-9]+/)?.[0];
  if (!detailPath) throw new Error("no opportunity on the list page");
  const pages = [];
  for (const [index, page] of [
    { name: "home", path: "/" },
    { name: "guide", path: "/youtube-sponsorships" },
    { name: "opportunity list", path: "/app/opportunities" },
    { name: "opportunity detail", path: detailPath },
  ].entries()) {
    pages.push(await savePage(app.base, page, work, index));
  }
  const nginx = await startNginx(work, pages);
  stops.push(() => nginx.stop());
  // The same build rendering every request (GUEST_PAGE_CACHE=off): what guests got before the cache.
  const rendering = await startApp(ROOT, path.join(work, "data-off"), { GUEST_PAGE_CACHE: "off" });
  stops.push(() => rendering.stop());
  const detailOff = (await fetchGuest(`${rendering.base}/app/opportunities`, { "accept-encoding": "identity" })).body
    .toString("utf8")
    .match(/\/app\/opportunities\/[0-9]+_[A-Za-z0-9]+/)?.[0];
  for (const page of pages) {
    const served = await fetchGuest(`${nginx.base}${page.path}`);
    if (!served.body.equals(fs.readFileSync(page.file))) throw new Error(`nginx sends other bytes for ${page.path}: ${served.status} ${served.body.length} bytes ${JSON.stringify(served.headers)}\n${fs.readFileSync(path.join(path.dirname(page.file), "nginx.conf"), "utf8").slice(0, 3000)}`);
    if (served.headers["content-encoding"] !== (page.encoding === "identity" ? undefined : page.encoding)) throw new Error(`nginx: encoding of ${page.path}`);
  }

  const nginxVersion = spawnSync("nginx", ["-v"], { encoding: "utf8" }).stderr;
  log(`# Guest pages against nginx (${new Date().toISOString()})`);
  log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${nginxVersion.trim() || "nginx"}; engine: ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}`);
  log(`autocannon ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per side, page and round; headers ${JSON.stringify(REQUEST_HEADERS)}`);
  log(`${ROUNDS} rounds; the render path (GUEST_PAGE_CACHE=off) once per page, in the first round, right after nginx`);
  const results = pages.map((page) => ({ page, app: [], nginx: [], off: null }));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const result of results) {
      const { page } = result;
      const sides = round % 2 === 1 ? ["app", "nginx"] : ["nginx", "app"];
      const measured = {};
      for (const side of sides) measured[side] = await measure(`${(side === "app" ? app : nginx).base}${page.path}`);
      result.app.push(measured.app);
      result.nginx.push(measured.nginx);
      if (round === 1) {
        // Its own database has other post ids: the detail page is its first post, as above.
        result.off = await measure(`${rendering.base}${page.name === "opportunity detail" ? detailOff : page.path}`);
      }
      const idle = sides.map((side) => `${Math.round(measured[side].idle * 100)} %`).join(" / ");
      log(`   round ${round}, ${page.name}: app ${measured.app.rps.toFixed(0)} req/s, nginx ${measured.nginx.rps.toFixed(0)} req/s, ratio ${(measured.app.rps / measured.nginx.rps).toFixed(3)} (${sides.join(" then ")}; idle before: ${idle})`);
    }
  }
  log("");
  log("| page | path | bytes sent (encoding) | app cache | app req/s (median) | nginx req/s (median) | app ÷ nginx (median of rounds) | the rounds' ratios | rendering (cache off) req/s | rendering ÷ nginx |");
  log("|---|---|---:|---|---:|---:|---:|---|---:|---:|");
  for (const { page, app: a, nginx: n, off } of results) {
    const ratios = a.map((one, i) => one.rps / n[i].rps);
    const nginxMedian = median(n.map((one) => one.rps));
    log(`| ${page.name} | \`${page.path.length > 40 ? `${page.path.slice(0, 38)}…` : page.path}\` | ${page.bytes} (${page.encoding}) | ${page.cached} | ${median(a.map((one) => one.rps)).toFixed(0)} | ${nginxMedian.toFixed(0)} | **${median(ratios).toFixed(3)}** | ${ratios.map((r) => r.toFixed(2)).join(", ")} | ${off.rps.toFixed(0)} | ${(off.rps / nginxMedian).toFixed(3)} |`);
  }
}

async function main() {
  const log = (line) => console.log(line);
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) throw new Error("no build: run `npm run build` first");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-guest-"));
  fs.chmodSync(work, 0o755); // nginx's worker (nobody) reads the saved pages
  const stops = [];
  try {
    if (process.env.BENCH_DATABASE_URL) await emptyPostgres(process.env.BENCH_DATABASE_URL);
    const app = await startApp(ROOT, path.join(work, "data"));
    stops.push(() => app.stop());
    if (process.env.SIGNED_IN_ONLY) {
      log(`# Signed-in pages (${new Date().toISOString()})`);
      log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; engine: ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}`);
      log(`autocannon ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per server, page and round; ${ROUNDS} rounds`);
    } else {
      await guestPagesAgainstNginx(app, work, stops, log);
    }
    if (process.env.SKIP_SIGNED_IN) return;
    log("");
    log("## Signed in (the demo creator), same run");
    const servers = { current: { base: app.base, pid: app.pid, cookie: await signIn(app.base) } };
    if (process.env.BASELINE_DIR) {
      const baseline = await startApp(path.resolve(process.env.BASELINE_DIR), path.join(work, "baseline-data"));
      stops.push(() => baseline.stop());
      servers.baseline = { base: baseline.base, pid: baseline.pid, cookie: await signIn(baseline.base) };
    }
    printRows(servers, await signedInRound(servers, log), log);
    if (process.env.GUEST_RENDER && process.env.BASELINE_DIR) await guestRenders(work, stops, log);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
