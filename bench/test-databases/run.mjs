// Per-file test database setup: from scratch (every migration) against a copy of the migrated
// snapshot, each in a fresh process as Vitest's database files are, alternating so both meet the
// same machine. PGlite always; PostgreSQL with BENCH_DATABASE_URL (or DATABASE_URL).
//   node bench/test-databases/run.mjs            # SAMPLES=8 per way and engine
import { execFileSync } from "node:child_process";

const samples = Number(process.env.SAMPLES ?? 8);
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const engines = adminUrl ? ["pglite", "postgres"] : ["pglite"];
const env = { ...process.env, DATABASE_URL: adminUrl ?? "" };

const setUp = (engine, way) => execFileSync(process.execPath, ["--import", "tsx", "bench/test-databases/one-setup.ts", engine, way], { env, encoding: "utf8" });
const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms`;
};
for (const engine of engines) {
  setUp(engine, "prepare");
  const times = { scratch: [], snapshot: [] };
  for (let i = 0; i < samples; i++) {
    for (const way of i % 2 ? ["snapshot", "scratch"] : ["scratch", "snapshot"]) {
      times[way].push(Number(setUp(engine, way).trim().split("\n").at(-1)));
    }
  }
  console.log(`${engine}: from scratch ${stats(times.scratch)}; from the snapshot ${stats(times.snapshot)} (${samples} each)`);
}
