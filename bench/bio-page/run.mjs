// The public bio page against nginx serving the very same bytes, and the embedded database
// against PostgreSQL, in one run; every view counted exactly.
//
//   npm run build && flock /tmp/bench.lock node bench/bio-page/run.mjs
//
// Starts the built server twice: on a fresh embedded database (PGlite) in a temporary folder,
// and on PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/sg_bench_bio,
// a database of that name it empties first). Saves the demo page /mayamakes as the bio host sends
// it to a browser that accepts `gzip, deflate, br` (brotli), with its headers, and has nginx serve
// that file with those headers. Then, round by round (the order turned every round), autocannon
// sends each server the same fixed number of requests. Before and after each app run the views
// record is read through /__test/bio-views (which first writes the views still in memory): it
// must have risen by exactly the number of 2xx answers autocannon counted, or the run fails.
// Each request comes from a client address of its own (X-Forwarded-For, with the app trusting
// the loopback proxy), since one client network counts one view per page per half hour.
// BASELINE_DIR=<folder with another checkout's build/> adds that build's server on PostgreSQL (a
// database of its own) as a fourth side, for a before/after of a change in one run.
// See bench/README.md ("Bio page").
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
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENDING = "mayamakes";
const SECRET = "bench-only-test-routes-secret-0123456789";
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/sg_bench_bio";
// A browser's request: counted as a view (not a bot), brotli accepted.
const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-US,en;q=0.9",
};
const HOP_BY_HOP = new Set(["connection", "keep-alive", "date", "transfer-encoding", "content-length"]);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function startApp(dataDir, databaseUrl, root = ROOT) {
  const app = await startBuiltServer({
    root,
    dataDir,
    databaseUrl,
    env: (port) => ({
      BIO_ORIGIN: `http://bio.localhost:${port}`,
      // Only for reading the views record; the bio host answers before any of the app's routes.
      ENABLE_TEST_ROUTES: "true",
      TEST_ROUTES_SECRET: SECRET,
      // autocannon plays the proxy: each request names a client address of its own.
      TRUST_PROXY: "loopback",
    }),
  });
  return { ...app, bioHost: `bio.localhost:${app.port}` };
}

/** The page's views record, after the app wrote what it still counted in memory. */
async function views(app) {
  const response = await fetch(`${app.base}/__test/bio-views?ending=${ENDING}`, { headers: { "x-test-routes-secret": SECRET } });
  if (!response.ok) throw new Error(`views: ${response.status}`);
  return (await response.json()).views;
}

/** The page as a browser gets it from the bio host, saved for nginx with the same headers. */
async function savePage(app, dir, name) {
  const headers = { ...BROWSER_HEADERS, host: app.bioHost };
  const sent = await fetchRaw(`${app.base}/${ENDING}`, headers);
  const again = await fetchRaw(`${app.base}/${ENDING}`, headers);
  if (sent.status !== 200 || !again.body.equals(sent.body)) throw new Error(`/${ENDING}: ${sent.status}, or two requests gave different bytes`);
  const file = path.join(dir, `${name}.body`);
  fs.writeFileSync(file, sent.body);
  const saved = [];
  for (let i = 0; i < sent.rawHeaders.length; i += 2) {
    const name = sent.rawHeaders[i];
    if (!HOP_BY_HOP.has(name.toLowerCase())) saved.push([name, sent.rawHeaders[i + 1]]);
  }
  const identity = await fetchRaw(`${app.base}/${ENDING}`, { ...headers, "accept-encoding": "identity" });
  return { path: `/${ENDING}`, file, headers: saved, bytes: sent.body.length, html: identity.body.length, encoding: sent.headers["content-encoding"] ?? "identity" };
}

/**
 * One autocannon run; anything but 200 fails. For a measured run, `maxConnectionRequests`: each
 * connection sends that many requests one after the other and ends, so every request the server
 * answered (and counted) was read back. (`amount` stops reading at its total while a few more
 * requests are already on their way; the server counts those too.)
 */
let clients = 0;
/** A new client address for every request: 10.0.0.1, 10.0.0.2, … (16 million before it wraps). */
function fromNewClient(request) {
  clients = (clients + 1) % 16_777_215;
  request.headers = { ...request.headers, "x-forwarded-for": `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}` };
  return request;
}

function load(url, headers, options) {
  return new Promise((resolve, reject) => {
    let not200 = 0;
    const instance = autocannon({ url, connections: CONNECTIONS, headers, requests: [{ setupRequest: fromNewClient }], ...options }, (error, result) => {
      if (error) return reject(error);
      const bad = result.non2xx + result.errors + result.timeouts + not200;
      if (bad > 0) return reject(new Error(`${url}: ${bad} bad responses of ${result.requests.total}`));
      resolve({ rps: result.requests.total / result.duration, ok: result["2xx"], total: result.requests.total, p50: result.latency.p50, p97_5: result.latency.p97_5 });
    });
    instance.on("response", (_client, status) => {
      if (status !== 200) not200 += 1;
    });
  });
}

/** A warm-up of 1 s sizes the measured run (about SECONDS long), then the run, its views checked for an app. */
async function measure(side) {
  const url = `${side.base}/${ENDING}`;
  const headers = side.app ? { ...BROWSER_HEADERS, host: side.app.bioHost } : BROWSER_HEADERS;
  const warm = await load(url, headers, { duration: 1 });
  const perConnection = Math.max(100, Math.round((warm.rps * SECONDS) / CONNECTIONS));
  const before = side.app ? await views(side.app) : 0;
  const result = await load(url, headers, { maxConnectionRequests: perConnection });
  if (side.app) {
    const after = await views(side.app);
    result.counted = after - before;
    if (result.counted !== result.ok) throw new Error(`${side.name}: views rose by ${result.counted}, autocannon counted ${result.ok} 2xx answers`);
  }
  return result;
}

async function main() {
  const log = (line) => console.log(line);
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) throw new Error("no build: run `npm run build` first");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-bio-"));
  fs.chmodSync(work, 0o755); // nginx's worker (nobody) reads the saved page
  const stops = [];
  try {
    await emptyPostgres(PG_URL);
    const pglite = await startApp(path.join(work, "data"), "");
    stops.push(() => pglite.stop());
    const postgres = await startApp(path.join(work, "data-pg"), PG_URL);
    stops.push(() => postgres.stop());
    const baselineUrl = `${PG_URL}_baseline`;
    let baseline = null;
    if (process.env.BASELINE_DIR) {
      await emptyPostgres(baselineUrl);
      baseline = await startApp(path.join(work, "data-baseline"), baselineUrl, path.resolve(process.env.BASELINE_DIR));
      stops.push(() => baseline.stop());
    }
    // Both engines render the same page (their canonical addresses differ only by port).
    const page = await savePage(pglite, work, "pglite");
    await savePage(postgres, work, "postgres");
    const nginx = await startNginx(work, [page]);
    stops.push(() => nginx.stop());
    const served = await fetchRaw(`${nginx.base}${page.path}`, BROWSER_HEADERS);
    if (!served.body.equals(fs.readFileSync(page.file)) || served.headers["content-encoding"] !== page.encoding) throw new Error("nginx sends other bytes");

    const nginxVersion = spawnSync("nginx", ["-v"], { encoding: "utf8" }).stderr.trim();
    log(`# Bio page against nginx (${new Date().toISOString()})`);
    log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${nginxVersion}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    log(`/${ENDING}: ${page.html} bytes of HTML, ${page.bytes} sent (${page.encoding}); autocannon ${CONNECTIONS} connections, ~${SECONDS} s (a fixed number of requests) per side and round, ${ROUNDS} rounds`);
    const sides = [
      { name: "app (PGlite)", base: pglite.base, app: pglite },
      { name: "nginx", base: nginx.base },
      { name: "app (PostgreSQL)", base: postgres.base, app: postgres },
      ...(baseline ? [{ name: "baseline (PostgreSQL)", base: baseline.base, app: baseline }] : []),
    ];
    const results = Object.fromEntries(sides.map((side) => [side.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const side of round % 2 === 1 ? sides : [...sides].reverse()) {
        const idle = await waitForQuiet();
        const result = await measure(side);
        results[side.name].push(result);
        log(`   round ${round}, ${side.name} (idle before ${Math.round(idle * 100)} %): ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p97.5 ${result.p97_5} ms, ${result.total} requests${side.app ? `, views +${result.counted} (exact)` : ""}`);
      }
    }
    const rps = (name, round) => results[name][round].rps;
    const ratios = (a, b) => results[a].map((_, round) => rps(a, round) / rps(b, round));
    log("");
    log("| server | req/s (median) | ÷ nginx (median of rounds) | rounds | views counted = 2xx answers |");
    log("|---|---:|---:|---|---|");
    for (const side of sides) {
      const r = ratios(side.name, "nginx");
      log(
        `| ${side.name} | ${median(results[side.name].map((x) => x.rps)).toFixed(0)} | **${median(r).toFixed(3)}** | ${r.map((x) => x.toFixed(2)).join(", ")} | ${side.app ? results[side.name].map((x) => x.counted).join(", ") : "–"} |`,
      );
    }
    const engines = ratios("app (PGlite)", "app (PostgreSQL)");
    log("");
    log(`PGlite ÷ PostgreSQL (median of rounds): **${median(engines).toFixed(3)}** (${engines.map((x) => x.toFixed(2)).join(", ")})`);
    if (baseline) {
      const change = ratios("app (PostgreSQL)", "baseline (PostgreSQL)");
      log(`PostgreSQL, this build ÷ baseline (median of rounds): **${median(change).toFixed(3)}** (${change.map((x) => x.toFixed(2)).join(", ")})`);
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
