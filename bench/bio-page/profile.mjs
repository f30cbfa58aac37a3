// CPU profile of the bio host under load: the built server with --cpu-prof, autocannon on the
// demo page for 8 s, then the functions with the most self time.
//
//   npm run build && flock /tmp/bench.lock node bench/bio-page/profile.mjs            # PGlite
//   npm run build && flock /tmp/bench.lock env BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sg_bench_bioprof node bench/bio-page/profile.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startProgram } from "../lib/app-server.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const url = process.env.BENCH_DATABASE_URL ?? "";
if (url) {
  const { default: pg } = await import("pg");
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const name = new URL(url).pathname.slice(1);
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bio-prof-"));
const port = await freePort();
const app = await startProgram({
  cwd: ROOT,
  port,
  args: ["--cpu-prof", `--cpu-prof-dir=${work}/profile`, "server.js"],
  env: {
    NODE_ENV: "production",
    PAYMENT_PROVIDER: "sandbox",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(work, "data"),
    DATABASE_URL: url,
    SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: "warn",
  },
});
try {
  const headers = { host: `bio.localhost:${port}`, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0", "accept-encoding": "gzip, deflate, br" };
  const result = await autocannon({ url: `${app.base}/mayamakes`, connections: 10, duration: 8, headers });
  console.log(`${url ? "PostgreSQL" : "PGlite"}: ${result.requests.average} req/s while profiled, ${result.non2xx} non-2xx`);
} finally {
  await app.stop();
}
const file = fs.readdirSync(`${work}/profile`).find((name) => name.endsWith(".cpuprofile"));
const profile = JSON.parse(fs.readFileSync(`${work}/profile/${file}`, "utf8"));
const self = new Map();
const dt = new Map();
profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
let total = 0;
for (const node of profile.nodes) {
  const time = dt.get(node.id) ?? 0;
  total += time;
  const { functionName, url: where, lineNumber } = node.callFrame;
  const key = `${functionName || "(anonymous)"} ${where.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/build\//, "build/")}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + time);
}
console.log("self time   function");
for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((time / total) * 100).toFixed(1).padStart(8)} %  ${key}`);
fs.rmSync(work, { recursive: true, force: true });
