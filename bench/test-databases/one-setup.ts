// One test file's database setup, in a process of its own as Vitest runs each database file:
// `scratch` (the suite before ADR 0058: a new database, every migration) or `snapshot` (today:
// a copy of the migrated snapshot). Prints the milliseconds it took. Run by ./run.mjs.
import { createEmptyDatabase, createMigratedDatabase, type Engine } from "#tests/support/databases";
import { ensurePgliteSnapshot, ensurePostgresTemplate, TEST_MIGRATION_CHAINS } from "#tests/support/database-snapshots";

const [engine, way] = process.argv.slice(2) as [Engine, "scratch" | "snapshot" | "prepare"];
if (way === "prepare") {
  // The snapshots are made first, as Vitest's global setup does, so no sample pays for them.
  await (engine === "pglite" ? ensurePgliteSnapshot() : ensurePostgresTemplate(process.env.DATABASE_URL!));
  process.exit(0);
}
const started = performance.now();
const database = way === "scratch" ? await createEmptyDatabase(engine) : await createMigratedDatabase(engine);
if (way === "scratch") await database.migrate(TEST_MIGRATION_CHAINS);
const ms = performance.now() - started;
await database.dispose();
console.log(Math.round(ms));
