// The public API against the pages, and outgoing webhook throughput, on the built server.
//   npm run build && flock /tmp/bench.lock node bench/api/run.mjs                        # PGlite
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sponsorgrid_bench_api \
//     flock /tmp/bench.lock node bench/api/run.mjs                                       # PostgreSQL
//
// 1. List: the same 20 opportunities, signed in as the same demo account, three ways — the API
//    (`GET /api/v1/opportunities?limit=20` with a key), the list page's loader as the browser asks
//    for it on a client-side navigation (`GET /app/opportunities.data`, React Router's single
//    fetch, with the session cookie), and the whole page (`GET /app/opportunities`, HTML). Rounds
//    alternate the order; the ratio API ÷ loader is the figure.
//    The key's limit is raised so that the load is not refused; every request is still counted.
// 2. Webhooks: N events queued for one endpoint on a receiver on loopback that answers 204 at
//    once; deliveries per second from the first receipt to the last, each signature verified.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { Webhook } from "standardwebhooks";
import { tsImport } from "tsx/esm/api";
import { builtServerEnv, freePort, startBuiltServer } from "../lib/app-server.mjs";
import { waitForQuiet } from "../lib/quiet.mjs";
import { emptyPostgres, signIn } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_URL = process.env.BENCH_DATABASE_URL ?? "";
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = 8;
const ROUNDS = 3;
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const DEMO_EMAIL = "maya@demo.sponsorgrid.example";
const SESSION_SECRET = builtServerEnv(0).SESSION_SECRET;

const work = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-"));
const dataDir = path.join(work, "data");
const target = PG_URL || dataDir;

const load = (modulePath) => tsImport(modulePath, import.meta.url);

async function withDb(task) {
  const { openPglite, openPostgres } = await load("../../server/platform/db/client.ts");
  const handle = target.startsWith("postgres") ? await openPostgres(target) : await openPglite(target);
  try {
    return await task(handle.db);
  } finally {
    await handle.close();
  }
}

async function demoUid(db) {
  const { user } = await load("../../server/platform/db/schema/index.ts");
  const { eq } = await load("drizzle-orm");
  const [demo] = await db.select({ id: user.id }).from(user).where(eq(user.email, DEMO_EMAIL));
  if (!demo) throw new Error(`no ${DEMO_EMAIL}: the seed did not run`);
  return demo.id;
}

/** A key with every scope for the demo account, made as My Account makes it. */
async function makeKey(db) {
  const { createApiKey } = await load("../../server/domains/api-keys/keys.ts");
  const { apiKeyPepper } = await load("../../server/domains/api-keys/key-format.ts");
  const { API_SCOPES } = await load("../../isomorphic/api-scopes.ts");
  const made = await createApiKey(db, { uid: await demoUid(db), mode: "test", pepper: apiKeyPepper(SESSION_SECRET) }, { name: "bench", scopes: API_SCOPES, expiresInDays: null });
  if (made.kind !== "SUCCESS") throw new Error(made.message);
  return made.key;
}


const ID_PATTERN = /\b[0-9]{10}_[A-Za-z0-9]{1,64}\b/g;

/** The opportunity ids an answer names, in order, so the three ways can be shown to answer the same list. */
async function idsOf(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  const text = await response.text();
  if (url.includes("/api/v1/")) return JSON.parse(text).data.map((item) => item.id);
  return [...new Set(text.match(ID_PATTERN) ?? [])];
}

async function measure(label, url, headers) {
  const opts = { url, connections: CONNECTIONS, headers: { "accept-encoding": "gzip, deflate, br", ...headers } };
  await autocannon({ ...opts, duration: WARMUP_SECONDS });
  await waitForQuiet();
  const result = await autocannon({ ...opts, duration: MEASURE_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function listBenchmark(app, key) {
  const cookie = await signIn(app.base, DEMO_EMAIL);
  const ways = [
    { key: "api", label: "API  GET /api/v1/opportunities?limit=20", url: `${app.base}/api/v1/opportunities?limit=20`, headers: { authorization: `Bearer ${key}` } },
    { key: "loader", label: "page loader  GET /app/opportunities.data", url: `${app.base}/app/opportunities.data`, headers: { cookie } },
    { key: "html", label: "page  GET /app/opportunities (HTML)", url: `${app.base}/app/opportunities`, headers: { cookie, accept: "text/html" } },
  ];
  const apiIds = await idsOf(ways[0].url, ways[0].headers);
  for (const way of ways.slice(1)) {
    const ids = await idsOf(way.url, way.headers);
    const missing = apiIds.filter((id) => !ids.includes(id));
    if (apiIds.length !== 20 || missing.length > 0) throw new Error(`${way.label} does not show the API's 20 opportunities (missing ${missing.length})`);
  }
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ways : [...ways].reverse();
    const figures = {};
    for (const way of order) figures[way.key] = await measure(way.label, way.url, way.headers);
    rounds.push(figures);
    console.log(`round ${round + 1}: ${ways.map((way) => `${way.key} ${figures[way.key].rps.toFixed(0)} req/s (p50 ${figures[way.key].p50} ms)`).join(" · ")} · api/loader ${(figures.api.rps / figures.loader.rps).toFixed(2)}`);
  }
  for (const way of ways) console.log(`${way.label.padEnd(48)} median ${median(rounds.map((r) => r[way.key].rps)).toFixed(0).padStart(6)} req/s  p50 ${median(rounds.map((r) => r[way.key].p50))} ms  p99 ${median(rounds.map((r) => r[way.key].p99))} ms`);
  console.log(`API ÷ page loader: median ${median(rounds.map((r) => r.api.rps / r.loader.rps)).toFixed(2)} (rounds ${rounds.map((r) => (r.api.rps / r.loader.rps).toFixed(2)).join(", ")}); API ÷ HTML page: ${median(rounds.map((r) => r.api.rps / r.html.rps)).toFixed(2)}`);
}

/** A receiver on loopback, on `port`, that verifies every delivery and notes when each new event first arrived. */
async function startReceiver(port, secret) {
  const verifier = new Webhook(secret);
  const seen = new Map();
  let bad = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      try {
        verifier.verify(Buffer.concat(chunks).toString("utf8"), req.headers);
        const id = req.headers["webhook-id"];
        if (!seen.has(id)) seen.set(id, performance.now());
      } catch {
        bad += 1;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { seen, bad: () => bad, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function queueEvents(db, url, count) {
  const { webhookEndpoints } = await load("../../server/platform/db/schema/index.ts");
  const { generateSigningSecret, sealSecret } = await load("../../server/platform/outgoing-webhooks/secrets.ts");
  const { queueWebhookEvent } = await load("../../server/platform/outgoing-webhooks/queue.ts");
  const uid = await demoUid(db);
  const secret = generateSigningSecret();
  await db.insert(webhookEndpoints).values({ id: "we_bench", uid, url, events: ["notification.created"], secretCiphertext: sealSecret(secret, SESSION_SECRET) });
  for (let i = 0; i < count; i++) {
    await queueWebhookEvent(db, { uid, type: "notification.created", orderingKey: `notification:bench_${i % 50}`, data: { id: `bench_${i}`, n: i } });
  }
  return secret;
}

async function webhookBenchmark() {
  // The endpoint's URL must be known before the events are queued; the receiver's secret after.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/hook`;
  const secret = await withDb((db) => queueEvents(db, url, WEBHOOK_EVENTS));
  const receiver = await startReceiver(port, secret);
  const app = await startApp();
  try {
    const deadline = Date.now() + 300_000;
    while (receiver.seen.size < WEBHOOK_EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const times = [...receiver.seen.values()].sort((a, b) => a - b);
    if (times.length < WEBHOOK_EVENTS) throw new Error(`only ${times.length} of ${WEBHOOK_EVENTS} events arrived in 5 minutes`);
    const seconds = (times.at(-1) - times[0]) / 1000;
    console.log(`webhooks: ${WEBHOOK_EVENTS} events delivered and verified in ${seconds.toFixed(2)} s from first to last = ${((WEBHOOK_EVENTS - 1) / seconds).toFixed(0)} deliveries/s; bad signatures: ${receiver.bad()}`);
  } finally {
    await app.stop();
    await receiver.close();
  }
}

function startApp() {
  return startBuiltServer({ root: ROOT, dataDir, databaseUrl: PG_URL, env: { GUEST_PAGE_CACHE: "off", WEBHOOK_PRIVATE_TARGETS: "allow", API_RATE_LIMIT_PER_MINUTE: "1000000000" } });
}

try {
  if (PG_URL) await emptyPostgres(PG_URL);
  console.log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; engine: ${PG_URL ? "PostgreSQL" : "PGlite"}; ${CONNECTIONS} connections, ${MEASURE_SECONDS} s after ${WARMUP_SECONDS} s warm-up, ${ROUNDS} rounds`);
  // The first start migrates and seeds; keys and events are written while it is stopped (PGlite has one owner).
  await (await startApp()).stop();
  const key = await withDb(makeKey);
  const app = await startApp();
  try {
    await listBenchmark(app, key);
  } finally {
    await app.stop();
  }
  await webhookBenchmark();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
