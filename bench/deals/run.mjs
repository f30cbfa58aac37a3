// The deal room's two loaders at 100,000 deals, on PGlite and on PostgreSQL: the deal page
// (`/app/deals/{id}`: readDeal and the thread) for the heavy creator's deals, and My deals
// (`/app/deals`) first and deep page, "All" and "Waiting on you", for the heavy creator (5,000
// deals) and an average one, end to end over HTTP on the built server with a signed-in session.
// Then EXPLAIN (ANALYZE, BUFFERS) of every SELECT those loaders' domain reads send, captured from
// the very calls (readDeal, readDealThread, myDeals), on each engine.
//   npm run build && flock /tmp/bench.lock node bench/deals/run.mjs
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/sponsorgrid_bench_deals: dropped and
// created, left in place for looking at plans), BENCH_ENGINES (pglite,postgres), BENCH_SAMPLES (300).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { tsImport } from "tsx/esm/api";
import { startBuiltServer } from "../lib/app-server.mjs";
import { CLOCK_TICKS, cpuPerRequest, cpuSnapshot } from "../lib/cpu.mjs";
import { waitForQuiet } from "../lib/quiet.mjs";
import { emptyPostgres, signIn } from "../lib/requests.mjs";
import { fill, HEAVY_EMAIL, HEAVY_UID, openBenchDb } from "./fill.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/sponsorgrid_bench_deals";
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
// One request at a time on one kept-alive connection: each figure is a request's own time (the
// loader, the session, React Router, compression), not a queue behind other connections.
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARMUP = 30;
const PAGE_SIZE = 30; // MY_DEALS_PAGE_SIZE
const TARGET_P95_MS = 50;
const REQUEST_HEADERS = { "accept-encoding": "gzip, deflate, br", "accept-language": "en-US,en;q=0.9" };

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET on the kept connection: status, body (as sent, not decompressed) and milliseconds to its last byte. */
function get(url, cookie) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { agent, headers: { ...REQUEST_HEADERS, cookie } }, (res) => {
        const pieces = [];
        res.on("data", (piece) => pieces.push(piece));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(pieces), ms: performance.now() - started }));
      })
      .on("error", reject);
  });
}

/** The same page uncompressed, to check what it shows. */
async function text(url, cookie) {
  const response = await fetch(url, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return response.text();
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// ---------------------------------------------------------------- what is measured


/** Rows `offset` and `offset + 1` of a creator's list (newest activity first): the cursor, and the first deal after it. */
async function cursorAt(db, uid, waiting, offset) {
  const { rows } = await db.query(
    `select id, (extract(epoch from updated_at) * 1000000)::bigint::text as micros from deals where creator_uid = '${uid}'${waiting ? " and waiting_on = 'creator'" : ""}
     order by updated_at desc, id desc offset ${offset} limit 2`,
  );
  return rows;
}

/**
 * The addresses, read from the filled database: eight of the heavy creator's deals (the four
 * longest threads and four ordinary ones), and for each person and filter the first page and a
 * the last page (the keyset cursor of its first row), with the deal that page
 * must start with.
 */
async function resolveScenarios(db, average) {
  const { rows: heavyDeals } = await db.query(
    `(select id, title, message_count, latest_version from deals where creator_uid = '${HEAVY_UID}' order by message_count desc, latest_version desc, id limit 4)
     union all
     (select id, title, message_count, latest_version from deals where creator_uid = '${HEAVY_UID}' and message_count between 1 and 8 order by md5(id) limit 4)`,
  );
  const scenarios = [
    {
      key: "deal",
      label: "deal page, heavy creator (8 deals in turn)",
      who: "heavy",
      paths: heavyDeals.map((deal) => `/app/deals/${deal.id}`),
      expect: heavyDeals.map((deal) => deal.id),
      deals: heavyDeals,
    },
  ];
  for (const person of [
    { who: "heavy", uid: HEAVY_UID, name: "heavy creator" },
    { who: "average", uid: average.uid, name: "average creator" },
  ]) {
    for (const waiting of [false, true]) {
      const { rows } = await db.query(`select count(*)::int as n from deals where creator_uid = '${person.uid}'${waiting ? " and waiting_on = 'creator'" : ""}`);
      const count = rows[0].n;
      const filter = waiting ? "Waiting on you" : "All";
      const [first] = await cursorAt(db, person.uid, waiting, 0);
      const base = waiting ? "/app/deals?show=waiting" : "/app/deals";
      scenarios.push({ key: `${person.who}-${waiting ? "waiting" : "all"}-first`, label: `My deals, ${person.name}, ${filter}, first page`, who: person.who, paths: [base], expect: first ? [first.id] : [], count });
      // The last page: the deepest cursor, and the one whose scan runs to the end of the person's
      // deals (fewer than a page's worth match after it, so the LIMIT never stops it early).
      const deepRow = Math.floor((count - 1) / PAGE_SIZE) * PAGE_SIZE - 1;
      if (deepRow < PAGE_SIZE - 1) continue; // no second page to speak of
      const [cursor, next] = await cursorAt(db, person.uid, waiting, deepRow);
      // The platform's keyset cursor (server/platform/db/keyset.ts): the row's place in microseconds and its id.
      const after = Buffer.from(JSON.stringify({ micros: cursor.micros, id: cursor.id })).toString("base64url");
      scenarios.push({
        key: `${person.who}-${waiting ? "waiting" : "all"}-deep`,
        label: `My deals, ${person.name}, ${filter}, page ${(deepRow + 1) / PAGE_SIZE + 1} of ${Math.ceil(count / PAGE_SIZE)}`,
        who: person.who,
        paths: [`${base}${waiting ? "&" : "?"}after=${after}`],
        expect: [next.id],
        count,
        cursor: { micros: cursor.micros, id: cursor.id },
        waiting,
      });
    }
  }
  return scenarios;
}

/** Each address once by hand: a 200 that shows the deal it must. */
async function checkScenario(base, cookie, scenario) {
  for (const [i, pathAndQuery] of scenario.paths.entries()) {
    const html = await text(base + pathAndQuery, cookie);
    const id = scenario.expect[i] ?? scenario.expect[0];
    if (id && !html.includes(id)) throw new Error(`${pathAndQuery} does not show ${id}`);
    const data = await text(base + dataPath(pathAndQuery), cookie);
    if (id && !data.includes(id)) throw new Error(`${dataPath(pathAndQuery)} does not carry ${id}`);
  }
}

/** React Router's single fetch for a page's loaders: what a client-side navigation asks for. */
function dataPath(pathAndQuery) {
  const [pathname, query] = pathAndQuery.split("?");
  return `${pathname}.data${query ? `?${query}` : ""}`;
}

async function measure(server, pgClient, cookie, paths, log) {
  const base = server.base;
  const idle = await waitForQuiet({ maxSeconds: 30, onStillBusy: (busy) => log(`   !! still busy (${Math.round(busy * 100)} % idle) after 30 s: measuring anyway`) });
  const out = { idle };
  for (const [kind, toPath] of [["data", dataPath], ["html", (p) => p]]) {
    const times = [];
    let cpuBefore = null;
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      if (i === WARMUP && CLOCK_TICKS) cpuBefore = await cpuSnapshot(server.pid, pgClient);
      const url = base + toPath(paths[i % paths.length]);
      const { status, ms } = await get(url, cookie);
      if (status !== 200) throw new Error(`${url}: ${status}`);
      if (i >= WARMUP) times.push(ms);
    }
    times.sort((a, b) => a - b);
    const cpu = cpuBefore ? await cpuPerRequest(server.pid, pgClient, cpuBefore, SAMPLES) : { serverMs: NaN, dbMs: NaN };
    out[kind] = { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), ...cpu };
  }
  return out;
}

// ---------------------------------------------------------------- plans

/**
 * Runs the loaders' domain reads on an opened database with its driver's `query` wrapped, and
 * returns every SELECT they sent with its values: the app's own SQL, not a copy of it.
 */
async function captureStatements(handle, calls) {
  const client = handle.db.$client;
  const original = client.query.bind(client);
  const seen = [];
  client.query = (query, values, ...rest) => {
    const sqlText = typeof query === "string" ? query : query.text;
    const params = Array.isArray(values) ? values : (query.values ?? []);
    if (/^\s*select/i.test(sqlText)) seen.push({ text: sqlText, values: params });
    return original(query, values, ...rest);
  };
  try {
    for (const call of calls) await call();
  } finally {
    client.query = original;
  }
  return seen;
}

/** EXPLAIN (ANALYZE, BUFFERS), 5 times, warm; the median run's plan is kept. */
async function explain(handle, statement) {
  const client = handle.db.$client;
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const result = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
    const lines = result.rows.map((row) => row["QUERY PLAN"]);
    runs.push({ lines, executionMs: Number(lines.join("\n").match(/Execution Time: ([\d.]+) ms/)?.[1]) });
  }
  runs.sort((a, b) => a.executionMs - b.executionMs);
  const { lines, executionMs } = runs[2];
  const plan = lines.join("\n");
  return {
    lines,
    executionMs,
    seqScan: /Seq Scan on deal/.test(plan),
    // A Sort over a thousand rows or more: the index did not give the order.
    bigSort: lines.some((line) => /->\s+Sort\b|^Sort\b/.test(line.trim()) && Number(line.match(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/)?.[1] ?? 0) >= 1000),
    removedByFilter: [...plan.matchAll(/Rows Removed by Filter: (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0),
    buffers: Number(plan.match(/Buffers: shared hit=(\d+)/)?.[1] ?? 0) + Number(plan.match(/Buffers: shared hit=\d+ read=(\d+)/)?.[1] ?? 0),
    indexes: [...new Set([...plan.matchAll(/Index (?:Only )?Scan(?: Backward)? (?:using|on) (\w+)/g)].map((m) => m[1]))],
    nodes: lines
      .filter((line, i) => i === 0 || line.trim().startsWith("->"))
      .map((line) => line.replace(/^\s*->\s*/, "").replace(/\s+\(cost=[^)]*\)\s*\(actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+) loops=(\d+)\)/, (_, rows, loops) => ` [rows ${Number(rows)}×${loops}]`)
        .replace(/\s+\(cost=[^)]*\)\s*\(never executed\)/, " [never run]").trim()),
  };
}

async function plansFor(engine, target, scenarios, average, log) {
  const { openPglite, openPostgres } = await tsImport("../../server/platform/db/client.ts", import.meta.url);
  const { readDeal, myDeals } = await tsImport("../../server/domains/deals/read.ts", import.meta.url);
  const { readDealThread } = await tsImport("../../server/domains/deals/thread.ts", import.meta.url);
  const handle = engine === "pglite" ? await openPglite(target) : await openPostgres(target);
  const uidOf = { heavy: HEAVY_UID, average: average.uid };
  const out = {};
  try {
    for (const scenario of scenarios) {
      const uid = uidOf[scenario.who];
      const calls =
        scenario.key === "deal"
          ? [
              async () => {
                const read = await readDeal(handle.db, uid, scenario.deals[0].id);
                return readDealThread(handle.db, read.thread);
              },
            ]
          : [() => myDeals(handle.db, uid, { waitingOnly: scenario.key.includes("waiting"), after: scenario.cursor ?? null })];
      const statements = await captureStatements(handle, calls);
      out[scenario.key] = [];
      for (const statement of statements) {
        const plan = await explain(handle, statement);
        out[scenario.key].push({ statement, plan });
        log(`\n-- ${engine}, ${scenario.label}:\n   ${statement.text}\n   values: ${JSON.stringify(statement.values)}`);
        for (const line of plan.lines) log(`   | ${line}`);
        if (plan.seqScan) log("   !! WARNING: Seq Scan on a deal table");
        if (plan.bigSort) log("   !! WARNING: a Sort of thousands of rows");
      }
    }
  } finally {
    await handle.close();
  }
  return out;
}

// ---------------------------------------------------------------- one engine

async function runEngine(engine, log) {
  const work = engine === "pglite" ? fs.mkdtempSync(path.join(os.tmpdir(), "deals-bench-")) : null;
  const dataDir = work ? path.join(work, "data") : "";
  const databaseUrl = engine === "postgres" ? PG_URL : "";
  const target = databaseUrl || dataDir;
  const start = () => startBuiltServer({ root: ROOT, dataDir, databaseUrl });
  try {
    if (databaseUrl) await emptyPostgres(databaseUrl);
    log(`\n== ${engine}: ${target} ==`);
    // First start migrates and seeds; the data goes in while the server is stopped (PGlite has one owner).
    await (await start()).stop();
    const db = await openBenchDb(target);
    let filled;
    let scenarios;
    try {
      filled = await fill(db, { log });
      if (engine === "postgres") await db.query("checkpoint");
      scenarios = await resolveScenarios(db, filled.average);
    } finally {
      await db.close();
    }
    const server = await start();
    const results = {};
    let pgClient = null;
    try {
      if (engine === "postgres") {
        const { default: pg } = await import("pg");
        pgClient = new pg.Client({ connectionString: databaseUrl });
        await pgClient.connect();
      }
      const cookies = { heavy: await signIn(server.base, HEAVY_EMAIL), average: await signIn(server.base, filled.average.email) };
      for (const scenario of scenarios) {
        await checkScenario(server.base, cookies[scenario.who], scenario);
        const result = await measure(server, pgClient, cookies[scenario.who], scenario.paths, log);
        results[scenario.key] = result;
        log(
          `   ${scenario.label.padEnd(62)} loader p50/p95/p99 ${result.data.p50.toFixed(1)} / ${result.data.p95.toFixed(1)} / ${result.data.p99.toFixed(1)} ms; ` +
            `page ${result.html.p50.toFixed(1)} / ${result.html.p95.toFixed(1)} / ${result.html.p99.toFixed(1)} ms; ` +
            `CPU per loader request ${result.data.serverMs.toFixed(2)} ms server + ${result.data.dbMs.toFixed(2)} ms PostgreSQL (${Math.round(result.idle * 100)} % idle before)`,
        );
      }
    } finally {
      await pgClient?.end();
      await server.stop();
      const said = server.output().trim();
      if (said) log(`   server output (last 4,000 characters):\n${said.slice(-4000)}`);
    }
    const plans = await plansFor(engine, target, scenarios, filled.average, log);
    return { engine, filled, scenarios, results, plans };
  } finally {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- report

function report(runs, log) {
  log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`);
  log(`${SAMPLES} requests per address after ${WARMUP} warm-up, one at a time; target loader p95 ≤ ${TARGET_P95_MS} ms`);
  log("| engine | address | loader (.data) p50 / p95 / p99 ms | page (HTML) p50 / p95 / p99 ms | CPU ms per loader request, server + PostgreSQL | SQL execution, ms (EXPLAIN ANALYZE, each statement) |");
  log("|---|---|---|---|---|---|");
  const over = [];
  for (const run of runs) {
    for (const scenario of run.scenarios) {
      const r = run.results[scenario.key];
      const f = (x) => `${x.p50.toFixed(1)} / **${x.p95.toFixed(1)}** / ${x.p99.toFixed(1)}`;
      const sqlMs = run.plans[scenario.key].map(({ plan }) => plan.executionMs.toFixed(2)).join(" + ");
      const cpu = run.engine === "postgres" ? `${r.data.serverMs.toFixed(1)} + ${r.data.dbMs.toFixed(1)}` : `${r.data.serverMs.toFixed(1)}`;
      log(`| ${run.engine} | ${scenario.label} | ${f(r.data)} | ${f(r.html)} | ${cpu} | ${sqlMs} |`);
      if (r.data.p95 > TARGET_P95_MS) over.push(`${run.engine}: ${scenario.label} (${r.data.p95.toFixed(1)} ms)`);
    }
  }
  log("\nplans (node [rows × loops]):");
  for (const run of runs) {
    for (const scenario of run.scenarios) {
      for (const { plan } of run.plans[scenario.key]) {
        log(
          `  ${run.engine.padEnd(8)} ${scenario.key.padEnd(20)} ${plan.executionMs} ms, ${plan.buffers} buffers, ${plan.removedByFilter} rows removed by filter; ` +
            `indexes ${plan.indexes.join(", ") || "none"}${plan.seqScan ? "  !! Seq Scan" : ""}${plan.bigSort ? "  !! big Sort" : ""}\n           ${plan.nodes.join(" › ")}`,
        );
      }
    }
  }
  log(over.length ? `\n!! Over the ${TARGET_P95_MS} ms target: ${over.join("; ")}` : `\nEvery loader's p95 is within ${TARGET_P95_MS} ms.`);
}

if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
  console.error("No build found. Run `npm run build` first.");
  process.exit(1);
}
const log = (line) => console.log(line);
const runs = [];
for (const engine of ENGINES) runs.push(await runEngine(engine, log));
report(runs, log);
agent.destroy();
