// The outage drill: the built server on PostgreSQL loses its database for 20 s under light traffic.
//
//   npm run build && flock /tmp/bench.lock node bench/outage/run.mjs
//
// Builds nothing itself. Empties a scratch database (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/sponsorgrid_bench_outage), starts `node server.js` with
// DATABASE_URL pointing at a TCP relay in this process, and cuts the relay — every open
// connection dropped, new ones refused, as a stopped PostgreSQL or a network fault looks to the
// app — instead of stopping PostgreSQL: the machine's PostgreSQL is shared. Traffic all along
// (before, cut, after: OUTAGE_BEFORE_SECONDS / OUTAGE_SECONDS / OUTAGE_AFTER_SECONDS, 10/20/20):
// a guest's page rendered on every request, a signed-in page, /readyz, and API writes (a new
// opportunity with a unique title each, answered 201 only after its transaction committed).
// Prints the status codes per kind and phase, the server's log lines by level, the time from
// restore to /readyz 200, and how many acknowledged writes are missing from the database after.
// Exits 1 if any is missing or the server is not ready again. See bench/README.md ("Outage drill").
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { tsImport } from "tsx/esm/api";
import { builtServerEnv, sleep, startProgram } from "../lib/app-server.mjs";
import { emptyPostgres, signIn } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/sponsorgrid_bench_outage";
const SECONDS = { before: Number(process.env.OUTAGE_BEFORE_SECONDS ?? 10), cut: Number(process.env.OUTAGE_SECONDS ?? 20), after: Number(process.env.OUTAGE_AFTER_SECONDS ?? 20) };
const PHASES = ["before", "cut", "after"];
const DEMO_EMAIL = "maya@demo.sponsorgrid.example";
// Light traffic: a request of each kind every this many ms (about 7 requests a second in all).
const INTERVAL_MS = { guest: 500, "signed-in": 500, readyz: 500, write: 1000 };
// Longer than the Retry-After the app sends while the database is away: a request still open then hangs.
const REQUEST_TIMEOUT_MS = 35_000;
const READY_TIMEOUT_MS = 120_000;
// This run's titles, so the check after counts only its own writes.
const RUN_ID = `${process.pid}-${Date.now().toString(36)}`;

// ---------------------------------------------------------------- ports and the relay

/** Listens on the first free port of 3700–3799 (the range this drill was given on a shared machine). */
async function listenInRange(server) {
  for (let port = 3700; port <= 3799; port++) {
    const bound = await new Promise((resolve, reject) => {
      const onError = (error) => (error.code === "EADDRINUSE" ? resolve(false) : reject(error));
      server.once("error", onError);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", onError);
        resolve(true);
      });
    });
    if (bound) return port;
  }
  throw new Error("no free port in 3700–3799");
}

async function freePortInRange() {
  const probe = net.createServer();
  const port = await listenInRange(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Relays connections to PostgreSQL until cut: then drops every open one and refuses new ones until restored. */
async function startRelay(target) {
  const sockets = new Set();
  const makeServer = () =>
    net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
  let server = makeServer();
  const port = await listenInRange(server);
  return {
    port,
    cut: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    restore: () =>
      new Promise((resolve, reject) => {
        server = makeServer();
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => resolve());
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------- setup through the code, not the relay

const load = (modulePath) => tsImport(modulePath, import.meta.url);

/** An API key of the demo creator that may post opportunities, made as My Account makes one. */
async function makeWriteKey(sessionSecret) {
  const { openPostgres } = await load("../../server/platform/db/client.ts");
  const { user } = await load("../../server/platform/db/schema/index.ts");
  const { eq } = await load("drizzle-orm");
  const { createApiKey } = await load("../../server/domains/api-keys/keys.ts");
  const { apiKeyPepper } = await load("../../server/domains/api-keys/key-format.ts");
  const handle = await openPostgres(DATABASE_URL);
  try {
    const [demo] = await handle.db.select({ id: user.id }).from(user).where(eq(user.email, DEMO_EMAIL));
    if (!demo) throw new Error(`no ${DEMO_EMAIL}: the seed did not run`);
    const made = await createApiKey(handle.db, { uid: demo.id, mode: "test", pepper: apiKeyPepper(sessionSecret) }, { name: "outage drill", scopes: ["opportunities:write"], expiresInDays: null });
    if (made.kind !== "SUCCESS") throw new Error(made.message);
    return made.key;
  } finally {
    await handle.close();
  }
}

/** The titles of this run's posts that are in the database (read directly, not through the relay). */
async function storedTitles() {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query("select title from opportunity_posts where title like $1", [`Outage drill ${RUN_ID} %`]);
    return new Set(rows.map((row) => row.title));
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- traffic

const clock = { phase: "setup", marks: {} };
const records = [];
const inFlight = new Set();

/** Sends one request, and notes what came back (a status, or the error's code) against the phase it was sent in. */
function send(kind, url, init = {}, extra = {}) {
  const record = { kind, phase: clock.phase, sentAt: performance.now(), ...extra };
  const done = fetch(url, { redirect: "manual", ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
    .then(async (response) => {
      const body = await response.text();
      record.status = String(response.status);
      // /readyz says why it is not ready: which part is still down tells where the recovery time goes.
      if (kind === "readyz" && response.status !== 200) record.reason = body.trim().replace(/^not ready: /, "");
    })
    .catch((error) => {
      record.status = error.name === "TimeoutError" ? "timeout" : `error ${error.cause?.code ?? error.name}`;
    })
    .finally(() => {
      record.answeredAt = performance.now();
      records.push(record);
      inFlight.delete(done);
    });
  inFlight.add(done);
  return done;
}

function startTraffic(base, { cookie, key }) {
  let n = 0;
  const kinds = {
    // A new address every time: nothing kept from an earlier request can answer it.
    guest: () => send("guest", `${base}/app/opportunities?r=${(n += 1)}`, { headers: { accept: "text/html", "accept-encoding": "gzip, deflate, br" } }),
    "signed-in": () => send("signed-in", `${base}/app?r=${(n += 1)}`, { headers: { accept: "text/html", "accept-encoding": "gzip, deflate, br", cookie } }),
    readyz: () => send("readyz", `${base}/readyz`),
    write: () => {
      const title = `Outage drill ${RUN_ID} ${(n += 1)}`;
      return send(
        "write",
        `${base}/api/v1/opportunities`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `outage-${RUN_ID}-${n}` },
          body: JSON.stringify({ title, description: "Posted by the outage drill (bench/outage/run.mjs)." }),
        },
        { title },
      );
    },
  };
  const timers = Object.entries(kinds).map(([kind, fire]) => setInterval(fire, INTERVAL_MS[kind]));
  return () => timers.forEach(clearInterval);
}

/** Polls /readyz every 50 ms from the restore on; ms until the first 200, and each reason it gave before. */
async function timeToReady(base, restoredAt) {
  const reasons = new Map();
  for (;;) {
    if (performance.now() - restoredAt > READY_TIMEOUT_MS) return { ms: NaN, reasons };
    try {
      const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5_000) });
      const body = await response.text();
      if (response.status === 200) return { ms: performance.now() - restoredAt, reasons };
      const reason = body.trim().replace(/^not ready: /, "");
      // Until when each reason was given, from the restore.
      reasons.set(reason, performance.now() - restoredAt);
    } catch {
      // not answering yet: keep polling
    }
    await sleep(50);
  }
}

// ---------------------------------------------------------------- the server's log

const LEVELS = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };
const ACCESS_LINE = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) /;

/** The server's JSON log lines with their phase (by the line's own time); anything else it printed as "other". */
function logLines(output) {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        const parsed = JSON.parse(line);
        // pino's time: an ISO string here (the app's logger), epoch ms by pino's default.
        const time = typeof parsed.time === "number" ? parsed.time : Date.parse(parsed.time);
        const phase = PHASES.findLast((name) => time >= clock.marks[name]) ?? "setup";
        return { phase: time >= clock.marks.stop ? "stop" : phase, level: LEVELS[parsed.level] ?? String(parsed.level), msg: String(parsed.msg ?? ""), access: ACCESS_LINE.test(String(parsed.msg ?? "")) };
      } catch {
        return { phase: "unknown", level: "not JSON", msg: line.slice(0, 200), access: false };
      }
    });
}

/** An access line's message without its query string, so one address family counts as one message. */
const accessShape = (msg) => msg.replace(/\?\S*/, "?…");

// ---------------------------------------------------------------- report

const countBy = (items, keyOf) => {
  const counts = new Map();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));
};
const listCounts = (counts) => (counts.length ? counts.map(([key, count]) => `${key} ×${count}`).join(", ") : "–");
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
};

function report({ readyMs, readyReasons, lost, landedUnacknowledged, acknowledged, lines }) {
  const kinds = Object.keys(INTERVAL_MS);
  const out = [];
  out.push(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; ${SECONDS.before} s before, ${SECONDS.cut} s cut, ${SECONDS.after} s after; LOG_LEVEL=info`);
  out.push("");
  out.push("| requests | before | cut | after |");
  out.push("|---|---|---|---|");
  for (const kind of kinds) {
    const cells = PHASES.map((phase) => {
      const mine = records.filter((record) => record.kind === kind && record.phase === phase);
      const ms = median(mine.map((record) => record.answeredAt - record.sentAt));
      return `${listCounts(countBy(mine, (record) => record.status))} (p50 ${Math.round(ms)} ms, max ${Math.round(Math.max(...mine.map((record) => record.answeredAt - record.sentAt)))} ms)`;
    });
    out.push(`| ${kind} | ${cells.join(" | ")} |`);
  }
  out.push("");
  out.push("| server log lines | before | cut | after |");
  out.push("|---|---|---|---|");
  for (const access of [false, true]) {
    const cells = PHASES.map((phase) => listCounts(countBy(lines.filter((line) => line.phase === phase && line.access === access), (line) => line.level)));
    out.push(`| ${access ? "access lines" : "other lines"} | ${cells.join(" | ")} |`);
  }
  out.push("");
  const restoredAt = clock.restoredAt;
  const firstOk = (kind, ok) => {
    const after = records.filter((record) => record.kind === kind && record.sentAt >= restoredAt && ok(record.status)).sort((a, b) => a.answeredAt - b.answeredAt)[0];
    return after ? `${((after.answeredAt - restoredAt) / 1000).toFixed(2)} s` : "never";
  };
  out.push(`time from restore to /readyz 200: **${Number.isNaN(readyMs) ? "not ready" : `${(readyMs / 1000).toFixed(2)} s`}** (polled every 50 ms); first 200 after restore: guest ${firstOk("guest", (s) => s === "200")}, signed-in ${firstOk("signed-in", (s) => s === "200")}; first 2xx write ${firstOk("write", (s) => /^2/.test(s))}`);
  out.push(`/readyz 503 reasons, cut: ${listCounts(countBy(records.filter((record) => record.kind === "readyz" && record.phase === "cut" && record.reason), (record) => record.reason))}`);
  out.push(`/readyz 503 reasons after restore (given until, s): ${[...readyReasons].map(([reason, ms]) => `${reason} (${(ms / 1000).toFixed(2)})`).join(", ") || "–"}`);
  out.push(`acknowledged writes (2xx): ${acknowledged}; **lost: ${lost}**; not acknowledged but stored anyway: ${landedUnacknowledged}`);
  out.push("");
  for (const phase of ["cut", "after"]) {
    const other = lines.filter((line) => line.phase === phase && !line.access);
    out.push(`log messages, ${phase} (not access lines): ${listCounts(countBy(other, (line) => `${line.level} "${line.msg}"`))}`);
    const access = lines.filter((line) => line.phase === phase && line.access);
    out.push(`access lines, ${phase}: ${listCounts(countBy(access, (line) => `${line.level} ${accessShape(line.msg)}`))}`);
  }
  const strays = lines.filter((line) => line.phase === "unknown");
  if (strays.length) out.push(`printed outside the JSON log: ${strays.length} lines, first: ${strays[0].msg}`);
  return out.join("\n");
}

// ---------------------------------------------------------------- the drill

if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) throw new Error("no build/: run npm run build first");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "outage-bench-"));
const target = new URL(DATABASE_URL);
const relay = await startRelay({ host: target.hostname, port: Number(target.port || 5432) });
let server;
try {
  await emptyPostgres(DATABASE_URL);
  const throughRelay = new URL(DATABASE_URL);
  throughRelay.hostname = "127.0.0.1";
  throughRelay.port = String(relay.port);
  const port = await freePortInRange();
  const env = {
    ...builtServerEnv(port, { dataDir: path.join(work, "data"), databaseUrl: throughRelay.toString() }),
    // What an operator runs with (the default), so the log lines counted are the ones they would get.
    LOG_LEVEL: "info",
    // Every guest request rendered: the drill is about pages that need the database.
    GUEST_PAGE_CACHE: "off",
  };
  server = await startProgram({ cwd: ROOT, port, env });
  const key = await makeWriteKey(env.SESSION_SECRET);
  const cookie = await signIn(server.base, DEMO_EMAIL);
  // Each kind works before the drill starts, so a failure later is the outage's.
  for (const [url, init, want] of [
    [`${server.base}/app/opportunities?r=0`, {}, 200],
    [`${server.base}/app?r=0`, { headers: { cookie } }, 200],
    [`${server.base}/readyz`, {}, 200],
  ]) {
    const response = await fetch(url, { redirect: "manual", ...init });
    if (response.status !== want) throw new Error(`${url}: ${response.status} before the drill`);
  }

  clock.phase = "before";
  clock.marks.before = Date.now();
  const stopTraffic = startTraffic(server.base, { cookie, key });
  await sleep(SECONDS.before * 1000);

  clock.phase = "cut";
  clock.marks.cut = Date.now();
  await relay.cut();
  console.log(`cut the database for ${SECONDS.cut} s`);
  await sleep(SECONDS.cut * 1000);

  await relay.restore();
  clock.restoredAt = performance.now();
  clock.phase = "after";
  clock.marks.after = Date.now();
  console.log("restored it");
  const [{ ms: readyMs, reasons: readyReasons }] = await Promise.all([timeToReady(server.base, clock.restoredAt), sleep(SECONDS.after * 1000)]);
  stopTraffic();
  await Promise.all(inFlight);
  // Lines written after this come from the stop, not the drill.
  await sleep(500);
  clock.marks.stop = Date.now();

  const stored = await storedTitles();
  const writes = records.filter((record) => record.kind === "write");
  const acknowledged = writes.filter((record) => /^2/.test(record.status));
  const lost = acknowledged.filter((record) => !stored.has(record.title)).length;
  const landedUnacknowledged = writes.filter((record) => !/^2/.test(record.status) && stored.has(record.title)).length;
  console.log(report({ readyMs, readyReasons, lost, landedUnacknowledged, acknowledged: acknowledged.length, lines: logLines(server.output()) }));
  if (lost > 0 || Number.isNaN(readyMs)) process.exitCode = 1;
} finally {
  await server?.stop();
  await relay.close();
  fs.rmSync(work, { recursive: true, force: true });
}
