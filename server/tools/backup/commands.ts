// The backup and restore commands: `npm run backup|restore` in a checkout (backup-cli.ts and
// restore-cli.ts, through tsx) and `node server.js backup|restore` in a release or the image, where
// no dev dependency is left (server/main/entry.ts exports these). docs/decisions/0044-backups.md;
// the schedules that run them (compose's backup service, the Kubernetes CronJob): ADR 0061.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "#server/platform/config";
import { createBackup, restoreBackup } from "./backup";
import { describeFailure, formatBytes } from "./cli-output";
import { runCopyCommand } from "./copy-command";
import { pruneBackups } from "./retention";

/**
 * The settings a backup or restore reads. The server's others (origins, payment keys, mail) have
 * no say: a schedule given only the database's URLs works, and an unrelated setting never stops a backup.
 */
const SETTINGS = ["DATABASE_URL", "MIGRATION_DATABASE_URL", "DATA_DIR", "SESSION_SECRET"] as const;

function backupSettings() {
  if (process.env.DOTENV !== "off" && fs.existsSync(".env")) process.loadEnvFile(".env");
  return loadConfig(Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]])));
}

/** `backup [--out FILE | --dir DIR [--keep N]]`: the exit code; what went wrong is printed, never thrown. */
export function backupCommand(args: string[]): Promise<number> {
  return backup(args).catch((error: unknown) => {
    console.error(`Cannot back up: ${describeFailure(error, ConfigError)}`);
    return 1;
  });
}

/** `restore FILE [--force]`: the exit code; what went wrong is printed, never thrown. `usage` names the command as it was typed. */
export function restoreCommand(args: string[], usage = "node server.js restore FILE [--force]"): Promise<number> {
  return restore(args, usage).catch((error: unknown) => {
    console.error(`Cannot restore: ${describeFailure(error, ConfigError)}`);
    return 1;
  });
}

/** `backup [--out FILE | --dir DIR] [--keep N]`, then BACKUP_COPY_COMMAND when set. */
const BACKUP_USAGE = "Usage: node server.js backup [--out FILE | --dir DIR [--keep N]]   (--keep: how many of its own files --dir, or DATA_DIR/backups, keeps)";

function backupArgs(args: string[]) {
  try {
    const { values } = parseArgs({ args, options: { out: { type: "string" }, dir: { type: "string" }, keep: { type: "string" } }, allowPositionals: false });
    return values.out !== undefined && (values.dir !== undefined || values.keep !== undefined) ? null : values;
  } catch {
    return null;
  }
}

async function backup(args: string[]): Promise<number> {
  const values = backupArgs(args);
  if (!values) {
    console.error(BACKUP_USAGE);
    return 2;
  }
  const keep = values.keep === undefined ? undefined : Number(values.keep);
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1)) {
    console.error(`--keep must be a whole number of backups, 1 or more (got ${JSON.stringify(values.keep)}).`);
    return 2;
  }
  const config = backupSettings();
  const done = await createBackup(config, { out: values.out, dir: values.dir });
  const migration = done.header.migrations.__drizzle_migrations?.lastTag ?? "none";
  console.log(`Backup written: ${done.file}`);
  console.log(`  ${formatBytes(done.bytes)} in ${(done.ms / 1000).toFixed(1)} s; ${done.header.engine}, app ${done.header.appVersion}, last migration ${migration}`);
  for (const note of done.notes) console.log(`  ${note}`);
  let status = 0;
  const copy = process.env.BACKUP_COPY_COMMAND;
  if (copy) {
    const code = await runCopyCommand(copy, done.file);
    if (code === 0) console.log("  Copied by BACKUP_COPY_COMMAND.");
    else {
      console.error(`BACKUP_COPY_COMMAND failed (exit ${code}): the backup is only at ${done.file}.`);
      status = 1;
    }
  }
  if (keep !== undefined) {
    const removed = pruneBackups(path.dirname(done.file), keep, done.header.engine);
    console.log(`  Kept the newest ${keep} ${done.header.engine} backups in ${path.dirname(done.file)}${removed.length > 0 ? `; removed ${removed.join(", ")}` : ""}.`);
  }
  return status;
}

async function restore(args: string[], usage: string): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { force: { type: "boolean", default: false } }, allowPositionals: true });
  const [file] = positionals;
  if (!file || positionals.length > 1) {
    console.error(`Usage: ${usage}`);
    return 2;
  }
  const config = backupSettings();
  const done = await restoreBackup(config, file, { force: values.force });
  console.log(`Restored ${file} (${done.header.engine}, made ${done.header.createdAt} by app ${done.header.appVersion}) in ${(done.ms / 1000).toFixed(1)} s.`);
  for (const note of done.notes) console.log(`  ${note}`);
  console.log("  Start the server as usual.");
  return 0;
}
