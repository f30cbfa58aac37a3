/**
 * The live unread count's benchmark: N (2,000) open event streams of one user on one server process; one notification
 * reaches all of them. Reports the server's memory per stream (RSS and heap after GC, minus the
 * same before the streams opened, ÷ N) and, over several notifications, the time from the notification's commit
 * to the first and to the last stream receiving it. Then it leaves the streams idle past Node's
 * header and keep-alive timeouts to show that none of them cuts an open stream.
 *
 * The server side is the real one: the database (PGlite in memory, or a PostgreSQL database it
 * creates and drops), the trigger of migration 0013, LISTEN, the hub and the HTTP handler; only
 * better-auth's session lookup is replaced by a fixed user. The clients run in a child process.
 *
 *   NODE_ENV=production node --expose-gc --import tsx bench/notification-stream/run.ts pglite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres NODE_ENV=production \
 *     node --expose-gc --import tsx bench/notification-stream/run.ts postgres
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import express from "express";
import pg from "pg";
import pino from "pino";
import type { Auth } from "#server/domains/auth/auth";
import { openPglite, openPostgres, type DatabaseHandle } from "#server/platform/db/client";
import { notifications, user } from "#server/platform/db/schema";
import { listenForNotificationChanges } from "#server/domains/notifications/changes";
import { NOTIFICATION_STREAM_PATH, notificationStreamHandler } from "#server/domains/notifications/http-stream";
import { createNotificationStreams } from "#server/domains/notifications/stream";
import { countUnreadNotifications } from "#server/domains/notifications/unread";

const engine = process.argv[2] === "postgres" ? "postgres" : "pglite";
const STREAMS = Number(process.env.STREAMS ?? 2_000);
const ALERTS = Number(process.env.ALERTS ?? 20);
// Past Node's defaults: headersTimeout 60 s, keepAliveTimeout 5 s (requestTimeout 300 s ends with the request's body).
const IDLE_MS = Number(process.env.IDLE_MS ?? 65_000);
const UID = "bench-user";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const memory = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed, external: usage.external + usage.arrayBuffers };
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function openDatabase(): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  if (engine === "pglite") {
    const handle = await openPglite(null);
    return { handle, drop: () => handle.close() };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error("DATABASE_URL is needed for postgres");
  const name = `sg_bench_stream_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  return {
    handle,
    async drop() {
      await handle.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

const { handle, drop } = await openDatabase();
await handle.migrate();
await handle.db.insert(user).values({ id: UID, name: "Bench", email: "bench@stream.example", emailVerified: true });

const streams = createNotificationStreams({
  countUnread: (uid) => countUnreadNotifications(handle.db, uid),
  limits: { perUser: STREAMS, total: STREAMS },
});
const listening = await listenForNotificationChanges(handle, { onChange: streams.changed, onGap: streams.refreshAll });
const fixedSession = { user: { id: UID, disabled: false }, session: { id: "bench-session" } };
const auth = { api: { getSession: async () => fixedSession } } as unknown as Auth;
const app = express();
app.get(NOTIFICATION_STREAM_PATH, notificationStreamHandler({ streams, auth, logger: pino({ level: "warn" }) }));
const server = http.createServer(app);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = (server.address() as { port: number }).port;

const before = memory();
const clients = fork(path.join(import.meta.dirname, "clients.mjs"), [String(port), String(STREAMS)]);
type Message = { kind: string; count?: number; first?: number; last?: number; ended?: number; connected?: number; message?: string };
const waiters: Array<(message: Message) => boolean> = [];
clients.on("message", (message: Message) => {
  if (message.kind === "error") throw new Error(`client: ${message.message}`);
  const index = waiters.findIndex((accept) => accept(message));
  if (index >= 0) waiters.splice(index, 1);
});
const next = (predicate: (message: Message) => boolean) =>
  new Promise<Message>((resolve) => waiters.push((message) => (predicate(message) ? (resolve(message), true) : false)));

const opening = Date.now();
await next((m) => m.kind === "connected");
const openMs = Date.now() - opening;
await new Promise((resolve) => setTimeout(resolve, 1_000));
const after = memory();

const now = () => performance.timeOrigin + performance.now();
const first: number[] = [];
const last: number[] = [];
for (let i = 1; i <= ALERTS; i++) {
  const all = next((m) => m.kind === "all" && m.count === i);
  // Timed from when the INSERT is sent, not from when its promise resolves: on PGlite the notice is
  // delivered in-process while the statement completes, and the promise can resolve after the fan-out.
  const committed = now();
  await handle.db.insert(notifications).values({ uid: UID, title: `Alert ${i}`, message: "bench" });
  const message = await all;
  first.push(message.first! - committed);
  last.push(message.last! - committed);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

console.log(`engine ${engine}, ${STREAMS} streams of one user, opened in ${openMs} ms`);
const per = (key: keyof typeof before) => ((after[key] - before[key]) / STREAMS / 1024).toFixed(1);
console.log(`memory per stream (after GC): rss ${per("rss")} KiB, heap ${per("heap")} KiB, external ${per("external")} KiB`);
console.log(`total: rss ${((after.rss - before.rss) / 1048576).toFixed(1)} MiB, heap ${((after.heap - before.heap) / 1048576).toFixed(1)} MiB`);
const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
console.log(`insert → first stream over ${ALERTS} alerts: p50 ${ms(first, 50)} ms, p99 ${ms(first, 99)} ms`);
console.log(`insert → last of ${STREAMS} streams:         p50 ${ms(last, 50)} ms, p99 ${ms(last, 99)} ms`);

if (IDLE_MS > 0) {
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  clients.send("alive");
  const alive = await next((m) => m.kind === "alive");
  console.log(`after ${IDLE_MS / 1000} s idle: ${STREAMS - alive.ended!} of ${STREAMS} streams still open (server holds ${streams.size})`);
}

clients.send("close");
streams.closeAll();
server.closeAllConnections();
server.close();
await listening.close();
await drop();
process.exit(0);
