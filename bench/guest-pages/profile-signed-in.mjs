// CPU profile of the built server under signed-in load, and where its time goes.
//
//   npm run build && flock /tmp/bench.lock node bench/guest-pages/profile-signed-in.mjs [path …]
//   AS_GUEST=1 GUEST_PAGE_CACHE=off node bench/guest-pages/profile-signed-in.mjs / /app/opportunities
//
// Starts `node --cpu-prof server.js` on a fresh embedded database (APP_DIR: another build's
// folder; BENCH_DATABASE_URL: PostgreSQL), signs the demo creator in, warms up for 3 s, loads each
// path (default /app and /app/opportunities) for 10 s with autocannon, stops the server and prints
// the heaviest functions (self and inclusive) and packages/files, counting only the samples taken
// while the load ran (start-up, migrations and the seed left out), with CPU ms per request.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

const ROOT = path.resolve(import.meta.dirname, "../..");
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/app", "/app/opportunities"];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const port = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-prof-"));
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${work}`, "server.js"], {
  cwd: process.env.APP_DIR ?? ROOT,
  env: { ...process.env, NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: path.join(work, "data"), DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "", PUBLIC_ORIGIN: base, LOG_LEVEL: "warn" },
  stdio: "inherit",
});
const exited = new Promise((resolve) => child.on("exit", resolve));
for (;;) {
  try {
    if ((await fetch(`${base}/robots.txt`)).ok) break;
  } catch {
    await sleep(200);
  }
}
const signIn = await fetch(`${base}/signin`, {
  method: "POST",
  redirect: "manual",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
  body: new URLSearchParams({ email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo", redirectTo: "/app" }),
});
const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
// AS_GUEST=1 (with GUEST_PAGE_CACHE=off) profiles a guest's page being rendered instead.
const headers = process.env.AS_GUEST ? { "accept-encoding": "gzip, deflate, br" } : { cookie, "accept-encoding": "gzip, deflate, br" };
// A warm-up first (JIT, first renders), then the loads; only samples taken while they ran count.
await autocannon({ url: `${base}${paths[0]}`, connections: 10, duration: 3, headers });
const loadStarted = Date.now();
let requests = 0;
for (const pagePath of paths) {
  const result = await autocannon({ url: `${base}${pagePath}`, connections: 10, duration: 10, headers });
  requests += result.requests.total;
  console.log(`${pagePath}: ${(result.requests.total / result.duration).toFixed(1)} req/s, ${result.non2xx} non-2xx`);
}
const loadMs = Date.now() - loadStarted;
const stopStarted = Date.now();
child.kill("SIGTERM");
await exited;
const stopMs = Date.now() - stopStarted;

const file = fs.readdirSync(work).find((name) => name.endsWith(".cpuprofile"));
const profile = JSON.parse(fs.readFileSync(path.join(work, file), "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
const deltas = profile.timeDeltas;
// The profile's clock is the child's: the load window is counted back from its end (the stop).
const windowEnd = profile.endTime - stopMs * 1000;
const windowStart = windowEnd - loadMs * 1000;
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += deltas[i] ?? 0;
  if (at < windowStart || at > windowEnd) continue;
  selfTime.set(profile.samples[i], (selfTime.get(profile.samples[i]) ?? 0) + (deltas[i + 1] ?? 0));
}
const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
const where = (node) => {
  const url = node.callFrame.url || "(native)";
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  return pkg ?? (url.includes("/build/server/") ? "app (build/server)" : url.startsWith("node:") ? url : url.replace(/^file:\/\/.*\//, ""));
};
const functions = new Map();
const places = new Map();
for (const [id, time] of selfTime) {
  const node = byId.get(id);
  const name = `${node.callFrame.functionName || "(anonymous)"} ${where(node)}:${node.callFrame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
  places.set(where(node), (places.get(where(node)) ?? 0) + time);
}
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)} % ${(time / 1000 / requests).toFixed(2).padStart(6)} ms/request  ${name}`);
console.log(`\nSelf time by package/file (the loaded seconds only: ${(total / 1e6).toFixed(1)} s sampled, ${requests} requests, ${(total / 1000 / requests).toFixed(2)} ms each):\n${top(places, 20).join("\n")}`);
console.log(`\nHeaviest functions (self time):\n${top(functions, 30).join("\n")}`);

// Inclusive time per function (a function on the stack twice counts once).
const inclusive = new Map();
const visit = (node, onStack) => {
  const name = `${node.callFrame.functionName || "(anonymous)"} ${where(node)}:${node.callFrame.lineNumber + 1}`;
  let sum = selfTime.get(node.id) ?? 0;
  const fresh = !onStack.has(name);
  if (fresh) onStack.add(name);
  for (const childId of node.children ?? []) sum += visit(byId.get(childId), onStack);
  if (fresh) {
    onStack.delete(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + sum);
  }
  return sum;
};
visit(profile.nodes[0], new Set());
const interesting = [...inclusive].filter(([name]) => !/^\((root|program|anonymous|garbage collector)\)/.test(name) && !name.startsWith("processTicksAndRejections"));
console.log(`\nHeaviest functions (inclusive):\n${top(new Map(interesting), 45).join("\n")}`);
console.log(`\nprofile: ${path.join(work, file)}`);
