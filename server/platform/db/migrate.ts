import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type pg from "pg";
import { projectPath } from "#server/platform/paths";

export const MIGRATIONS_DIR = projectPath("server/platform/db/migrations");

/**
 * A folder of drizzle-kit migrations and the table (in the `drizzle` schema)
 * that records which of them ran. The product's chain always runs; a payment
 * provider may bring a chain of its own for its own tables
 * (server/providers/payments/choose-provider.ts says which).
 */
export type MigrationChain = {
  folder: string;
  table: string;
  /**
   * A table (schema-qualified) that, when it already exists and the chain has
   * recorded nothing yet, means the chain's first migration was made another
   * way (tables moved in from before the chain existed): it is recorded as run
   * instead of being run.
   */
  adoptsFirstMigrationIfExists?: string;
};

export const PRODUCT_MIGRATIONS: MigrationChain = { folder: MIGRATIONS_DIR, table: "__drizzle_migrations" };

// Any fixed number: every app process takes the same advisory lock while it migrates.
const MIGRATION_LOCK_KEY = 7_210_431_977;

type Target = { engine: "pglite"; client: PGlite } | { engine: "postgres"; pool: pg.Pool };
type Query = (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

/** The product's chain, then each of `chains`, in order, under one lock. */
export async function migrateDatabase(target: Target, chains: readonly MigrationChain[] = []): Promise<void> {
  const all = [PRODUCT_MIGRATIONS, ...chains];
  if (target.engine === "pglite") {
    const db = drizzlePglite({ client: target.client });
    for (const chain of all) {
      await adoptFirstMigration((text, params) => target.client.query(text, params), chain);
      await migratePglite(db, { migrationsFolder: chain.folder, migrationsTable: chain.table });
    }
    return;
  }
  // Several processes may start at once against one PostgreSQL: serialise them.
  const connection = await target.pool.connect();
  try {
    await connection.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    const db = drizzlePg({ client: connection });
    for (const chain of all) {
      await adoptFirstMigration((text, params) => connection.query(text, params), chain);
      await migratePg(db, { migrationsFolder: chain.folder, migrationsTable: chain.table });
    }
  } finally {
    await connection.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    connection.release();
  }
}

async function adoptFirstMigration(query: Query, chain: MigrationChain): Promise<void> {
  if (!chain.adoptsFirstMigrationIfExists) return;
  const [first] = readMigrationFiles({ migrationsFolder: chain.folder });
  if (!first) return;
  const table = `"drizzle"."${chain.table}"`;
  // The same table drizzle's migrator makes, so it finds the record there.
  await query(`create schema if not exists "drizzle"`);
  await query(`create table if not exists ${table} (id serial primary key, hash text not null, created_at bigint)`);
  await query(
    `insert into ${table} (hash, created_at) select $1, $2
     where to_regclass($3) is not null and not exists (select 1 from ${table})`,
    [first.hash, first.folderMillis, chain.adoptsFirstMigrationIfExists],
  );
}
