// The opportunity list page end to end over HTTP at 1,000 and at 1,000,000 posts on PostgreSQL.
//   npm run build && node bench/opportunities/run.mjs
// Creates (drops first) the databases sponsorgrid_bench_1k and sponsorgrid_bench_1m on
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432, trust auth), fills them with
// fill.mjs, runs the built server on each, loads three list addresses with autocannon on the two
// servers in turn, round after round, and prints req/s and p95 per size, the ratio 1M ÷ 1k, and
// EXPLAIN (ANALYZE, BUFFERS) of the query each address runs.
// The databases are left in place afterwards so plans can be looked at again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { tsImport } from "tsx/esm/api";
import { CLOCK_TICKS, cpuPerRequest, cpuSnapshot } from "../lib/cpu.mjs";
import { startBuiltServer } from "../lib/app-server.mjs";
import { waitForQuiet } from "../lib/quiet.mjs";
import { fill, ONE_TAG, TOP_SIX_TAGS } from "./fill.mjs";

// The keys the server asks for, from the server's own code (tsx loads the TypeScript).
const { coveringKeys } = await tsImport("../../server/domains/opportunities/tag-keys.ts", import.meta.url);

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_BASE = (process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432").replace(/\/+$/, "");
const SIZES = [
  { label: "1k", count: 1_000, dbName: "sponsorgrid_bench_1k" },
  { label: "1M", count: 1_000_000, dbName: "sponsorgrid_bench_1m" },
];
const urlOf = (dbName) => `${PG_BASE}/${dbName}`;

// Load shape (stated in bench/README.md): the same for every scenario and size.
const CONNECTIONS = 10;
const WARMUP_SECONDS = 3;
const MEASURE_SECONDS = 10;
// Each round measures every address on both sizes back to back (in turn 1k first, then 1M
// first), so a slow spell of the shared machine lands on both sizes of a round, not on one.
// Five, not three: one round's ratio moves by ±0.05 here, and a median of three still did.
const ROUNDS = 5;
// What a browser sends; the server gzips HTML, which is part of the page's cost.
const REQUEST_HEADERS = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };

// The list contract: 20 per page, the page reads 21 rows to know whether a next page exists.
const PAGE_SIZE = 20;
const LIST_PATH = "/app/opportunities";
const INDEXES = [
  "opportunity_posts_pkey",
  "opportunity_posts_tags_gin_idx",
  "opportunity_posts_tag_pairs_gin_idx",
  "opportunity_posts_tag_triples_gin_idx",
];

const SCENARIOS = [
  { key: "none", label: "no filter, first page", tags: [], page: 0 },
  { key: "six", label: "6 tags, first page", tags: TOP_SIX_TAGS, page: 0 },
  { key: "one", label: "1 tag, page 50", tags: [ONE_TAG], page: 50 },
];


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

async function recreateDatabase(dbName) {
  await withClient(`${PG_BASE}/postgres`, async (admin) => {
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.query(`create database ${dbName}`);
  });
}


/**
 * `node server.js` as `npm run serve` runs it; on start it migrates and seeds the database.
 * LOG_LEVEL=warn keeps the per-request log line out of the measurement, which also hides the
 * "is running at" line, so readiness is an HTTP probe instead.
 */
async function startServer(dbUrl) {
  return startBuiltServer({
    root: ROOT,
    databaseUrl: dbUrl,
    timeoutMs: 120_000,
    // This measures rendering the list; a guest page cache in front of it would measure the cache.
    env: { PUBLIC_ORIGIN: "", GUEST_PAGE_CACHE: "off" },
  });
}

// ---------------------------------------------------------------- what each address asks for

/**
 * The SQL the page's loader runs for a list (server/domains/opportunities/list.ts through Drizzle):
 * summary columns; one tag by containment, two by their pair, three or more by covering
 * triples (hasEveryTag); keyset cursor; primary-key order; one row more than a page.
 */
function pageQuery(tags, after) {
  const values = [];
  const where = [];
  if (tags.length === 1) {
    values.push(tags);
    where.push(`tags @> $${values.length}::text[]`);
  }
  if (tags.length === 2) {
    values.push(coveringKeys(tags, 2));
    where.push(`tag_pairs @> $${values.length}::text[]`);
  }
  if (tags.length > 2) {
    values.push(coveringKeys(tags, 3));
    where.push(`tag_triples @> $${values.length}::text[]`);
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

// ---------------------------------------------------------------- the two sizes

/**
 * Creates the size's database, lets the server migrate and seed it, fills it (server stopped),
 * then starts the server that is measured and checks each address once by hand.
 */
async function prepareSize(size, log) {
  const dbUrl = urlOf(size.dbName);
  await recreateDatabase(size.dbName);
  const migrating = await startServer(dbUrl);
  await migrating.stop();
  log(`\n== ${size.label}: ${size.dbName}, filled to ${size.count.toLocaleString("en")} posts ==`);
  await withClient(dbUrl, async (client) => {
    await fill(client, size.count, { log });
    // Write the bulk load's dirty pages out now, not during a measurement.
    await client.query("checkpoint");
  });
  const server = await startServer(dbUrl);
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const scenarios = {};
  for (const base of SCENARIOS) {
    const scenario = await resolveScenario(client, base);
    await checkPage(server.base, scenario);
    if (scenario.key === "six" && scenario.matching <= PAGE_SIZE) {
      throw new Error(`only ${scenario.matching} posts have the six tags at ${size.label}: the page would not be the full one measured at the other size`);
    }
    log(`   ${scenario.label}: ${scenario.path}`);
    log(`     ${scenario.matching.toLocaleString("en")} ${scenario.matching === 1 ? "post matches" : "posts match"}` + (scenario.page > 0 ? `; cursor = row ${scenario.depth + 1} of the filter` : ""));
    scenarios[scenario.key] = scenario;
  }
  const runs = Object.fromEntries(SCENARIOS.map(({ key }) => [key, []]));
  return { ...size, server, client, scenarios, runs };
}

async function releaseSize(prepared, log) {
  if (!prepared) return;
  await prepared.client.end();
  await prepared.server.stop();
  // LOG_LEVEL=warn: anything the server said is a warning or an error worth seeing.
  const said = prepared.server.output().trim();
  if (said) log(`   ${prepared.label} server output (last 4,000 characters):\n${said.slice(-4000)}`);
}

/** One measurement of one address on one size: warm-up, then the measured run. */
async function measureOnce(prepared, key, log) {
  const url = prepared.server.base + prepared.scenarios[key].path;
  const idle = await waitForQuiet({
    maxSeconds: 180,
    onStillBusy: (busyIdle) => log(`   !! the machine is still busy (${Math.round(busyIdle * 100)} % idle) after 180 s: measuring anyway, expect noise`),
  });
  await load(url, WARMUP_SECONDS);
  const cpuBefore = await cpuSnapshot(prepared.server.pid, prepared.client);
  const measured = await load(url, MEASURE_SECONDS);
  if (CLOCK_TICKS) {
    const { serverMs, dbMs } = await cpuPerRequest(prepared.server.pid, prepared.client, cpuBefore, measured.requests);
    Object.assign(measured, { appMs: serverMs, dbMs });
  }
  log(
    `   ${prepared.label.padEnd(3)} ${measured.requests} requests, ${measured.rps.toFixed(1)} req/s, p50 ${measured.p50.toFixed(1)} ms, ` +
      `p95 ${measured.p95.toFixed(1)} ms` +
      (CLOCK_TICKS ? `; CPU per request: server ${measured.appMs.toFixed(1)} ms, PostgreSQL ${measured.dbMs.toFixed(1)} ms` : "") +
      ` (cores ${Math.round(idle * 100)} % idle before)`,
  );
  prepared.runs[key].push(measured);
  return measured;
}

// ---------------------------------------------------------------- report

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

async function machine(dbUrl) {
  const cpus = os.cpus();
  const postgres = await withClient(dbUrl, async (client) => (await client.query("show server_version")).rows[0].server_version);
  const autocannonVersion = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/autocannon/package.json"), "utf8")).version;
  return `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}; ` +
    `Node ${process.version}, PostgreSQL ${postgres}, autocannon ${autocannonVersion}`;
}

function printTable(small, large, ratios, plans, log) {
  const cell = (value, width) => String(value).padStart(width);
  log(`\nmedians of ${ROUNDS} rounds; the ratio is the median of each round's 1M req/s ÷ 1k req/s`);
  log("scenario                    1k req/s  1k p95 ms  1M req/s  1M p95 ms  ratio   (each round)");
  const low = [];
  for (const { key, label } of SCENARIOS) {
    const a = small.runs[key];
    const b = large.runs[key];
    const ratio = median(ratios[key]);
    if (ratio < 0.8) low.push(label);
    log(
      label.padEnd(26) +
        cell(median(a.map((run) => run.rps)).toFixed(1), 10) +
        cell(median(a.map((run) => run.p95)).toFixed(1), 11) +
        cell(median(b.map((run) => run.rps)).toFixed(1), 10) +
        cell(median(b.map((run) => run.p95)).toFixed(1), 11) +
        cell(ratio.toFixed(2), 7) +
        `   (${ratios[key].map((r) => r.toFixed(2)).join(", ")})` +
        (ratio < 0.8 ? "  < 0.8 target" : ""),
    );
  }
  log("\nplans (node › node; median execution time of 5 EXPLAIN ANALYZE runs, warm):");
  for (const { key, label } of SCENARIOS) {
    for (const size of [small, large]) {
      const plan = plans[size.label][key];
      log(`  ${label.padEnd(24)} ${size.label}: ${plan.nodes.join(" › ")}; ${plan.executionMs} ms` + (plan.seqScan ? "  !! Seq Scan" : ""));
    }
  }
  if (CLOCK_TICKS) {
    log("\nCPU ms per request, median of the rounds (server / PostgreSQL):");
    for (const { key, label } of SCENARIOS) {
      const cpu = (runs) => `${median(runs.map((run) => run.appMs)).toFixed(1)} / ${median(runs.map((run) => run.dbMs)).toFixed(1)}`;
      log(`  ${label.padEnd(24)} 1k: ${cpu(small.runs[key])}   1M: ${cpu(large.runs[key])}`);
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
  log(
    `databases ${SIZES.map((size) => urlOf(size.dbName)).join(" and ")} (dropped and created); ${CONNECTIONS} connections, ` +
      `${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s per address and size, ${ROUNDS} rounds`,
  );
  let small;
  let large;
  try {
    small = await prepareSize(SIZES[0], log);
    large = await prepareSize(SIZES[1], log);
    const ratios = Object.fromEntries(SCENARIOS.map(({ key }) => [key, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      log(`\n== round ${round} of ${ROUNDS} ==`);
      for (const { key, label } of SCENARIOS) {
        log(`-- ${label}`);
        const order = round % 2 === 1 ? [small, large] : [large, small];
        for (const prepared of order) await measureOnce(prepared, key, log);
        ratios[key].push(large.runs[key].at(-1).rps / small.runs[key].at(-1).rps);
        log(`   ratio 1M ÷ 1k: ${ratios[key].at(-1).toFixed(2)}`);
      }
    }

    const plans = {};
    for (const size of [small, large]) {
      plans[size.label] = {};
      for (const { key, label } of SCENARIOS) {
        const plan = await explain(size.client, size.scenarios[key]);
        log(`\n-- plan, ${label}, ${size.label}:`);
        for (const line of plan.lines) log(`   | ${line}`);
        if (plan.seqScan) log(`   !! WARNING: the plan has a Seq Scan on opportunity_posts (${label}, ${size.label})`);
        if (!plan.usesIndex) log(`   !! WARNING: the plan uses neither ${INDEXES.join(" nor ")}`);
        plans[size.label][key] = plan;
      }
    }

    log(`\nmachine: ${await machine(urlOf(large.dbName))}`);
    printTable(small, large, ratios, plans, log);
  } finally {
    await releaseSize(small, log);
    await releaseSize(large, log);
  }
}

await main();
