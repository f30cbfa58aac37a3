/**
 * Our task queue (server/platform/jobs/task-queue.ts on the shared work loop) against pg-boss, on
 * PGlite and on PostgreSQL (ADR 0063):
 *   - start: what each adds to a fresh database (tables, indexes, functions) and how long creating
 *     it takes (ours: migration 0044's statements; pg-boss: `start()`, which installs its schema);
 *   - enqueue: N jobs queued one statement each, as requests queue them (jobs/s);
 *   - drain: N queued jobs run to completion by one process, two workers (jobs/s);
 *   - pick-up: an idle worker, a job queued (and kicked, where the queue can be): ms until its
 *     handler starts, median and p95 of SAMPLES.
 *
 *   flock /tmp/bench.lock node bench/jobs/run.mjs
 *
 * pg-boss is not a dependency: install it apart (`npm install --prefix /tmp/try-pgboss pg-boss`)
 * and point PGBOSS_DIR at that folder. BENCH_PG_URL names a PostgreSQL the benchmark may create
 * and drop databases on (default postgres://postgres@127.0.0.1:5432/postgres); JOBS=N, SAMPLES=N.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { tsImport } from "tsx/esm/api";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PGBOSS_DIR = process.env.PGBOSS_DIR ?? "/tmp/try-pgboss";
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const JOBS = Number(process.env.JOBS ?? 1_000);
const SAMPLES = Number(process.env.SAMPLES ?? 30);
const LANES = 2;
/** pg-boss's jobs per fetch (its `batchSize`); 1 makes each worker take one job per poll. */
const BATCH = Number(process.env.PGBOSS_BATCH ?? 20);

const load = (modulePath) => tsImport(modulePath, import.meta.url);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const round = (value, digits = 0) => Number(value.toFixed(digits));

const { default: pino } = await import("pino");
const logger = pino({ level: "silent" });
const { createTaskQueue } = await load("../../server/platform/jobs/task-queue.ts");
const { PgBoss, fromPglite } = await import(path.join(PGBOSS_DIR, "node_modules/pg-boss/dist/index.js"));
const { PGlite } = await import("@electric-sql/pglite");
const { default: pg } = await import("pg");
const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
const { drizzle: drizzlePg } = await import("drizzle-orm/node-postgres");

/** Migration 0044: all that our queue adds to a database. */
const OUR_DDL = fs
  .readFileSync(path.join(ROOT, "server/platform/db/migrations/0044_queued_tasks.sql"), "utf8")
  .split("--> statement-breakpoint")
  .map((statement) => statement.trim())
  .filter(Boolean);

/** A fresh, empty database of `engine`: a query function, a drizzle handle for ours, a pg-boss `db` option, and a closer. */
async function freshDatabase(engine, name) {
  if (engine === "pglite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-jobs-${name}-`));
    const client = await PGlite.create(dir);
    return {
      query: async (text) => (await client.query(text)).rows,
      db: drizzlePglite({ client, casing: "snake_case" }),
      boss: { db: fromPglite(client), backend: "pglite" },
      close: async () => {
        await client.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists bench_jobs_${name} with (force)`);
  await admin.query(`create database bench_jobs_${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/bench_jobs_${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  // The database is dropped with (force) at the end: a connection cut then is expected.
  pool.on("error", () => {});
  return {
    query: async (text) => (await pool.query(text)).rows,
    db: drizzlePg({ client: pool, casing: "snake_case" }),
    boss: { connectionString: url.toString(), max: 10 },
    close: async () => {
      await pool.end();
      await admin.query(`drop database if exists bench_jobs_${name} with (force)`);
      await admin.end();
    },
  };
}

/** What a system added to a database: its tables, indexes and functions outside the system catalogues. */
async function footprint(query) {
  const [row] = await query(`select
      (select count(*)::int from pg_tables where schemaname not in ('pg_catalog', 'information_schema')) as tables,
      (select count(*)::int from pg_indexes where schemaname not in ('pg_catalog', 'information_schema')) as indexes,
      (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')) as functions`);
  return row;
}

/** One queue system on one database: start it, then enqueue/drain and pick-up measurements. */
async function measure(engine, system) {
  const database = await freshDatabase(engine, system.replace("-", "_"));
  try {
    let handled = 0;
    let onHandled = () => {};
    const handler = async () => {
      handled += 1;
      onHandled();
    };
    const startedAt = performance.now();
    let enqueue;
    // Stored without waking a worker (ours wakes its loop on every enqueue otherwise, even unstarted).
    let store;
    let startWorker;
    let stop;
    if (system === "ours") {
      for (const statement of OUR_DDL) await database.query(statement);
      const queue = createTaskQueue({ db: database.db, logger, lanes: LANES });
      queue.handle("bench", handler);
      enqueue = (n) => queue.enqueue("bench", { n });
      store = (n) => queue.enqueue("bench", { n }, database.db);
      startWorker = async () => queue.start();
      stop = () => queue.close();
    } else {
      // Its best case for pick-up: LISTEN/NOTIFY on, so a sent job wakes the worker (both engines support it).
      const boss = new PgBoss({ ...database.boss, useListenNotify: true });
      boss.on("error", (error) => console.error("pg-boss:", error.message));
      await boss.start();
      await boss.createQueue("bench", { notify: true });
      enqueue = (n) => boss.send("bench", { n });
      store = enqueue;
      // Two workers as our two lanes, polling every second as ours. A worker fetches one batch per
      // poll, and again at once while batches come back full, so throughput follows BATCH; each job of
      // a batch is handled in turn and the batch completes together.
      startWorker = () =>
        boss.work("bench", { localConcurrency: LANES, batchSize: BATCH, burstWhenBatchFull: true, pollingIntervalSeconds: 1 }, async (jobs) => {
          for (const job of jobs) await handler(job);
        });
      stop = () => boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    }
    const startMs = performance.now() - startedAt;
    const added = await footprint(database.query);

    // Enqueue N with no worker running, then drain them.
    let t = performance.now();
    for (let n = 0; n < JOBS; n += 1) await store(n);
    const enqueueSeconds = (performance.now() - t) / 1000;
    const drained = new Promise((resolve) => (onHandled = () => handled >= JOBS && resolve()));
    t = performance.now();
    await startWorker();
    await drained;
    const drainSeconds = (performance.now() - t) / 1000;

    // Pick-up: the worker idle (past a poll), one job queued; until its handler starts.
    const pickups = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      await sleep(250 + Math.random() * 750);
      const seen = new Promise((resolve) => (onHandled = resolve));
      const sentAt = performance.now();
      await enqueue(-1);
      await seen;
      pickups.push(performance.now() - sentAt);
    }
    await stop();
    return {
      engine,
      system,
      startMs: round(startMs),
      ...added,
      enqueuePerSecond: round(JOBS / enqueueSeconds),
      drainPerSecond: round(JOBS / drainSeconds),
      pickupMedianMs: round(median(pickups), 1),
      pickupP95Ms: round(p95(pickups), 1),
    };
  } finally {
    await database.close();
  }
}

const engines = (process.env.ENGINES ?? "pglite,postgres").split(",");
const results = [];
for (const engine of engines) {
  for (const system of ["ours", "pg-boss"]) {
    const result = await measure(engine, system);
    console.error(JSON.stringify(result));
    results.push(result);
  }
}
console.log(`jobs=${JOBS} samples=${SAMPLES} lanes=${LANES} pg-boss batch=${BATCH} node=${process.version}`);
console.table(results);
