import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PRODUCT_MIGRATIONS, type MigrationChain } from "#server/platform/db/migrate";
import type { Db } from "#server/platform/db/client";
import { SANDBOX_MIGRATIONS } from "#server/providers/payments/sandbox/migrations";
import { createEmptyDatabase, ENGINES, migratedDatabase, type TestDatabase } from "#tests/support/databases";
import { createProbes, type Probes } from "./probes";

/** Serves only the probes, as the top-level listener does, and answers what a balancer sees. */
async function serve(probes: Probes) {
  const server = http.createServer((req, res) => {
    if (!probes.handle(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: async (path: string, method = "GET") => {
      const response = await fetch(`${base}${path}`, { method });
      return { status: response.status, cache: response.headers.get("cache-control"), body: await response.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(ENGINES)("probes on %s", (engine) => {
  const database = migratedDatabase(engine);
  const chains = [PRODUCT_MIGRATIONS, SANDBOX_MIGRATIONS];

  test("/livez and /readyz answer 200 on a migrated, reachable database, never cached; other paths go on", async () => {
    const server = await serve(createProbes({ db: database.db, chains }));
    try {
      expect(await server.get("/livez")).toEqual({ status: 200, cache: "no-store", body: "ok\n" });
      expect(await server.get("/readyz")).toEqual({ status: 200, cache: "no-store", body: "ready\n" });
      expect((await server.get("/readyz?verbose=1")).status).toBe(200);
      expect((await server.get("/readyz", "HEAD")).status).toBe(200);
      expect((await server.get("/livez", "POST")).status).toBe(405);
      expect((await server.get("/livez/x")).status).toBe(418);
    } finally {
      await server.close();
    }
  });

  test("shutting down: /readyz 503 with the reason while /livez stays 200", async () => {
    const probes = createProbes({ db: database.db, chains });
    const server = await serve(probes);
    try {
      probes.shuttingDown();
      expect(await server.get("/readyz")).toEqual({ status: 503, cache: "no-store", body: "not ready: shutting down\n" });
      expect((await server.get("/livez")).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test("a migration the database has not recorded makes the process not ready", async () => {
    // A chain whose newest migration is one this database never ran.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "sg-probe-migrations-"));
    try {
      fs.cpSync(PRODUCT_MIGRATIONS.folder, folder, { recursive: true });
      const journalPath = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { idx: number; when: number; tag: string; breakpoints: boolean; version: string }[] };
      const last = journal.entries.at(-1)!;
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: "9999_future" });
      fs.writeFileSync(journalPath, JSON.stringify(journal));
      fs.writeFileSync(path.join(folder, "9999_future.sql"), "select 1;");
      const future: MigrationChain = { folder, table: PRODUCT_MIGRATIONS.table };
      const readiness = await createProbes({ db: database.db, chains: [future] }).readiness();
      expect(readiness).toEqual({ ready: false, reason: "migrations not applied (__drizzle_migrations)" });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a background part that is down, or a loop that stopped beating, makes the process not ready", async () => {
    let clock = 1_000_000;
    const probes = createProbes({ db: database.db, chains, now: () => clock });
    probes.health.down("notification LISTEN", "connection lost; reconnecting");
    expect(await probes.readiness()).toEqual({ ready: false, reason: "notification LISTEN: connection lost; reconnecting" });
    probes.health.up("notification LISTEN");
    expect(await probes.readiness()).toEqual({ ready: true });

    probes.health.expectBeats("mail delivery", 60_000);
    clock += 50_000;
    probes.health.beat("mail delivery");
    clock += 50_000;
    expect(await probes.readiness()).toEqual({ ready: true });
    clock += 20_000;
    expect(await probes.readiness()).toEqual({ ready: false, reason: "mail delivery: no heartbeat for 70 s" });
  });

  test("a watched part that says it is stuck (the job scheduler) makes the process not ready until it moves again", async () => {
    const probes = createProbes({ db: database.db, chains });
    let stuck: string | null = "background work stuck: the job scheduler has not ticked for 75 s";
    probes.health.watch("job scheduler", () => stuck);
    expect(await probes.readiness()).toEqual({ ready: false, reason: "job scheduler: background work stuck: the job scheduler has not ticked for 75 s" });
    stuck = null;
    expect(await probes.readiness()).toEqual({ ready: true });
  });
});

describe("probes and an unhealthy database", () => {
  let empty: TestDatabase;
  beforeAll(async () => {
    empty = await createEmptyDatabase("pglite");
  });
  afterAll(() => empty.dispose());

  test("a database that was never migrated is not ready", async () => {
    expect(await createProbes({ db: empty.db, chains: [PRODUCT_MIGRATIONS] }).readiness()).toEqual({ ready: false, reason: "migrations not applied" });
  });

  test("a database that does not answer in time is not ready, within the timeout", async () => {
    const hanging = { execute: () => new Promise(() => {}) } as unknown as Db;
    const started = Date.now();
    const readiness = await createProbes({ db: hanging, chains: [PRODUCT_MIGRATIONS], timeoutMs: 100 }).readiness();
    expect(readiness).toEqual({ ready: false, reason: "database did not answer within 100 ms" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test("a database that refuses is not ready, with its message", async () => {
    const refusing = { execute: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")) } as unknown as Db;
    expect(await createProbes({ db: refusing, chains: [PRODUCT_MIGRATIONS] }).readiness()).toEqual({
      ready: false,
      reason: "database unreachable: connect ECONNREFUSED 127.0.0.1:5432",
    });
  });
});

test("probes in a burst cost one database query per reuse period", async () => {
  let clock = 0;
  let queries = 0;
  const counting = {
    execute: async () => {
      queries++;
      return { rows: [{ c0: Number.MAX_SAFE_INTEGER }] };
    },
  } as unknown as Db;
  const probes = createProbes({ db: counting, chains: [PRODUCT_MIGRATIONS], reuseMs: 250, now: () => clock });
  const burst = await Promise.all(Array.from({ length: 50 }, () => probes.readiness()));
  expect(burst.every((answer) => answer.ready)).toBe(true);
  clock += 200;
  await probes.readiness();
  expect(queries).toBe(1);
  clock += 100;
  await probes.readiness();
  expect(queries).toBe(2);
  // Shutting down is never reused: the very next probe says so.
  probes.shuttingDown();
  expect(await probes.readiness()).toEqual({ ready: false, reason: "shutting down" });
});
