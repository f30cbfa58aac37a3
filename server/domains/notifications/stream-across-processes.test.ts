import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "#tests/support/databases";
import { freePort, startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { buildServerIfMissing } from "#tests/support/built-server";
import { onServer } from "#tests/support/database-snapshots";

/**
 * On PostgreSQL, two app processes on one database: a browser's event stream on
 * process A hears the unread count change within a second of a notification committed through
 * process B, and of it being read and deleted there. On PGlite (one process per data folder)
 * A and B are the same process. Then A stops with SIGTERM while the stream is open: the
 * stream ends and the process exits at once. It runs the built server (`node server.js`),
 * building it first when there is no build yet.
 */
const SECRET = "stream-test-routes-secret-0123456789";
const MAYA = { email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo" };

type Event = { count: number; at: number };

/** An SSE client: collects the `unread` events of one stream, with their arrival times. */
async function openStream(url: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/notifications/stream`, { headers: { cookie, accept: "text/event-stream" }, signal: controller.signal });
  const events: Event[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const ended = (async () => {
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let split: number;
        while ((split = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const data = /^event: unread\ndata: (.*)$/m.exec(block);
          if (data) events.push({ count: (JSON.parse(data[1]!) as { count: number }).count, at: Date.now() });
        }
      }
    } catch {
      // Aborted by the test.
    }
  })();
  return { response, events, ended, close: () => controller.abort() };
}

async function waitFor<T>(read: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(ENGINES)("the live unread count through the built server on %s", (engine) => {
  const processes = engine === "postgres" ? 2 : 1;
  const name = `sg_test_stream_${randomBytes(5).toString("hex")}`;
  const adminUrl = process.env.DATABASE_URL ?? "";
  const url = engine === "postgres" ? new URL(adminUrl) : null;
  if (url) url.pathname = `/${name}`;
  const servers: ServerProcess[] = [];
  const dataDirs: string[] = [];

  const admin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => onServer(adminUrl, work);

  beforeAll(async () => {
    buildServerIfMissing();
    if (url) await admin((client) => client.query(`create database ${name}`));
    const env = (port: number) => ({
      DATABASE_URL: url?.toString() ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      SESSION_SECRET: "stream-test-session-secret-0123456789abcdef",
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      ENABLE_TEST_ROUTES: "true",
      TEST_ROUTES_SECRET: SECRET,
      DATA_DIR: dataDirs[dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "sg-stream-"))) - 1]!,
    });
    // One after the other: the first migrates and seeds the empty database.
    for (let i = 0; i < processes; i++) servers.push(await startServerProcess(env(await freePort()), { startTimeoutMs: 180_000 }));
  }, 400_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    for (const dir of dataDirs) fs.rmSync(dir, { force: true, recursive: true });
    if (url) await admin((client) => client.query(`drop database if exists ${name} with (force)`));
  });

  it("a stream on A hears alerts sent, read and deleted through B within a second; SIGTERM ends it", async () => {
    const a = servers[0]!;
    const b = servers.at(-1)!;
    // Signed in through B's own sign-in form; the session is good on A too (one database, one secret).
    const signIn = await fetch(`${b.url}/signin`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: b.url },
      body: new URLSearchParams({ email: MAYA.email, password: MAYA.password, redirectTo: "/app" }),
    });
    expect(signIn.status).toBe(302);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");

    const guest = await fetch(`${a.url}/api/notifications/stream`);
    expect(guest.status).toBe(401);

    const stream = await openStream(a.url, cookie);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.response.headers.get("x-accel-buffering")).toBe("no");
    expect(stream.response.headers.get("cache-control")).toContain("no-store");
    expect(stream.response.headers.get("content-encoding")).toBeNull();
    // The seeded demo account starts with its own unread notifications: whatever that is, it comes first.
    const first = await waitFor(() => stream.events[0], 5_000);

    const hook = async (action: string) => {
      const response = await fetch(`${b.url}/__test/notify?${action}`, { headers: { cookie, "x-test-routes-secret": SECRET } });
      expect(response.status).toBe(200);
      return { committedAt: Date.now(), unread: ((await response.json()) as { unread: number }).unread };
    };

    for (const [action, expected] of [
      ["do=send&n=2", first.count + 2],
      ["do=read", 0],
      ["do=send&n=1", 1],
      ["do=delete", 0],
    ] as const) {
      const seen = stream.events.length;
      const { committedAt, unread } = await hook(action);
      expect(unread).toBe(expected);
      const event = await waitFor(() => stream.events.slice(seen).find((e) => e.count === expected), 1_000);
      expect(event.at - committedAt).toBeLessThan(1_000);
    }

    const stoppedAt = Date.now();
    expect(await a.stop("SIGTERM")).toBe(0);
    await stream.ended;
    // Well under the 10 s the server would wait before cutting connections by force.
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  });
});
