import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { openPglite, openPostgres, type DatabaseHandle, type Db } from "#server/platform/db/client";
import { ensurePostgresTemplate, LINGUISTIC_COLLATION, onServer, pgliteSnapshot, withDatabase, type TemplateOptions } from "./database-snapshots";
import { recordDatabaseSetup } from "./database-setup-times";

export type Engine = "pglite" | "postgres";

/** PGlite always; PostgreSQL too when DATABASE_URL is set (as in CI). */
export const ENGINES: Engine[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/** `url` is the PostgreSQL database's connection string, for another process to open (none for PGlite). */
export type TestDatabase = DatabaseHandle & { url?: string; dispose(): Promise<void> };

/**
 * An empty database of its own for one test file: in-memory PGlite, or a
 * freshly created PostgreSQL database that is dropped afterwards: for the
 * tests of migrating itself.
 */
export async function createEmptyDatabase(engine: Engine, options: TemplateOptions = {}): Promise<TestDatabase> {
  if (engine === "pglite") return disposable(await openPglite(null));
  return createPostgresDatabase(options.linguisticCollation ? LINGUISTIC_COLLATION : "");
}

/**
 * A migrated database of its own, copied from the run's snapshot (tests/support/database-snapshots.ts):
 * the product's tables and the sandbox provider's, as a server with PAYMENT_PROVIDER=sandbox has
 * them, in well under a second instead of a migration from empty.
 */
export async function createMigratedDatabase(engine: Engine, options: TemplateOptions = {}): Promise<TestDatabase> {
  const started = performance.now();
  const database =
    engine === "pglite"
      ? disposable(await openPglite(null, {}, { from: await pgliteSnapshot() }))
      : await fromPostgresTemplate(options);
  // Recorded for the run's summary; a benchmark outside Vitest (bench/test-databases/) counts its own.
  if (process.env.VITEST) recordDatabaseSetup(engine, performance.now() - started, expect.getState().testPath);
  return database;
}

function disposable(handle: DatabaseHandle): TestDatabase {
  return { ...handle, dispose: () => handle.close() };
}

/**
 * A copy of the migrated template. Should the template be gone (dropped by hand, or by a run
 * from another checkout), it is made again and the copy tried once more.
 */
async function fromPostgresTemplate(options: TemplateOptions): Promise<TestDatabase> {
  try {
    return await createPostgresDatabase(`template ${await ensurePostgresTemplate(process.env.DATABASE_URL!, options)}`);
  } catch (error) {
    if ((error as { code?: string }).code !== "3D000") throw error;
    return createPostgresDatabase(`template ${await ensurePostgresTemplate(process.env.DATABASE_URL!, options)}`);
  }
}

/** A new database on the DATABASE_URL server, `create database … <clause>`, dropped on dispose. */
async function createPostgresDatabase(clause: string): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL!;
  const name = `sg_test_${randomBytes(6).toString("hex")}`;
  await onServer(adminUrl, (client) => client.query(`create database ${name} ${clause}`));
  const url = withDatabase(adminUrl, name);
  const handle = await openPostgres(url);
  return {
    ...handle,
    url,
    async dispose() {
      await handle.close();
      await onServer(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** What a test reads of its database. */
export type TestDb = { readonly db: Db };

/**
 * A migrated database of its own for the enclosing `describe` block (or the
 * file, outside one), from the snapshot (`createMigratedDatabase`). This call registers the `beforeAll` that creates it, so
 * the block's hooks declared after the call can already use it; it is dropped
 * after the block's tests.
 */
export function migratedDatabase(engine: Engine, options: TemplateOptions = {}): TestDb {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createMigratedDatabase(engine, options);
  });
  afterAll(() => database?.dispose());
  return {
    get db() {
      if (!database) throw new Error("The test database exists from the block's first hook on; use it in hooks and tests.");
      return database.db;
    },
  };
}
