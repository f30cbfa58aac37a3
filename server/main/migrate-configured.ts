import fs from "node:fs";
import { ConfigError, loadConfig, type Config } from "#server/platform/config";
import { grantAppRole, roleOf } from "#server/platform/db/app-role";
import { openPostgres, type DatabaseHandle } from "#server/platform/db/client";
import { DataDirLockedError } from "#server/platform/db/lock";
import { openConfiguredDatabase } from "#server/platform/db/open";
import { providerMigrations } from "#server/providers/payments/choose-provider";

/**
 * The product's migrations, then the payment provider's own, on the configured database. With
 * MIGRATION_DATABASE_URL they run as the tables' owner over a connection of their own, and the
 * owner then grants the app's role (DATABASE_URL's) what it may do (server/platform/db/app-role.ts);
 * otherwise over the app's own connection, as before.
 */
export async function migrateConfiguredDatabase(config: Pick<Config, "DATABASE_URL" | "MIGRATION_DATABASE_URL" | "PAYMENT_PROVIDER">, database: DatabaseHandle): Promise<void> {
  const chains = providerMigrations(config);
  if (!config.MIGRATION_DATABASE_URL || !config.DATABASE_URL) {
    await database.migrate(chains);
    return;
  }
  const owner = await openPostgres(config.MIGRATION_DATABASE_URL);
  try {
    await owner.migrate(chains);
  } finally {
    await owner.close();
  }
  await grantAppRole(config.MIGRATION_DATABASE_URL, roleOf(config.DATABASE_URL));
}

/**
 * `node server.js migrate` (`npm run migrate` in a checkout): the migrations as their own step,
 * before new app processes start (a Kubernetes Job, a deploy script), so no process pays for them
 * under its start-up probe's budget. The exit code; what went wrong is printed, never thrown.
 */
export async function migrateCommand(args: string[]): Promise<number> {
  if (args.length > 0) {
    console.error("Usage: node server.js migrate   (no arguments; the database is the server's own: DATABASE_URL or DATA_DIR)");
    return 2;
  }
  try {
    if (process.env.DOTENV !== "off" && fs.existsSync(".env")) process.loadEnvFile(".env");
    const config = loadConfig(process.env);
    const started = performance.now();
    const opened = await openConfiguredDatabase(config);
    try {
      await migrateConfiguredDatabase(config, opened.database);
    } finally {
      await opened.close();
    }
    console.log(`Migrations applied (${opened.database.engine}) in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    return 0;
  } catch (error) {
    console.error(`Cannot migrate: ${error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : String(error)}`);
    return 1;
  }
}
