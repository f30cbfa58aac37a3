// `npm run backup -- [--out FILE]`: one file holding the whole database (and the generated session
// secret), written while PostgreSQL runs, or — on the embedded database — refused while a server
// holds the data folder. docs/decisions/0044-backups.md; README "Backups and restore".
import fs from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "#server/config";
import { createBackup } from "./backup";
import { describeFailure, formatBytes } from "./cli-output";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: "string" } }, allowPositionals: false });
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig(process.env);
  const done = await createBackup(config, { out: values.out });
  const migration = done.header.migrations.__drizzle_migrations?.lastTag ?? "none";
  console.log(`Backup written: ${done.file}`);
  console.log(`  ${formatBytes(done.bytes)} in ${(done.ms / 1000).toFixed(1)} s; ${done.header.engine}, app ${done.header.appVersion}, last migration ${migration}`);
  for (const note of done.notes) console.log(`  ${note}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Cannot back up: ${describeFailure(error, ConfigError)}`);
    process.exit(1);
  },
);
