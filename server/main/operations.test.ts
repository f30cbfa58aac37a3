import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";

// The built server (`npm run build` first) as an operator runs it: probes on both hosts, the
// metrics scrape, and SIGTERM taking the process out of the balancer before it drains.
const TOKEN = "probe-test-metrics-token-0123456789";
const GRACE_MS = 3_000;
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-operations-"));
  server = await startServerProcess({ DATA_DIR: dataDir, METRICS_TOKEN: TOKEN, SHUTDOWN_GRACE_MS: String(GRACE_MS) }, { startTimeoutMs: 240_000 });
}, 300_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const scrape = async () => {
  const response = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
};

test("both hosts answer /livez and /readyz, never cached", { timeout: 60_000 }, async () => {
  const port = new URL(server.url).port;
  for (const host of [`localhost:${port}`, `bio.localhost:${port}`]) {
    const live = await fetch(`${server.url}/livez`, { headers: { Host: host } });
    expect([live.status, await live.text(), live.headers.get("cache-control")]).toEqual([200, "ok\n", "no-store"]);
    const ready = await fetch(`${server.url}/readyz`, { headers: { Host: host } });
    expect([ready.status, await ready.text(), ready.headers.get("cache-control")]).toEqual([200, "ready\n", "no-store"]);
  }
  // Probes are not request-logged at info level: a balancer's probe every second would drown the log.
  expect(server.output()).not.toMatch(/"url":"\/(livez|readyz)"/);
});

test("/metrics answers only with the token, and names requests by route pattern", { timeout: 120_000 }, async () => {
  const notFound = await fetch(`${server.url}/no-such-page-here`);
  const refused = await fetch(`${server.url}/metrics`, { headers: { Authorization: "Bearer wrong-token-wrong-token-wrong" } });
  expect(refused.status).toBe(404);
  // The same page as any unknown address, but for its per-request CSP nonce.
  const withoutNonce = (html: string) => html.replaceAll(/nonce="[^"]*"/g, "");
  expect(withoutNonce(await refused.text())).toBe(withoutNonce(await notFound.text()));
  expect((await fetch(`${server.url}/metrics`)).status).toBe(404);

  const list = await (await fetch(`${server.url}/app/opportunities`)).text();
  const id = /href="\/app\/opportunities\/([0-9]{10}_[A-Za-z0-9]+)"/.exec(list)?.[1];
  expect(id).toBeDefined();
  // The first guest render goes through React Router; the second is the guest page cache's.
  expect((await fetch(`${server.url}/app/opportunities/${id}`)).status).toBe(200);
  expect((await fetch(`${server.url}/app/opportunities/${id}`)).status).toBe(200);

  const text = await scrape();
  expect(text).toMatch(/sponsorgrid_http_request_duration_seconds_bucket\{[^}]*route="\/app\/opportunities\/:docId"[^}]*\} [1-9]/);
  expect(text).toMatch(/sponsorgrid_http_request_duration_seconds_count\{method="GET",status_class="2xx",route="guest page"\} [1-9]/);
  expect(text).toMatch(/sponsorgrid_page_cache_lookups_total\{cache="guest",outcome="hit"\} [1-9]/);
  expect(text).toMatch(/sponsorgrid_db_query_duration_seconds_count\{engine="pglite"\} [1-9]/);
  expect(text).toMatch(/sponsorgrid_outbox_depth\{queue="mail"\} 0/);
  expect(text).toMatch(/sponsorgrid_outbox_depth\{queue="sandbox_events"\} \d+/);
  expect(text).toContain("sponsorgrid_notification_streams_open 0");
  // No label anywhere carries the raw address.
  const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]).join("\n");
  expect(labels).not.toContain(id!);
});

test("SIGTERM: /readyz turns 503 first while /livez and pages are still served, then the process exits 0", { timeout: 120_000 }, async () => {
  server.child.kill("SIGTERM");
  const signalled = Date.now();
  let ready = await fetch(`${server.url}/readyz`);
  while (ready.status === 200 && Date.now() - signalled < GRACE_MS) ready = await fetch(`${server.url}/readyz`);
  expect([ready.status, await ready.text()]).toEqual([503, "not ready: shutting down\n"]);
  expect(Date.now() - signalled).toBeLessThan(GRACE_MS);
  expect((await fetch(`${server.url}/livez`)).status).toBe(200);
  expect((await fetch(`${server.url}/signin`)).status).toBe(200);
  expect(await server.exited).toBe(0);
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(GRACE_MS);
});
