// Cold start to ready: from spawning the built server to its first 200 on `/`.
//
//   npm run build && flock /tmp/bench.lock node bench/cold-start/run.mjs
//
// Builds nothing itself. Four starts, each timed from `spawn` to the first 200 on `/` (a probe
// every 20 ms; `/readyz` would be the probe of record once it exists, `/` also proves the first
// page renders): the embedded database (PGlite) on an empty data folder (migrations and the demo
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

/** Milliseconds from spawn to the first 200 on `/`; then stops the server and waits for its exit. */
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
      if (performance.now() - started > 300_000) throw new Error(`no 200 on / in 300 s:\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
      } catch {
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
  log(`# Cold start to the first 200 on / (${new Date().toISOString()})`);
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
      times.forEach((ms, i) => cases[names[i]].push(ms));
      log(`   round ${round}: ${times.map((ms, i) => `${names[i].split(" (")[0]} ${Math.round(ms)} ms`).join("; ")} (load ${os.loadavg()[0].toFixed(2)})`);
    }
    log("");
    log("| start | median ms | rounds, ms |");
    log("|---|---:|---|");
    for (const name of names) log(`| ${name} | ${Math.round(median(cases[name]))} | ${cases[name].map((ms) => Math.round(ms)).join(", ")} |`);
    log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
