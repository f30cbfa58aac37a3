// Cold start to ready: from spawning the built server to its first 200 on `/readyz`, and to the
// first page (`/`) right after.
//
//   npm run build && flock /tmp/bench.lock node bench/cold-start/run.mjs
//
// Builds nothing itself. Four starts, each timed from `spawn` to the first 200 on `/readyz` (asked
// every 20 ms: what a balancer waits for), then to the first page rendered (`/`): the embedded database (PGlite) on an empty data folder (migrations and the demo
// seed), PGlite again on the folder that start left, PostgreSQL on an empty database
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/sg_bench_cold, emptied first),
// and PostgreSQL again. Each server is stopped (SIGTERM) before the next start. ROUNDS (default
// 3) repeats the four and gives the median and every value.
// See bench/README.md ("Cold start").
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtServerEnv, freePort, sleep } from "../lib/app-server.mjs";
import { emptyPostgres } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/sg_bench_cold";
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Milliseconds from spawn to ready (`/readyz` 200) and to the first page; then stops the server. */
async function timeStart({ dataDir, databaseUrl }) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["server.js"], { cwd: ROOT, env: { ...process.env, ...builtServerEnv(port, { dataDir, databaseUrl }) }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
      if (performance.now() - started > 300_000) throw new Error(`no 200 on /readyz in 300 s:\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        await response.arrayBuffer();
        if (response.status === 200) {
          const ready = performance.now() - started;
          const page = await fetch(`http://127.0.0.1:${port}/`);
          await page.arrayBuffer();
          if (page.status !== 200) throw new Error(`/ answered ${page.status} once ready`);
          return { ready, page: performance.now() - started };
        }
      } catch (error) {
        if (error instanceof Error && error.message.startsWith("/ answered")) throw error;
        // not listening yet
      }
      await sleep(20);
    }
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  }
}

async function main() {
  const log = (line) => console.log(line);
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) throw new Error("no build: run `npm run build` first");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-cold-"));
  const cases = {
    "PGlite, first start (empty data folder: migrations + demo seed)": [],
    "PGlite, restart (same folder)": [],
    "PostgreSQL, first start (empty database: migrations + demo seed)": [],
    "PostgreSQL, restart": [],
  };
  const names = Object.keys(cases);
  log(`# Cold start to ready and to the first page (${new Date().toISOString()})`);
  log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; ${ROUNDS} rounds; load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const dataDir = path.join(work, `data-${round}`);
      const times = [];
      times.push(await timeStart({ dataDir, databaseUrl: "" }));
      times.push(await timeStart({ dataDir, databaseUrl: "" }));
      await emptyPostgres(PG_URL);
      const pgData = path.join(work, `pg-data-${round}`);
      times.push(await timeStart({ dataDir: pgData, databaseUrl: PG_URL }));
      times.push(await timeStart({ dataDir: pgData, databaseUrl: PG_URL }));
      times.forEach((time, i) => cases[names[i]].push(time));
      log(`   round ${round}: ${times.map((time, i) => `${names[i].split(" (")[0]} ready ${Math.round(time.ready)} ms, page ${Math.round(time.page)} ms`).join("; ")} (load ${os.loadavg()[0].toFixed(2)})`);
    }
    log("");
    log("| start | ready (`/readyz` 200), median s | first page (`/`), median s | rounds, ready s |");
    log("|---|---:|---:|---|");
    const seconds = (ms) => (ms / 1000).toFixed(1);
    for (const name of names) {
      const runs = cases[name];
      log(`| ${name} | ${seconds(median(runs.map((r) => r.ready)))} | ${seconds(median(runs.map((r) => r.page)))} | ${runs.map((r) => seconds(r.ready)).join(", ")} |`);
    }
    log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
