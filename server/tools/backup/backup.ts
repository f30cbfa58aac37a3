import fs from "node:fs";
import path from "node:path";
import type { Config } from "#server/platform/config";
import { roleOf } from "#server/platform/db/app-role";
import { projectPath } from "#server/platform/paths";
import { readBackupFile, type BackupEngine, type BackupHeader } from "./format";
import { compareMigrations } from "./migrations";
import { backupPglite, restorePglite } from "./pglite";
import { backupPostgres, restorePostgres } from "./postgres";
import { BackupRefusal } from "./refusal";

export type BackupConfig = Pick<Config, "DATABASE_URL" | "DATA_DIR" | "SESSION_SECRET"> & Partial<Pick<Config, "MIGRATION_DATABASE_URL">>;

/**
 * PostgreSQL is backed up and restored as the tables' owner: pg_dump must read every object (the
 * app's role may not read the migration records' sequence), and a restore recreates the tables,
 * which must stay the owner's so the app's role still cannot rewrite the audit log (ADR 0060).
 */
function ownerUrl(config: BackupConfig): string | undefined {
  return config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL;
}

/**
 * Files of DATA_DIR besides the database that a restore must bring back: the session secret
 * generated when SESSION_SECRET is unset (server/platform/http/secret.ts) signs sessions and unsubscribe
 * links, which would all stop working with a new one.
 */
const DATA_FILES = ["session-secret"] as const;

const engineOf = (config: BackupConfig): BackupEngine => (config.DATABASE_URL ? "postgres" : "pglite");
const engineName = (engine: BackupEngine) => (engine === "pglite" ? "the embedded database (PGlite)" : "PostgreSQL");

function appVersion(): string {
  return (JSON.parse(fs.readFileSync(projectPath("package.json"), "utf8")) as { version: string }).version;
}

function readDataFiles(config: BackupConfig): Record<string, string> {
  const files: Record<string, string> = {};
  if (config.SESSION_SECRET) return files; // it lives in the environment, not in DATA_DIR
  for (const name of DATA_FILES) {
    const file = path.join(path.resolve(config.DATA_DIR), name);
    if (fs.existsSync(file)) files[name] = fs.readFileSync(file, "utf8");
  }
  return files;
}

/** `dir`, or DATA_DIR/backups, and a name that sorts by time (retention.ts relies on it). */
export function defaultBackupPath(config: BackupConfig, now: Date, dir?: string): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
  return path.join(path.resolve(dir ?? path.join(config.DATA_DIR, "backups")), `sponsorgrid-${engineOf(config)}-${stamp}.backup`);
}

export type BackupDone = { file: string; bytes: number; ms: number; header: BackupHeader; notes: string[] };

export async function createBackup(config: BackupConfig, options: { out?: string; dir?: string; now?: Date } = {}): Promise<BackupDone> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const file = path.resolve(options.out ?? defaultBackupPath(config, now, options.dir));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const header = { createdAt: now.toISOString(), appVersion: appVersion(), dataFiles: readDataFiles(config) };
  const owner = ownerUrl(config);
  const written = owner ? await backupPostgres(owner, file, header) : await backupPglite(config.DATA_DIR, file, header);
  const notes = config.SESSION_SECRET ? ["SESSION_SECRET comes from the environment: keep it with your backups, sessions and unsubscribe links need it."] : [];
  return { file, bytes: fs.statSync(file).size, ms: performance.now() - started, header: written, notes };
}

export type RestoreDone = { header: BackupHeader; ms: number; notes: string[] };

export async function restoreBackup(config: BackupConfig, file: string, options: { force?: boolean; now?: Date } = {}): Promise<RestoreDone> {
  const started = performance.now();
  const opened = await readBackupFile(path.resolve(file));
  const { header } = opened;
  const engine = engineOf(config);
  if (header.engine !== engine) {
    throw new BackupRefusal(
      `This backup is of ${engineName(header.engine)}, but this configuration runs on ${engineName(engine)} ` +
        `(${config.DATABASE_URL ? "DATABASE_URL is set" : "DATABASE_URL is unset"}). Restore it with the engine it was made on; nothing was changed.`,
    );
  }
  const verdict = compareMigrations(header.migrations);
  if (verdict.newer.length > 0) {
    throw new BackupRefusal(
      `This backup was made by a newer Sponsorgrid (version ${header.appVersion}) than this code: ${verdict.newer.join("; ")}. ` +
        `Restore it with that release or a later one; nothing was changed.`,
    );
  }
  const force = options.force ?? false;
  const owner = ownerUrl(config);
  const appRole = config.MIGRATION_DATABASE_URL && config.DATABASE_URL ? roleOf(config.DATABASE_URL) : undefined;
  const notes = owner
    ? await restorePostgres(owner, path.resolve(file), opened, { force, appRole })
    : await restorePglite(config.DATA_DIR, path.resolve(file), opened, { force, now: options.now ?? new Date() });
  for (const name of DATA_FILES) {
    const content = header.dataFiles?.[name];
    if (content === undefined) continue;
    fs.mkdirSync(path.resolve(config.DATA_DIR), { recursive: true });
    fs.writeFileSync(path.join(path.resolve(config.DATA_DIR), name), content, { mode: 0o600 });
    notes.push(`${name} restored into ${path.resolve(config.DATA_DIR)} (sessions and unsubscribe links made before the backup keep working).`);
  }
  if (verdict.older.length > 0) notes.push(`The backup is older than this code; the next start runs the missing migrations (${verdict.older.join("; ")}).`);
  return { header, ms: performance.now() - started, notes };
}
