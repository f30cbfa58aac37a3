import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import path from "node:path";
import pg from "pg";
import { keepStatementsPrepared } from "./pglite-statements";
import { listenPostgres, type ListenOptions, type Listening } from "./listen";
import { migrateDatabase, type MigrationChain } from "./migrate";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The one database type domain code sees, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Db;
  engine: "pglite" | "postgres";
  /**
   * Runs pending migrations: the product's, then each chain given (a payment provider's own
   * tables), serialised across processes on PostgreSQL.
   */
  migrate(chains?: readonly MigrationChain[]): Promise<void>;
  /**
   * LISTEN on a channel: PGlite hands its own NOTIFYs over in process (same triggers, same
   * commit-time delivery); PostgreSQL through a connection of its own that reconnects (listen.ts).
   */
  listen(channel: string, options: ListenOptions): Promise<Listening>;
  /** Flushes and closes; safe to call twice. */
  close(): Promise<void>;
  /** PostgreSQL's pool right now (metrics); the embedded database has no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
};

/** What opening a database reports as it is used (server/platform/metrics/). */
export type DatabaseObserver = {
  /** Each statement's time, from sending it to its answer (or failure). */
  onQuery?(seconds: number): void;
};

type Timed = (...args: never[]) => unknown;

/**
 * Times one method of a driver object in place, to its answer: a promise's end, or the callback
 * it was given (`pg`'s pool runs its clients' queries that way); anything else passes untimed.
 */
function timeMethod(target: object, name: string, onQuery: (seconds: number) => void) {
  const record = target as Record<string, Timed>;
  const original = record[name]!.bind(target) as (...args: unknown[]) => unknown;
  record[name] = ((...args: unknown[]) => {
    const started = performance.now();
    const done = () => onQuery((performance.now() - started) / 1000);
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (...answer: unknown[]) => {
        done();
        return (callback as (...answer: unknown[]) => unknown)(...answer);
      };
      return original(...args);
    }
    const answer = original(...args);
    if (answer instanceof Promise) answer.then(done, done);
    return answer;
  }) as Timed;
}

const drizzleOptions = { schema, casing: "snake_case" } as const;

export function pgliteDir(dataDir: string): string {
  return path.join(path.resolve(dataDir), "pglite");
}

/**
 * PostgreSQL's own default of 128 MB of shared buffers costs PGlite ~130 MB of resident memory from
 * the start (it is set up inside its WebAssembly heap, which never shrinks). An embedded database
 * for one server is small, and a page PGlite does not keep is read back from the system's file
 * cache, not from disk, so 32 MB holds the working set for a fraction of the memory
 * (bench/README.md, "Memory").
 */
export const PGLITE_SETTINGS = ["shared_buffers=32MB"];

/** PGlite's start parameters with our settings. */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])];
}

/**
 * Opens PGlite in `dataDir` (or in memory when dataDir is null). The caller holds the lock.
 * `from` starts it from a dump of a data folder (`dumpDataDir`) instead of an empty one, with no
 * initdb: the tests' migrated snapshot (tests/support/database-snapshots.ts).
 */
export async function openPglite(dataDir: string | null, observer: DatabaseObserver = {}, start: { from?: Blob } = {}): Promise<DatabaseHandle> {
  const options = { startParams: pgliteStartParams(), loadDataDir: start.from };
  const client = dataDir ? new PGlite(pgliteDir(dataDir), options) : new PGlite(options);
  await client.waitReady;
  keepStatementsPrepared(client);
  const { onQuery } = observer;
  if (onQuery) {
    // Drizzle sends statements through `query` (and `exec`), a transaction's through its own `tx.query`.
    timeMethod(client, "query", onQuery);
    timeMethod(client, "exec", onQuery);
    const transaction = client.transaction.bind(client);
    client.transaction = ((run: (tx: object) => Promise<unknown>) =>
      transaction((tx) => {
        timeMethod(tx, "query", onQuery);
        timeMethod(tx, "exec", onQuery);
        return run(tx);
      })) as typeof client.transaction;
  }
  const db = drizzlePglite({ client, ...drizzleOptions }) as unknown as Db;
  let closed = false;
  return {
    db,
    engine: "pglite",
    async migrate(chains) {
      await migrateDatabase({ engine: "pglite", client }, chains);
    },
    async listen(channel, listenOptions) {
      const unlisten = await client.listen(channel, listenOptions.onNotify);
      return { close: () => (client.closed ? Promise.resolve() : unlisten()) };
    },
    async close() {
      if (closed) return;
      closed = true;
      // PGlite runs without fsync: a checkpoint writes everything out before close.
      await client.query("CHECKPOINT");
      await client.close();
    },
  };
}

export async function openPostgres(
  connectionString: string,
  options: { onIdleClientError?: (error: Error) => void } & DatabaseObserver = {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const { onQuery } = options;
  // `pool.query` runs on a pooled client too, so timing each client's `query` times every statement.
  if (onQuery) pool.on("connect", (client) => timeMethod(client, "query", onQuery));
  // An idle connection can be cut by the server (restart, failover, admin shutdown). The pool
  // drops it and opens a new one on next use; without a listener the error would crash the process.
  pool.on("error", (error) => options.onIdleClientError?.(error));
  // A checked-out connection (a transaction, the migration lock) has no pool listener, and pg
  // emits 'error' on a client whose socket dies even when a query already received the error: with
  // no listener that crashed the process. The work in flight fails on its own (a 503 for a request);
  // the pool drops the broken connection when it is released.
  pool.on("connect", (client) => client.on("error", () => {}));
  // Fail at boot, with the server's own message, if the database is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg({ client: pool, ...drizzleOptions }) as unknown as Db;
  let closed = false;
  return {
    db,
    engine: "postgres",
    async migrate(chains) {
      await migrateDatabase({ engine: "postgres", pool }, chains);
    },
    listen: (channel, listenOptions) => listenPostgres(connectionString, channel, listenOptions),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
