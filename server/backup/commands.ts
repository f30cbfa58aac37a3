// The backup and restore commands: `npm run backup|restore` in a checkout (backup-cli.ts and
// restore-cli.ts, through tsx) and `node server.js backup|restore` in a release, where no dev
// dependency is left (server/main/entry.ts exports these). docs/decisions/0044-backups.md.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "#server/config";
import { createBackup, restoreBackup } from "./backup";
import { describeFailure, formatBytes } from "./cli-output";

/** `backup [--out FILE]`: the exit code; what went wrong is printed, never thrown. */
export function backupCommand(args: string[]): Promise<number> {
  return backup(args).catch((error: unknown) => {
    console.error(`Cannot back up: ${describeFailure(error, ConfigError)}`);
    return 1;
  });
}

/** `restore FILE [--force]`: the exit code; what went wrong is printed, never thrown. */
export function restoreCommand(args: string[]): Promise<number> {
  return restore(args).catch((error: unknown) => {
    console.error(`Cannot restore: ${describeFailure(error, ConfigError)}`);
    return 1;
  });
}

async function backup(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { out: { type: "string" } }, allowPositionals: false });
  if (process.env.DOTENV !== "off" && fs.existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig(process.env);
  const done = await createBackup(config, { out: values.out });
  const migration = done.header.migrations.__drizzle_migrations?.lastTag ?? "none";
  console.log(`Backup written: ${done.file}`);
  console.log(`  ${formatBytes(done.bytes)} in ${(done.ms / 1000).toFixed(1)} s; ${done.header.engine}, app ${done.header.appVersion}, last migration ${migration}`);
  for (const note of done.notes) console.log(`  ${note}`);
  return 0;
}

async function restore(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { force: { type: "boolean", default: false } }, allowPositionals: true });
  const [file] = positionals;
  if (!file || positionals.length > 1) {
    console.error("Usage: npm run restore -- FILE [--force]");
    return 2;
  }
  if (process.env.DOTENV !== "off" && fs.existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig(process.env);
  const done = await restoreBackup(config, file, { force: values.force });
  console.log(`Restored ${file} (${done.header.engine}, made ${done.header.createdAt} by app ${done.header.appVersion}) in ${(done.ms / 1000).toFixed(1)} s.`);
  for (const note of done.notes) console.log(`  ${note}`);
  console.log("  Start the server as usual.");
  return 0;
}
