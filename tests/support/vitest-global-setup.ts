import fs from "node:fs";
import path from "node:path";
import { ensurePgliteSnapshot, ensurePostgresTemplate } from "./database-snapshots";
import { DATABASE_SETUP_TIMES } from "./database-setup-times";

/**
 * Once per Vitest run, before any test file: the migrated snapshots every test database is copied
 * from (tests/support/database-snapshots.ts), made here so the workers do not race to make them,
 * and the run's database setup times started afresh.
 */
export default async function setup(): Promise<void> {
  fs.mkdirSync(path.dirname(DATABASE_SETUP_TIMES), { recursive: true });
  fs.writeFileSync(DATABASE_SETUP_TIMES, "");
  const adminUrl = process.env.DATABASE_URL;
  await Promise.all([
    ensurePgliteSnapshot(),
    ...(adminUrl ? [ensurePostgresTemplate(adminUrl), ensurePostgresTemplate(adminUrl, { linguisticCollation: true })] : []),
  ]);
}
