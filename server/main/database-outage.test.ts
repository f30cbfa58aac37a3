import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMigratedDatabase, type TestDatabase } from "#tests/support/databases";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { startTcpRelay, throughRelay, type TcpRelay } from "#tests/support/tcp-relay";
import { buildServerIfMissing } from "#tests/support/built-server";

/**
 * The outage drill: the built server on PostgreSQL, reached through a TCP relay this test cuts
 * and restores (as a database restart or a network fault looks to the app). While it is cut,
 * pages that need the database answer 503 with Retry-After and a friendly page, never 500, and
 * the log gets warnings — once per background loop, not one per retry — and no error line. Once
 * restored the server is ready again without a restart.
 */
const postgresUrl = process.env.DATABASE_URL;

const logLines = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string });

describe.skipIf(!postgresUrl)("a database outage on PostgreSQL", () => {
  let database: TestDatabase;
  let relay: TcpRelay;
  let server: ServerProcess;

  beforeAll(async () => {
    buildServerIfMissing();
    database = await createMigratedDatabase("postgres");
    const url = new URL(database.url!);
    relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
    server = await startServerProcess({ DATABASE_URL: throughRelay(database.url!, relay), SESSION_SECRET: "outage-test-session-secret-0123456789abcdef", LOG_LEVEL: "info" });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.dispose();
  });

  const get = (pathname: string) => fetch(`${server.url}${pathname}`, { redirect: "manual" });

  test("pages answer 503 with Retry-After while it lasts, the log stays calm, and all is well after", async () => {
    expect((await get("/app/opportunities")).status).toBe(200);
    const before = server.output().length;

    await relay.cut();
    // Distinct addresses: nothing kept from before can answer them.
    const during = await Promise.all(["/app/opportunities?tags=podcast", "/app/profiles?q=maya", "/featured"].map(get));
    const statuses = during.map((response) => response.status);
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    const refused = during.filter((response) => response.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const response of refused) {
      expect(response.headers.get("retry-after")).toBe("30");
      expect(await response.text()).toContain("Back in a moment");
    }
    expect((await get("/readyz")).status).toBe(503);
    // Background loops poll meanwhile (mail, sandbox events, webhooks, jobs: each about once a second).
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const outageLines = logLines(server.output().slice(before));
    expect(outageLines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    const warnings = outageLines.filter((line) => line.level === 40 && !/^GET /.test(line.msg));
    const perMessage = new Map<string, number>();
    for (const line of warnings) perMessage.set(line.msg, (perMessage.get(line.msg) ?? 0) + 1);
    // Once per loop, and once per request that met the outage: no message repeats per retry.
    for (const [message, count] of perMessage) expect(count, message).toBeLessThanOrEqual(3);

    await relay.restore();
    const deadline = Date.now() + 20_000;
    while ((await get("/readyz")).status !== 200) {
      if (Date.now() > deadline) throw new Error(`not ready again:\n${server.output().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await get("/app/opportunities?tags=podcast")).status).toBe(200);
  }, 60_000);
});
