// What the server holds in memory at start, under 60 s of load and after it, on PGlite and on
// PostgreSQL.
//   npm run build && node bench/memory/run.mjs [--seconds 60] [--before <checkout with a build>]
// Starts the server as `npm run serve` does (so Node flags in that script count), with
// bench/memory/probe.mjs loaded into it through NODE_OPTIONS to read its memory from the inside
// (RSS, V8 heap, external and array buffers, PGlite's WebAssembly memory). Load: autocannon,
// guests on four pages and a signed-in demo account on four more, all at once. With --before,
// the same is measured on another checkout (its own build) in the same run, engine by engine.
// PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432), database
// sponsorgrid_bench_memory, dropped and created per measurement. PGlite: a fresh temporary folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { sleep, startProgram } from "../lib/app-server.mjs";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PROBE = path.join(import.meta.dirname, "probe.mjs");
const PG_BASE = (process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432").replace(/\/+$/, "");
const DB_NAME = "sponsorgrid_bench_memory";

const { values: options } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    before: { type: "string" },
    engines: { type: "string", default: "pglite,postgres" },
    port: { type: "string", default: "3391" },
    // Extra Node options for the current code, to try settings: --variant "semi8=--max-semi-space-size=8"
    variant: { type: "string", multiple: true, default: [] },
  },
});
const LOAD_SECONDS = Number(options.seconds);
const PORT = Number(options.port);
const ENGINES = options.engines.split(",");

const GUEST_CONNECTIONS = 8;
const SIGNED_IN_CONNECTIONS = 2;
const HEADERS = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };
const DEMO = { email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo" };

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);

// ---------------------------------------------------------------- the server under test

/** Whether a build has the guest page cache and its GUEST_PAGE_CACHE=off switch. */
function hasCacheSwitch(root) {
  const serverBuild = path.join(root, "build/server/index.js");
  if (!fs.existsSync(serverBuild)) throw new Error(`${serverBuild} is missing: run npm run build in ${root}`);
  return fs.readFileSync(serverBuild, "utf8").includes("GUEST_PAGE_CACHE");
}

async function recreateDatabase() {
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
  } finally {
    await admin.end();
  }
}

/**
 * Starts the server on a fresh database, lets it migrate and seed, stops it and starts it again:
 * what is measured is a restart, as most starts are (a first start on PGlite also runs initdb in a
 * WebAssembly instance of its own, which stays in memory until the garbage collector takes it).
 */
async function startServer(setup) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-memory-"));
  if (setup.engine === "postgres") await recreateDatabase();
  const first = await startServerIn(work, setup);
  await first.stop();
  const server = await startServerIn(work, setup);
  return {
    ...server,
    async stop() {
      await server.stop();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

async function startServerIn(work, { root, engine, cache, nodeOptions, env }) {
  const probeFile = path.join(work, "memory.json");
  fs.rmSync(probeFile, { force: true });
  // A variant's flags go on node's command line (NODE_OPTIONS refuses most V8 flags), so a
  // variant runs `node <flags> server.js` with the environment `npm run serve` sets.
  const [command, args] = nodeOptions ? [process.execPath, [...nodeOptions.split(" "), "server.js"]] : ["npm", ["run", "--silent", "serve"]];
  const server = await startProgram({
    command,
    args,
    cwd: root,
    port: PORT,
    env: {
      NODE_ENV: "production",
      PAYMENT_PROVIDER: "sandbox",
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${PROBE}`.trim(),
      MEMORY_PROBE_FILE: probeFile,
      PORT: String(PORT),
      DATA_DIR: path.join(work, "data"),
      DATABASE_URL: engine === "postgres" ? `${PG_BASE}/${DB_NAME}` : "",
      SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
      LOG_LEVEL: "warn",
      PUBLIC_ORIGIN: `http://127.0.0.1:${PORT}`,
      ...(cache === "on" ? {} : { GUEST_PAGE_CACHE: "off" }),
      ...env,
    },
    // Ready once it answers and the probe inside it has written its first sample.
    isReady: async (base) => (await fetch(`${base}/robots.txt`)).ok && fs.existsSync(probeFile),
  });
  const { base, exited, output } = server;
  const probe = () => JSON.parse(fs.readFileSync(probeFile, "utf8"));
  /** A sample right after a full garbage collection in the server. */
  const probeAfterGc = async () => {
    fs.rmSync(`${probeFile}.gc`, { force: true });
    process.kill(probe().pid, "SIGUSR2");
    for (let i = 0; i < 300 && !fs.existsSync(`${probeFile}.gc`); i++) await sleep(100);
    return JSON.parse(fs.readFileSync(`${probeFile}.gc`, "utf8"));
  };
  return {
    base,
    probe,
    probeAfterGc,
    output,
    async stop() {
      // npm runs the server in a child; the probe's sample names the server's own pid.
      try {
        process.kill(probe().pid, "SIGTERM");
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

// ---------------------------------------------------------------- what is loaded

async function signIn(base) {
  const response = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ intent: "signin", email: DEMO.email, password: DEMO.password, redirectTo: "/app" }),
  });
  const cookies = response.headers.getSetCookie().map((line) => line.split(";")[0]);
  if (response.status >= 400 || cookies.length === 0) throw new Error(`signing in answered ${response.status} without a cookie`);
  return cookies.join("; ");
}

async function pages(base) {
  const list = await (await fetch(`${base}/app/opportunities`)).text();
  const detail = list.match(/\/app\/opportunities\/(\d{10}_[A-Za-z0-9]+)/)?.[0];
  if (!detail) throw new Error("no opportunity link on /app/opportunities");
  return {
    guest: ["/", "/youtube-sponsorships", "/app/opportunities", detail],
    signedIn: ["/app", "/app/opportunities", detail, "/app/account/opportunities"],
  };
}

function load(url, connections, paths, headers) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: LOAD_SECONDS, headers, requests: paths.map((p) => ({ method: "GET", path: p })) },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

// ---------------------------------------------------------------- one measurement

async function measure(setup, log) {
  const server = await startServer(setup);
  try {
    const { guest, signedIn } = await pages(server.base);
    const cookie = await signIn(server.base);
    for (const p of signedIn) {
      const status = (await fetch(server.base + p, { headers: { cookie }, redirect: "manual" })).status;
      if (status !== 200) throw new Error(`signed in, ${p} answered ${status}`);
    }
    await sleep(3000);
    const start = server.probe();
    let peak = start;
    const sampler = setInterval(() => {
      const now = server.probe();
      if (now.rss > peak.rss) peak = now;
    }, 1000);
    const [guests, members] = await Promise.all([
      load(server.base, GUEST_CONNECTIONS, guest, HEADERS),
      load(server.base, SIGNED_IN_CONNECTIONS, signedIn, { ...HEADERS, cookie }),
    ]);
    clearInterval(sampler);
    const loaded = server.probe();
    await sleep(10_000);
    const after = server.probe();
    const collected = await server.probeAfterGc();
    const requests = guests.requests.total + members.requests.total;
    const cpuMsPerRequest = (loaded.cpuMicros - start.cpuMicros) / 1000 / requests;
    const bad = guests.non2xx + members.non2xx + guests.errors + members.errors;
    const row = { ...setup, start, peak, loaded, after, collected, requests, cpuMsPerRequest, bad };
    log(
      `${setup.label.padEnd(28)} RSS start ${mb(start.rss)} MB, peak ${mb(peak.rss)}, after ${mb(after.rss)}` +
        ` (heap used ${mb(after.heapUsed)} of ${mb(after.heapTotal)}, new space ${mb(after.newSpace)}, external ${mb(after.external)},` +
        ` WebAssembly ${mb(after.wasmMemory)}); after a full GC: RSS ${mb(collected.rss)}, heap used ${mb(collected.heapUsed)} of ${mb(collected.heapTotal)};` +
        ` ${requests} requests (${(requests / LOAD_SECONDS).toFixed(0)}/s, server CPU ${cpuMsPerRequest.toFixed(1)} ms each), ${bad} not 2xx`,
    );
    return row;
  } finally {
    await server.stop();
    const said = server.output().trim();
    if (said) log(`   server output (last 2,000 characters):\n${said.slice(-2000)}`);
  }
}

// ---------------------------------------------------------------- main

const log = (line) => console.log(line);
const trees = [
  ...(options.before ? [{ name: "before", root: path.resolve(options.before), nodeOptions: "" }] : []),
  { name: "current", root: ROOT, nodeOptions: "" },
  ...options.variant.map((variant) => {
    // "name=--a-node-flag OTHER_ENV=value": words that look like NAME=value go to the environment.
    const [name, ...rest] = variant.split("=");
    const words = rest.join("=").split(" ").filter(Boolean);
    const env = Object.fromEntries(words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split(/=(.*)/s).slice(0, 2)));
    const nodeOptions = words.filter((word) => !/^[A-Z_]+=/.test(word)).join(" ");
    return { name: `current + ${name}`, root: ROOT, nodeOptions, env };
  }),
];
log(
  `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${mb(os.totalmem())} MB; Node ${process.version}; ` +
    `${LOAD_SECONDS} s of load: ${GUEST_CONNECTIONS} guest + ${SIGNED_IN_CONNECTIONS} signed-in connections`,
);
const rows = [];
for (const engine of ENGINES) {
  for (const tree of trees) {
    const caches = hasCacheSwitch(tree.root) ? ["off", "on"] : ["none in this build"];
    for (const cache of caches) {
      const label = `${engine}, ${tree.name}${caches.length > 1 ? `, cache ${cache}` : ""}`;
      rows.push(await measure({ engine, tree: tree.name, root: tree.root, nodeOptions: tree.nodeOptions, env: tree.env ?? {}, cache, label }, log));
    }
  }
}

log("\n| engine | code | guest cache | RSS start MB | RSS peak MB | RSS after MB | heap used / total MB | external MB | WebAssembly MB | after a full GC: RSS / heap used MB | req/s | server CPU ms per request |");
log("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  log(
    `| ${row.engine} | ${row.tree} | ${row.cache} | ${mb(row.start.rss)} | ${mb(row.peak.rss)} | ${mb(row.after.rss)} | ` +
      `${mb(row.after.heapUsed)} / ${mb(row.after.heapTotal)} | ${mb(row.after.external)} | ${mb(row.after.wasmMemory)} | ${mb(row.collected.rss)} / ${mb(row.collected.heapUsed)} | ${(row.requests / LOAD_SECONDS).toFixed(0)} | ${row.cpuMsPerRequest.toFixed(1)} |`,
  );
}
