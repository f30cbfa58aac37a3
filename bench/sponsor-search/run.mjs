// Sponsor search at 150 companies and at 100,000: name search and tag search on the
// real route, /app/sponsors, as a signed-in Pro member, with autocannon. The first page is the
// same at both sizes (fill.mjs); the ratio of req/s (100k ÷ 150) should be at least 0.8.
// Afterwards, EXPLAIN ANALYZE of both queries at 100k.
//   npm run build && flock /tmp/bench.lock node bench/sponsor-search/run.mjs                  # PGlite
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sponsorgrid_bench_sponsors \
//     flock /tmp/bench.lock node bench/sponsor-search/run.mjs                                 # PostgreSQL
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startBuiltServer } from "../lib/app-server.mjs";
import { emptyPostgres, signIn } from "../lib/requests.mjs";
import { DEMO_EMAIL, fillBase, grow, openBenchDb, SEARCH_NAME, SEARCH_TAG, shrink } from "./fill.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_URL = process.env.BENCH_DATABASE_URL ?? "";
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = 8;
const SCENARIOS = [
  { key: "name", label: `name search "${SEARCH_NAME}"`, path: `/app/sponsors?name=${SEARCH_NAME}` },
  { key: "tag", label: `tag search "${SEARCH_TAG}"`, path: `/app/sponsors?${new URLSearchParams([["tags[]", SEARCH_TAG]])}` },
];
// What listSponsorBlurbs sends (server/domains/sponsor-directory/list.ts), with the values inlined for EXPLAIN.
const QUERIES = {
  name: `select id, name, tags, blurb, website from external_sponsors where name_prefixes @> array['${SEARCH_NAME}']::text[] order by name asc, id asc limit 11 offset 0`,
  tag: `select id, name, tags, blurb, website from external_sponsors where tags @> array['${SEARCH_TAG}']::text[] order by name asc, id asc limit 11 offset 0`,
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), "sponsor-search-"));
const dataDir = path.join(work, "data");
const target = PG_URL || dataDir;

async function startApp() {
  return startBuiltServer({ root: ROOT, dataDir, databaseUrl: PG_URL });
}


/** The names on the first page, so the run can show both sizes answer the same page. */
async function firstPage(base, cookie, pathAndQuery) {
  const response = await fetch(`${base}${pathAndQuery}`, { headers: { cookie } });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status}`);
  return [...html.matchAll(/<h3[^>]*><a[^>]*>([^<]+)<\/a><\/h3>/g)].map((m) => m[1]);
}

async function measure(base, cookie, pathAndQuery) {
  const opts = { url: `${base}${pathAndQuery}`, connections: CONNECTIONS, headers: { cookie, "accept-encoding": "gzip, deflate, br" } };
  await autocannon({ ...opts, duration: WARMUP_SECONDS });
  const result = await autocannon({ ...opts, duration: MEASURE_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${pathAndQuery}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function withDb(work) {
  const handle = await openBenchDb(target);
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

async function run(sizeLabel) {
  const app = await startApp();
  try {
    const cookie = await signIn(app.base, DEMO_EMAIL);
    const out = {};
    for (const scenario of SCENARIOS) {
      const names = await firstPage(app.base, cookie, scenario.path);
      out[scenario.key] = { names, ...(await measure(app.base, cookie, scenario.path)) };
      console.log(`${sizeLabel.padEnd(8)} ${scenario.label.padEnd(28)} ${out[scenario.key].rps.toFixed(0).padStart(6)} req/s  p50 ${out[scenario.key].p50} ms  p99 ${out[scenario.key].p99} ms`);
    }
    return out;
  } finally {
    await app.stop();
  }
}

try {
  if (PG_URL) await emptyPostgres(PG_URL);
  console.log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; engine: ${PG_URL ? "PostgreSQL" : "PGlite"}; ${CONNECTIONS} connections, ${MEASURE_SECONDS} s after ${WARMUP_SECONDS} s warm-up`);
  // First start migrates and seeds; the data is added while the server is stopped (PGlite has one owner).
  await (await startApp()).stop();
  await withDb(fillBase);
  const small = await run("150");
  await withDb((db) => grow(db));
  const large = await run("100,000");
  // The small size again, after the large one: on a busy machine the spread between the two
  // small runs says how much of a difference is noise.
  await withDb(shrink);
  const smallAgain = await run("150 again");
  for (const { key, label } of SCENARIOS) {
    const same = JSON.stringify(small[key].names) === JSON.stringify(large[key].names);
    if (!same || small[key].names.length !== 10) throw new Error(`${label}: first pages differ or are not full: ${small[key].names} / ${large[key].names}`);
    const before = small[key].rps;
    const after = smallAgain[key].rps;
    console.log(`${label}: ratio 100k/150 = ${(large[key].rps / ((before + after) / 2)).toFixed(2)} against the mean of both small runs (${(large[key].rps / before).toFixed(2)} / ${(large[key].rps / after).toFixed(2)}); first page identical: ${small[key].names.join(", ")}`);
  }
  await withDb((db) => grow(db));
  await withDb(async (db) => {
    const { sql } = await import("drizzle-orm");
    for (const [key, query] of Object.entries(QUERIES)) {
      const result = await db.execute(sql.raw(`explain (analyze, buffers) ${query}`));
      const rows = result.rows ?? result;
      console.log(`\nEXPLAIN ANALYZE (${key} search, 100,000 companies):\n${rows.map((row) => `  ${row["QUERY PLAN"]}`).join("\n")}`);
    }
  });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
