// One app process against two, both behind nginx, on one PostgreSQL, all on this machine's cores.
//
//   npm run build && flock /tmp/bench.lock node bench/scale/run.mjs
//
// Builds nothing itself. Empties the PostgreSQL database BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/sg_bench_scale), starts two built servers on it (the first
// seeds it), and puts nginx in front, with the proxy settings of each variant below in turn. For
// each variant and page, autocannon (10 connections) loads nginx with one upstream process, then
// with two (order swapped every round): the ratio 2 ÷ 1 is the figure. "direct" is one process
// with no proxy at all, for the cost of the proxy hop. Also the CPU each part spent per request
// (nginx workers, app processes, the load tool itself) from /proc: on two shared cores, req/s is
// two cores divided by the CPU of one request summed over every part.
// See bench/README.md ("Scaling out").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startBuiltServer, startProgram } from "../lib/app-server.mjs";
import { waitForQuiet } from "../lib/quiet.mjs";
import { emptyPostgres, fetchRaw } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/sg_bench_scale";
const BROWSER = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-US,en;q=0.9",
};
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// The proxy settings tried. "plain" is nginx's default proxying (HTTP/1.0, a new upstream TCP
// connection per request), as a first nginx file would have it.
const KEEPALIVE = { upstream: "keepalive 32;", location: 'proxy_http_version 1.1;\n      proxy_set_header Connection "";' };
const VARIANTS = (process.env.VARIANTS ?? "plain,keepalive,keepalive-auto,keepalive-microcache").split(",");
const VARIANT_SETTINGS = {
  plain: { workers: "1", upstream: "", location: "" },
  keepalive: { workers: "1", ...KEEPALIVE },
  "keepalive-auto": { workers: "auto", ...KEEPALIVE },
  // Guest requests only (no cookie, no Authorization), kept 1 s, and only what the app lets a
  // shared cache keep: nginx honours Cache-Control (private, no-store, no-cache) and Set-Cookie.
  "keepalive-microcache": {
    workers: "1",
    upstream: KEEPALIVE.upstream,
    location: `${KEEPALIVE.location}
      proxy_cache micro;
      proxy_cache_valid 200 1s;
      proxy_cache_lock on;
      proxy_cache_use_stale updating;
      proxy_cache_key "$scheme$host$request_uri $http_accept_encoding $http_accept_language";
      proxy_cache_bypass $http_cookie $http_authorization;
      proxy_no_cache $http_cookie $http_authorization;`,
    http: "proxy_cache_path CACHE_DIR levels=1 keys_zone=micro:4m max_size=64m inactive=10s;",
  },
};

function nginxConfig(dir, port, variant, upstreams) {
  const settings = VARIANT_SETTINGS[variant];
  if (!settings) throw new Error(`no variant ${variant}`);
  return `worker_processes ${settings.workers};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  server_tokens off;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/tmp-body;
  proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fcgi;
  uwsgi_temp_path ${dir}/tmp-uwsgi;
  scgi_temp_path ${dir}/tmp-scgi;
  ${(settings.http ?? "").replace("CACHE_DIR", `${dir}/cache`)}
  upstream app {
    ${upstreams.map((base) => `server ${new URL(base).host};`).join("\n    ")}
    ${settings.upstream}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://app;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      ${settings.location}
    }
  }
}
`;
}

async function startNginx(dir, port, variant, upstreams) {
  const config = path.join(dir, `nginx-${variant}-${upstreams.length}.conf`);
  fs.writeFileSync(config, nginxConfig(dir, port, variant, upstreams));
  return startProgram({ command: "nginx", args: ["-c", config, "-p", dir], port, isReady: async (base) => (await fetch(`${base}/robots.txt`)).ok });
}

/** CPU (user + system, ms) of a process and its children's threads so far, from /proc. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
const childrenOf = (pid) =>
  fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

function load(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }, (error, result) => {
      if (error) return reject(error);
      const bad = result.non2xx + result.errors + result.timeouts;
      if (bad > 0) return reject(new Error(`${url}: ${bad} bad responses of ${result.requests.total}`));
      resolve({ rps: result.requests.total / (result.duration || SECONDS), requests: result.requests.total });
    });
  });
}

/** req/s and CPU ms per request of each part, for one page through one front. */
async function measure(url, headers, parts) {
  // CHECK_ONLY=1: start, sign in and check every page through every front, but load nothing (to try the harness).
  if (process.env.CHECK_ONLY) return { rps: NaN, requests: 0, idle: NaN, cpu: { nginx: NaN, app: NaN, autocannon: NaN } };
  const idle = await waitForQuiet();
  await new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers }, (e) => (e ? reject(e) : resolve())));
  const pids = Object.fromEntries(Object.entries(parts).map(([name, list]) => [name, list()]));
  const before = Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, list.reduce((sum, pid) => sum + cpuMs(pid), 0)]));
  const self = process.cpuUsage();
  const result = await load(url, headers);
  const selfUsed = process.cpuUsage(self);
  const cpu = Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, (list.reduce((sum, pid) => sum + cpuMs(pid), 0) - before[name]) / result.requests]));
  cpu.autocannon = (selfUsed.user + selfUsed.system) / 1000 / result.requests;
  return { ...result, cpu, idle };
}

/** The demo creator's session cookie. */
async function signIn(base, origin) {
  const response = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo", redirectTo: "/app" }),
  });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  if (cookies.length === 0) throw new Error(`sign-in answered ${response.status} and set no cookie`);
  return cookies.join("; ");
}

async function main() {
  const log = (line) => console.log(line);
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) throw new Error("no build: run `npm run build` first");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-scale-"));
  // nginx's workers (nobody, when started as root) write its temporary files and the micro-cache here.
  fs.chmodSync(work, 0o755);
  const stops = [];
  try {
    await emptyPostgres(PG_URL);
    // Every process is told the proxy's address: links, the sign-in's origin check and the bio host's name.
    const front = await freePort();
    const publicOrigin = `http://127.0.0.1:${front}`;
    const bioHost = `bio.localhost:${front}`;
    const env = { PUBLIC_ORIGIN: publicOrigin, BIO_ORIGIN: `http://${bioHost}`, TRUST_PROXY: "loopback" };
    const apps = [];
    for (const index of [1, 2]) {
      const app = await startBuiltServer({ root: ROOT, dataDir: path.join(work, `data-${index}`), databaseUrl: PG_URL, env });
      stops.push(() => app.stop());
      apps.push(app);
    }
    // Signed in through the proxy, as a browser would be (the same-origin check sees the proxy's address).
    fs.mkdirSync(path.join(work, "nginx-signin"));
    fs.chmodSync(path.join(work, "nginx-signin"), 0o777);
    const signInFront = await startNginx(path.join(work, "nginx-signin"), front, "keepalive", [apps[0].base]);
    const cookie = await signIn(signInFront.base, publicOrigin).finally(() => signInFront.stop());
    const pages = [
      { name: "home (guest, cached)", path: "/", headers: BROWSER },
      { name: "bio page (cached)", path: "/mayamakes", headers: { ...BROWSER, host: bioHost } },
      { name: "opportunity list (signed in)", path: "/app/opportunities", headers: { ...BROWSER, cookie: "SIGNED_IN" } },
    ];
    log(`# One process against two behind nginx (${new Date().toISOString()})`);
    log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; PostgreSQL; load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
    log(`autocannon ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per side, ${ROUNDS} rounds (order swapped); variants: ${VARIANTS.join(", ")}`);
    const rows = [];
    for (const variant of VARIANTS) {
      const fronts = {};
      for (const count of [1, 2]) {
        const dir = path.join(work, `nginx-${count}`);
        fs.mkdirSync(dir, { recursive: true, mode: 0o777 });
        fs.chmodSync(dir, 0o777);
        fronts[count] = { dir, upstreams: apps.slice(0, count).map((app) => app.base) };
      }
      for (const page of pages) {
        const headers = page.headers.cookie ? { ...page.headers, cookie } : page.headers;
        const rounds = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const measured = {};
          for (const count of round % 2 === 1 ? [1, 2] : [2, 1]) {
            // One nginx at a time on the proxy's port: the app's links and bio host name point there.
            const { dir, upstreams } = fronts[count];
            fs.rmSync(path.join(dir, "cache"), { recursive: true, force: true });
            fs.mkdirSync(path.join(dir, "cache"));
            fs.chmodSync(path.join(dir, "cache"), 0o777);
            const nginx = await startNginx(dir, front, variant, upstreams);
            try {
              const check = await fetchRaw(`${nginx.base}${page.path}`, headers);
              if (check.status !== 200) throw new Error(`${variant} ${count} ${page.path}: ${check.status}`);
              const parts = { nginx: () => childrenOf(nginx.pid), app: () => apps.slice(0, count).map((app) => app.pid) };
              measured[count] = await measure(`${nginx.base}${page.path}`, headers, parts);
            } finally {
              await nginx.stop();
            }
            const m = measured[count];
            log(`   ${variant}, ${page.name}, ${count} process${count > 1 ? "es" : ""}, round ${round}: ${m.rps.toFixed(0)} req/s; CPU ms/request nginx ${m.cpu.nginx.toFixed(3)}, app ${m.cpu.app.toFixed(3)}, autocannon ${m.cpu.autocannon.toFixed(3)} (idle before ${Math.round(m.idle * 100)} %)`);
          }
          rounds.push(measured);
        }
        rows.push({ variant, page: page.name, rounds });
      }
    }
    // One process with no proxy, for the hop's cost.
    const direct = [];
    for (const page of pages) {
      const headers = page.headers.cookie ? { ...page.headers, cookie } : page.headers;
      const measured = await measure(`${apps[0].base}${page.path}`, headers, { app: () => [apps[0].pid] });
      direct.push({ page: page.name, ...measured });
      log(`   direct, ${page.name}: ${measured.rps.toFixed(0)} req/s; CPU ms/request app ${measured.cpu.app.toFixed(3)}, autocannon ${measured.cpu.autocannon.toFixed(3)}`);
    }
    log("");
    log("| nginx variant | page | 1 process req/s | 2 processes req/s | 2 ÷ 1 (median of rounds) | rounds | CPU ms/request, 1 → 2 (nginx + app + autocannon) |");
    log("|---|---|---:|---:|---:|---|---|");
    for (const { variant, page, rounds } of rows) {
      const ratios = rounds.map((r) => r[2].rps / r[1].rps);
      const cpu = (count) => {
        const parts = ["nginx", "app", "autocannon"].map((part) => median(rounds.map((r) => r[count].cpu[part])));
        return `${parts.map((v) => v.toFixed(2)).join(" + ")}`;
      };
      log(`| ${variant} | ${page} | ${median(rounds.map((r) => r[1].rps)).toFixed(0)} | ${median(rounds.map((r) => r[2].rps)).toFixed(0)} | **${median(ratios).toFixed(2)}** | ${ratios.map((r) => r.toFixed(2)).join(", ")} | ${cpu(1)} → ${cpu(2)} |`);
    }
    log("");
    log("| direct (no proxy), 1 process | req/s | CPU ms/request (app + autocannon) |");
    log("|---|---:|---|");
    for (const row of direct) log(`| ${row.page} | ${row.rps.toFixed(0)} | ${row.cpu.app.toFixed(2)} + ${row.cpu.autocannon.toFixed(2)} |`);
    log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
