import type { Config } from "#server/config";
import { grantAppRole, roleOf } from "#server/db/app-role";
import { openPostgres, type DatabaseHandle } from "#server/db/client";
import { providerMigrations } from "#server/payments/setup";

/**
 * The product's migrations, then the payment provider's own, on the configured database. With
 * MIGRATION_DATABASE_URL they run as the tables' owner over a connection of their own, and the
 * owner then grants the app's role (DATABASE_URL's) what it may do (server/db/app-role.ts);
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
