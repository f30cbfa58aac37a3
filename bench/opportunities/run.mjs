// The opportunity list page end to end over HTTP at 1,000 and at 1,000,000 posts on PostgreSQL.
//   npm run build && node bench/opportunities/run.mjs
// Creates (drops first) the database sponsorgrid_bench on BENCH_PG_URL (default
// postgres://postgres@127.0.0.1:5432, trust auth), runs the built server on it, fills it with
// fill.mjs, loads three list addresses with autocannon, and prints req/s and p95 per size, the
// ratio 1M ÷ 1k, and EXPLAIN (ANALYZE, BUFFERS) of the query each address runs.
// The database is left in place afterwards so plans can be looked at again.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { fill, ONE_TAG, TOP_SIX_TAGS } from "./fill.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_BASE = (process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432").replace(/\/+$/, "");
const DB_NAME = "sponsorgrid_bench";
const DB_URL = `${PG_BASE}/${DB_NAME}`;
const SIZES = [1_000, 1_000_000];

// Load shape (stated in bench/README.md): the same for every scenario and size.
const CONNECTIONS = 10;
const WARMUP_SECONDS = 3;
const MEASURE_SECONDS = 10;
// What a browser sends; the server gzips HTML, which is part of the page's cost.
const REQUEST_HEADERS = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };

// The list contract: 20 per page, the page reads 21 rows to know whether a next page exists.
const PAGE_SIZE = 20;
const LIST_PATH = "/app/opportunities";
const INDEXES = ["opportunity_posts_pkey", "opportunity_posts_tags_gin_idx", "opportunity_posts_tag_pairs_gin_idx"];

const SCENARIOS = [
  { key: "none", label: "no filter, first page", tags: [], page: 0 },
  { key: "six", label: "6 tags, first page", tags: TOP_SIX_TAGS, page: 0 },
  { key: "one", label: "1 tag, page 50", tags: [ONE_TAG], page: 50 },
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- database and server

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function recreateDatabase() {
  await withClient(`${PG_BASE}/postgres`, async (admin) => {
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/**
 * `node server.js` as `npm run serve` runs it; on start it migrates and seeds the database.
 * LOG_LEVEL=warn keeps the per-request log line out of the measurement, which also hides the
 * "is running at" line, so readiness is an HTTP probe instead.
 */
async function startServer() {
  const port = await freePort();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: DB_URL,
      SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
      LOG_LEVEL: "warn",
      PUBLIC_ORIGIN: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const base = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start in 120 s:\n${output}`);
    try {
      if ((await fetch(`${base}/robots.txt`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return {
    base,
    pid: child.pid,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

// ---------------------------------------------------------------- what each address asks for

/** Disjoint sorted tag pairs covering every tag, as server/opportunities/list.ts builds them. */
function coveringPairs(tags) {
  const sorted = [...new Set(tags)].sort();
  const pairs = [];
  for (let i = 0; i < sorted.length; i += 2) {
    const a = sorted[i];
    const b = sorted[i + 1] ?? sorted[0];
    if (a !== b) pairs.push(a < b ? `${a}|${b}` : `${b}|${a}`);
  }
  return pairs;
}

/**
 * The SQL the page's loader runs for a list (server/opportunities/list.ts through Drizzle):
 * summary columns, one tag by containment or several by covering tag pairs, keyset cursor,
 * primary-key order, one row more than a page.
 */
function pageQuery(tags, after) {
  const values = [];
  const where = [];
  if (tags.length === 1) {
    values.push(tags);
    where.push(`tags @> $${values.length}::text[]`);
  }
  if (tags.length > 1) {
    values.push(coveringPairs(tags));
    where.push(`tag_pairs @> $${values.length}::text[]`);
  }
  if (after) {
    values.push(after);
    where.push(`id > $${values.length}`);
  }
  values.push(PAGE_SIZE + 1);
  const text =
    "select id, title, organization, min_contribution_cents, currency, application_deadline, tags, total_hearts" +
    " from opportunity_posts" +
    (where.length > 0 ? ` where ${where.join(" and ")}` : "") +
    ` order by id asc limit $${values.length}`;
  return { text, values };
}

/**
 * Page N's cursor is the id of the last post on page N−1: row N×20−1 (0-based) of the filter in
 * id order. At 1k posts no tag reaches page 50, so the deepest full page stands in for it (the
 * keyset query costs the same at any depth); `depth` reports which row was used.
 */
async function resolveScenario(client, scenario) {
  const matching = Number(
    (await client.query("select count(*) from opportunity_posts where tags @> $1::text[]", [scenario.tags])).rows[0].count,
  );
  let after = null;
  let depth = 0;
  if (scenario.page > 0) {
    depth = Math.min(scenario.page * PAGE_SIZE - 1, matching - PAGE_SIZE - 1);
    if (depth >= 0) {
      const { rows } = await client.query("select id from opportunity_posts where tags @> $1::text[] order by id offset $2 limit 1", [
        scenario.tags,
        depth,
      ]);
      after = rows[0].id;
    }
  }
  const params = new URLSearchParams();
  for (const tag of scenario.tags) params.append("tags[]", tag);
  if (scenario.page > 0) params.set("page", String(scenario.page));
  if (after) params.set("after", after);
  const query = params.toString();
  const { rows } = await client.query(pageQuery(scenario.tags, after));
  return {
    ...scenario,
    matching,
    after,
    depth,
    path: query ? `${LIST_PATH}?${query}` : LIST_PATH,
    expectedIds: rows.slice(0, PAGE_SIZE).map((row) => row.id),
  };
}

/** One request by hand first: a 200 that shows the posts the SQL says it should. */
async function checkPage(base, scenario) {
  const response = await fetch(base + scenario.path, { headers: REQUEST_HEADERS });
  const html = await response.text();
  if (response.status !== 200) {
    throw new Error(`${scenario.path} answered ${response.status}, not 200 (does this build have the list page? npm run build)`);
  }
  const missing = scenario.expectedIds.filter((id) => !html.includes(id));
  if (missing.length > 0) throw new Error(`${scenario.path} does not show ${missing.length} of the posts the query returns (first: ${missing[0]})`);
  if (scenario.expectedIds.length === 0 && !html.includes("find any opportunities")) {
    throw new Error(`${scenario.path}: the query returns no posts but the page shows no empty-state text`);
  }
}

// ---------------------------------------------------------------- CPU per request

// The load tool, the server and PostgreSQL share 2 cores, so req/s alone mixes up who is busy.
// CPU time per request of the server process and of the bench database's backends (from
// /proc, Linux only) says where a request's cost went, and barely moves with outside noise.
const CLOCK_TICKS = fs.existsSync("/proc/self/stat") ? Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100 : 0;

function cpuMsOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(name) ": state is [0], utime [11], stime [12] (fields 14 and 15 of proc(5)).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0; // gone, or not Linux
  }
}

/** CPU milliseconds used so far by the server and by each PostgreSQL backend on the bench database. */
async function cpuSnapshot(client, serverPid) {
  const { rows } = await client.query("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [DB_NAME]);
  return { server: cpuMsOf(serverPid), backends: new Map(rows.map((row) => [row.pid, cpuMsOf(row.pid)])) };
}

async function cpuPerRequest(client, serverPid, before, requests) {
  const after = await cpuSnapshot(client, serverPid);
  let db = 0;
  // A backend the pool opened during the run counts from zero.
  for (const [pid, ms] of after.backends) db += ms - (before.backends.get(pid) ?? 0);
  return { appMs: (after.server - before.server) / requests, dbMs: db / requests };
}

// ---------------------------------------------------------------- a quiet machine

function cpuTicks() {
  const [, ...values] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return { idle: values[3] + (values[4] ?? 0), total: values.reduce((a, b) => a + b, 0) };
}

/**
 * Waits (up to `maxSeconds`) until the cores are ≥ 85 % idle over 2 s. Other work on the
 * machine (a test run, the checkpoint after a bulk load) would otherwise land in one size's
 * figures and not the other's and skew the ratio. Returns the idle share it saw last.
 */
async function waitForQuiet(log, maxSeconds = 180) {
  if (!fs.existsSync("/proc/stat")) return NaN;
  const started = Date.now();
  for (;;) {
    const before = cpuTicks();
    await sleep(2000);
    const after = cpuTicks();
    const idle = (after.idle - before.idle) / (after.total - before.total);
    if (idle >= 0.85) return idle;
    if (Date.now() - started > maxSeconds * 1000) {
      log(`   !! the machine is still busy (${Math.round(idle * 100)} % idle) after ${maxSeconds} s: measuring anyway, expect noise`);
      return idle;
    }
  }
}

// ---------------------------------------------------------------- load

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One autocannon run. autocannon reports p90 and p97.5 but not p95, so every response time is
 * kept (a few thousand numbers) and p95 is read from them. Anything but a 200 fails the bench.
 */
function load(url, seconds) {
  return new Promise((resolve, reject) => {
    const times = [];
    let not200 = 0;
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers: REQUEST_HEADERS },
      (error, result) => {
        if (error) return reject(error);
        const bad = result.non2xx + result.errors + result.timeouts + not200;
        if (bad > 0) {
          return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${not200} not 200, ${result.errors} errors, ${result.timeouts} timeouts out of ${result.requests.total} requests`));
        }
        times.sort((a, b) => a - b);
        resolve({
          requests: result.requests.total,
          rps: result.requests.total / (result.duration || seconds),
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
        });
      },
    );
    instance.on("response", (_client, status, _bytes, responseTime) => {
      // 2xx that are not 200 would still pass autocannon's check; the contract says 200.
      if (status !== 200) {
        not200 += 1;
        instance.stop();
      }
      times.push(responseTime);
    });
  });
}

// ---------------------------------------------------------------- plans

/**
 * EXPLAIN (ANALYZE, BUFFERS) with the same bound values the page uses, after the load (warm).
 * Run 5 times; the run with the median execution time is kept, so one unlucky moment on the
 * shared cores does not stand for the plan.
 */
async function explain(client, scenario) {
  const { text, values } = pageQuery(scenario.tags, scenario.after);
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const { rows } = await client.query({ text: `explain (analyze, buffers) ${text}`, values });
    const lines = rows.map((row) => row["QUERY PLAN"]);
    runs.push({ lines, executionMs: Number(lines.join("\n").match(/Execution Time: ([\d.]+) ms/)?.[1]) });
  }
  runs.sort((a, b) => a.executionMs - b.executionMs);
  const { lines, executionMs } = runs[2];
  const plan = lines.join("\n");
  const nodes = lines
    .filter((line, i) => i === 0 || line.trim().startsWith("->"))
    .map((line) => line.replace(/^\s*->\s*/, "").replace(/\s+\(cost=.*$/, "").trim());
  return {
    lines,
    nodes,
    seqScan: /Seq Scan/.test(plan),
    usesIndex: INDEXES.some((index) => plan.includes(index)),
    executionMs,
  };
}

// ---------------------------------------------------------------- one size

async function measureSize(size, log) {
  log(`\n== ${size.toLocaleString("en")} posts ==`);
  const server = await startServer();
  try {
    return await withClient(DB_URL, async (client) => {
      if (size === SIZES[0]) {
        // First size: the server has just migrated and seeded the fresh database.
        await fill(client, size, { log });
      }
      const results = {};
      for (const base of SCENARIOS) {
        const scenario = await resolveScenario(client, base);
        await checkPage(server.base, scenario);
        const url = server.base + scenario.path;
        log(`\n-- ${scenario.label}: ${scenario.path}`);
        log(`   ${scenario.matching.toLocaleString("en")} posts match` + (scenario.page > 0 ? `; cursor = row ${scenario.depth + 1} of the filter` : ""));
        const idle = await waitForQuiet(log);
        await load(url, WARMUP_SECONDS);
        const cpuBefore = await cpuSnapshot(client, server.pid);
        const measured = await load(url, MEASURE_SECONDS);
        Object.assign(measured, CLOCK_TICKS ? await cpuPerRequest(client, server.pid, cpuBefore, measured.requests) : {});
        log(`   ${measured.requests} requests, ${measured.rps.toFixed(1)} req/s, p50 ${measured.p50.toFixed(1)} ms, p95 ${measured.p95.toFixed(1)} ms, p99 ${measured.p99.toFixed(1)} ms`);
        if (CLOCK_TICKS) log(`   CPU per request: server ${measured.appMs.toFixed(1)} ms, PostgreSQL ${measured.dbMs.toFixed(1)} ms (cores ${Math.round(idle * 100)} % idle before the warm-up)`);
        const plan = await explain(client, scenario);
        for (const line of plan.lines) log(`   | ${line}`);
        if (plan.seqScan) log(`   !! WARNING: the plan has a Seq Scan on opportunity_posts (${scenario.label}, ${size} posts)`);
        if (!plan.usesIndex) log(`   !! WARNING: the plan uses neither ${INDEXES.join(" nor ")}`);
        results[scenario.key] = { scenario, measured, plan };
      }
      return results;
    });
  } finally {
    await server.stop();
    // LOG_LEVEL=warn: anything the server said is a warning or an error worth seeing.
    const said = server.output().trim();
    if (said) log(`   server output (last 4,000 characters):\n${said.slice(-4000)}`);
  }
}

// ---------------------------------------------------------------- report

async function machine() {
  const cpus = os.cpus();
  const postgres = await withClient(DB_URL, async (client) => (await client.query("show server_version")).rows[0].server_version);
  const autocannonVersion = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/autocannon/package.json"), "utf8")).version;
  return `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}; ` +
    `Node ${process.version}, PostgreSQL ${postgres}, autocannon ${autocannonVersion}`;
}

function printTable(small, large, log) {
  const cell = (value, width) => String(value).padStart(width);
  log("\nscenario                    1k req/s  1k p95 ms  1M req/s  1M p95 ms  ratio (1M ÷ 1k req/s)");
  const low = [];
  for (const { key, label } of SCENARIOS) {
    const a = small[key].measured;
    const b = large[key].measured;
    const ratio = b.rps / a.rps;
    if (ratio < 0.8) low.push(label);
    log(
      label.padEnd(26) + cell(a.rps.toFixed(1), 10) + cell(a.p95.toFixed(1), 11) + cell(b.rps.toFixed(1), 10) + cell(b.p95.toFixed(1), 11) +
        cell(ratio.toFixed(2), 8) + (ratio < 0.8 ? "  < 0.8 target" : ""),
    );
  }
  log("\nplans (node › node; median execution time of 5 EXPLAIN ANALYZE runs, warm):");
  for (const { key, label } of SCENARIOS) {
    for (const [size, results] of [["1k", small], ["1M", large]]) {
      const plan = results[key].plan;
      log(`  ${label.padEnd(24)} ${size}: ${plan.nodes.join(" › ")}; ${plan.executionMs} ms` + (plan.seqScan ? "  !! Seq Scan" : ""));
    }
  }
  if (CLOCK_TICKS) {
    log("\nCPU ms per request (server / PostgreSQL):");
    for (const { key, label } of SCENARIOS) {
      const a = small[key].measured;
      const b = large[key].measured;
      log(`  ${label.padEnd(24)} 1k: ${a.appMs.toFixed(1)} / ${a.dbMs.toFixed(1)}   1M: ${b.appMs.toFixed(1)} / ${b.dbMs.toFixed(1)}`);
    }
  }
  if (low.length > 0) log(`\n!! Below the 0.8 target: ${low.join(", ")}. See the plans above.`);
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    console.error("No build found. Run `npm run build` first: npm run build && node bench/opportunities/run.mjs");
    process.exit(1);
  }
  const log = (line) => console.log(line);
  log(`database ${DB_URL} (dropped and created); ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s per scenario`);
  await recreateDatabase();

  const small = await measureSize(SIZES[0], log);
  // The server is stopped while the table grows, as the issue asks; the same database is kept.
  log(`\n== filling to ${SIZES[1].toLocaleString("en")} posts (server stopped) ==`);
  await withClient(DB_URL, async (client) => {
    await fill(client, SIZES[1], { log });
    // Write the bulk load's dirty pages out now, not during the 1M measurement.
    await client.query("checkpoint");
  });
  const large = await measureSize(SIZES[1], log);

  log(`\nmachine: ${await machine()}`);
  printTable(small, large, log);
}

await main();
