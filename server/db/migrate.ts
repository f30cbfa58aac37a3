import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type pg from "pg";
import { projectPath } from "#server/paths";

export const MIGRATIONS_DIR = projectPath("server/db/migrations");

// Any fixed number: every app process takes the same advisory lock while it migrates.
const MIGRATION_LOCK_KEY = 7_210_431_977;

type Target = { engine: "pglite"; client: PGlite } | { engine: "postgres"; pool: pg.Pool };

export async function migrateDatabase(target: Target): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR };
  if (target.engine === "pglite") {
    await migratePglite(drizzlePglite({ client: target.client }), config);
    return;
  }
  // Several processes may start at once against one PostgreSQL: serialise them.
  const connection = await target.pool.connect();
  try {
    await connection.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client: connection }), config);
  } finally {
    await connection.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    connection.release();
  }
}
