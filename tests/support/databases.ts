import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openPglite, openPostgres, type DatabaseHandle, type Db } from "#server/db/client";
import { SANDBOX_MIGRATIONS } from "#server/payments/sandbox/migrations";

export type Engine = "pglite" | "postgres";

/** PGlite always; PostgreSQL too when DATABASE_URL is set (as in CI). */
export const ENGINES: Engine[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export type TestDatabase = DatabaseHandle & { dispose(): Promise<void> };

/**
 * An empty database of its own for one test file: in-memory PGlite, or a
 * freshly created PostgreSQL database that is dropped afterwards.
 * `linguisticCollation` (PostgreSQL only) gives the database an English ICU
 * collation that, like glibc's en_US, ignores spaces at first: 'newsletter'
 * sorts before 'new york', the other way round from byte order.
 */
export async function createEmptyDatabase(engine: Engine, options: { linguisticCollation?: boolean } = {}): Promise<TestDatabase> {
  if (engine === "pglite") {
    const handle = await openPglite(null);
    return { ...handle, dispose: () => handle.close() };
  }
  const adminUrl = process.env.DATABASE_URL!;
  const name = `sg_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(
    options.linguisticCollation
      ? `create database ${name} locale_provider icu icu_locale 'en-US-u-ka-shifted' template template0`
      : `create database ${name}`,
  );
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  return {
    ...handle,
    async dispose() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** What a test reads of its database. */
export type TestDb = { readonly db: Db };

/**
 * A migrated database of its own for the enclosing `describe` block (or the
 * file, outside one): the product's tables and the sandbox provider's, as a
 * server with PAYMENT_PROVIDER=sandbox has them (the tests' payment provider
 * is the sandbox). This call registers the `beforeAll` that creates it, so
 * the block's hooks declared after the call can already use it; it is dropped
 * after the block's tests.
 */
export function migratedDatabase(engine: Engine, options: { linguisticCollation?: boolean } = {}): TestDb {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createEmptyDatabase(engine, options);
    await database.migrate([SANDBOX_MIGRATIONS]);
  });
  afterAll(() => database?.dispose());
  return {
    get db() {
      if (!database) throw new Error("The test database exists from the block's first hook on; use it in hooks and tests.");
      return database.db;
    },
  };
}
