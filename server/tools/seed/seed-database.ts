// `npm run seed`: migrates the configured database and fills it with the tag
// catalogue, the sponsor directory and the demo data, as a fresh server start would, without starting
// the server. Idempotent: the demo data goes in once. On the embedded database
// it takes the data-folder lock first, so it refuses to run while a server
// holds that folder (two processes must never open one PGlite directory).
import fs from "node:fs";
import { ConfigError, loadConfig } from "#server/platform/config";
import { DataDirLockedError } from "#server/platform/db/lock";
import { openConfiguredDatabase } from "#server/platform/db/open";
import { demoPayoutAccount, providerMigrations } from "#server/providers/payments/choose-provider";
import { seedDatabase } from "./index";

async function main(): Promise<number> {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig(process.env);

  const { database, close } = await openConfiguredDatabase(config);
  try {
    await database.migrate(providerMigrations(config));
    const result = await seedDatabase(database.db, { payoutAccount: demoPayoutAccount(config) });
    const where = config.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.DATA_DIR}`;
    console.log(
      `Seeded ${where}: ${result.tagsAdded} tags added; ${result.sponsors} sponsor companies in the directory; ` +
        (result.demoAdded ? "demo accounts and posts added." : "demo data was already there, nothing changed."),
    );
    return 0;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(`Cannot seed: ${error.message}`);
    } else {
      console.error("Cannot seed:", error);
    }
    process.exit(1);
  },
);
