import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { grantAppRole } from "#server/platform/db/app-role";
import { extractPayload, writeBackupFile, type BackupHeader, type OpenedBackup } from "./format";
import { migrationStates } from "./migrations";
import { BackupRefusal } from "./refusal";

/** The URL without its password (which would show in `ps`), and the password for libpq's environment. */
function libpqTarget(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { dbname: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupRefusal(`${command} is not installed. Install PostgreSQL's client tools (Debian: apt-get install postgresql-client), of the server's major version or newer.`)
          : error,
      );
    });
    child.on("close", (code) => (code === 0 ? resolve() : reject(explainFailure(command, code, stderr.trim()))));
  });
}

/** The two failures an operator fixes in the setup rather than the database get what to do added. */
function explainFailure(command: string, code: number | null, stderr: string): Error {
  const failed = `${command} failed (exit ${code}): ${stderr}`;
  if (/permission denied/i.test(stderr)) {
    return new BackupRefusal(`${failed}. Back up and restore as the tables' owner: set MIGRATION_DATABASE_URL to the owner's connection (the app's own role cannot read everything).`);
  }
  if (/server version mismatch/i.test(stderr)) {
    return new BackupRefusal(`${failed}. Install PostgreSQL's client tools of the server's major version (the image: docker build --build-arg PG_MAJOR=<server major>).`);
  }
  return new Error(failed);
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * `pg_dump --format=custom` of the whole database — public, the sandbox's schema and drizzle's
 * migration tables — in one snapshot, so the app keeps running while it is taken.
 */
export async function backupPostgres(databaseUrl: string, out: string, header: Pick<BackupHeader, "createdAt" | "appVersion" | "dataFiles">): Promise<BackupHeader> {
  const { migrations, engineVersion } = await withClient(databaseUrl, async (client) => ({
    migrations: await migrationStates(async (text) => (await client.query<Record<string, unknown>>(text)).rows),
    engineVersion: String((await client.query<{ server_version: string }>("show server_version")).rows[0]?.server_version),
  }));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sg-backup-"));
  try {
    const payload = path.join(tmp, "database.dump");
    const { dbname, env } = libpqTarget(databaseUrl);
    await run("pg_dump", ["--format=custom", "--file", payload, "--dbname", dbname], env);
    return await writeBackupFile(out, { ...header, engine: "postgres", engineVersion, migrations }, { file: payload, kind: "pg_dump-custom" });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

type TargetState = { tables: number; others: number };

async function targetState(databaseUrl: string): Promise<TargetState> {
  return withClient(databaseUrl, async (client) => {
    const tables = await client.query<{ n: number }>(
      `select count(*)::int as n from information_schema.tables where table_schema in ('public', 'sandbox', 'drizzle')`,
    );
    const others = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return { tables: tables.rows[0]?.n ?? 0, others: others.rows[0]?.n ?? 0 };
  });
}

/**
 * `pg_restore --clean --if-exists --no-owner` in one transaction: it all lands or none of it.
 * Refused over a database that has tables unless forced, and while anything else is connected
 * (an app process writing during a restore would be lost or break it). With the app's own role
 * (`appRole`), the owner grants it again what it may do, as after a migration.
 */
export async function restorePostgres(databaseUrl: string, file: string, opened: OpenedBackup, options: { force: boolean; appRole?: string }): Promise<string[]> {
  const state = await targetState(databaseUrl);
  if (state.tables > 0 && !options.force) {
    throw new BackupRefusal(
      `The database in DATABASE_URL is not empty (${state.tables} tables). Restoring replaces what the backup holds; nothing was changed. ` +
        `Restore into a new, empty database, or run again with --force to replace this one.`,
    );
  }
  if (state.others > 0) {
    throw new BackupRefusal(
      `${state.others} other connection(s) are open to the database in DATABASE_URL. Stop the app processes (and anything else using it) before restoring; nothing was changed.`,
    );
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sg-restore-"));
  try {
    const payload = path.join(tmp, "database.dump");
    await extractPayload(file, opened, payload);
    const { dbname, env } = libpqTarget(databaseUrl);
    await run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error", "--dbname", dbname, payload], env);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (!options.appRole) return [];
  await grantAppRole(databaseUrl, options.appRole);
  return [`Granted the app's role ${options.appRole} its reads and writes (audit_log: insert and select only).`];
}
