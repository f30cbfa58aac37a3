import { PGlite } from "@electric-sql/pglite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pgliteDir, pgliteStartParams } from "#server/platform/db/client";
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from "#server/platform/db/lock";
import { projectPath } from "#server/platform/paths";
import { writeBackupFile, type BackupHeader, type OpenedBackup } from "./format";
import { migrationStates } from "./migrations";
import { BackupRefusal } from "./refusal";

const startParams = pgliteStartParams();

/**
 * Two processes must never open one PGlite folder, and a running server keeps it open, so a backup
 * or restore takes the folder's lock like any starter and is refused while a server holds it
 * (docs/decisions/0044-backups.md). Holding the lock, nobody writes: the copy is consistent.
 */
function lockFolder(dataDir: string, doing: string): DataDirLock {
  try {
    return acquireDataDirLock(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const who = error.holderPid ? ` (pid ${error.holderPid})` : "";
    throw new BackupRefusal(
      `The server is running on this data folder${who}. Stop it first, then ${doing} (the embedded database can be opened by one process at a time; ` +
        `stopping takes a second and a restart re-opens it), or run on PostgreSQL, whose backups need no stop.`,
    );
  }
}

function pgliteVersion(): string {
  const file = projectPath("node_modules/@electric-sql/pglite/package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

function holdsDatabase(dir: string): boolean {
  return fs.existsSync(path.join(dir, "PG_VERSION"));
}

export async function backupPglite(dataDir: string, out: string, header: Pick<BackupHeader, "createdAt" | "appVersion" | "dataFiles">): Promise<BackupHeader> {
  const lock = lockFolder(dataDir, "back up");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sg-backup-"));
  try {
    const dir = pgliteDir(dataDir);
    if (!holdsDatabase(dir)) throw new BackupRefusal(`There is no embedded database in ${path.resolve(dataDir)} to back up (no ${dir}).`);
    const client = new PGlite(dir, { startParams });
    try {
      await client.waitReady;
      // PGlite runs without fsync and keeps pages in its buffers: write them out so the folder is whole.
      await client.query("CHECKPOINT");
      const migrations = await migrationStates(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
      const tarball = await client.dumpDataDir("gzip");
      const payload = path.join(tmp, "pglite.tar.gz");
      fs.writeFileSync(payload, Buffer.from(await tarball.arrayBuffer()));
      return await writeBackupFile(out, { ...header, engine: "pglite", engineVersion: pgliteVersion(), migrations }, { file: payload, kind: "pglite-datadir-tar-gz" });
    } finally {
      await client.close();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    lock.release();
  }
}

/**
 * Loads the backup into a folder beside the live one, opens it to prove it, and only then swaps
 * it in; the database it replaces (with --force) is kept, renamed, for the operator to delete.
 */
export async function restorePglite(dataDir: string, file: string, opened: OpenedBackup, options: { force: boolean; now: Date }): Promise<string[]> {
  const lock = lockFolder(dataDir, "restore");
  const dir = pgliteDir(dataDir);
  const staging = `${dir}.restoring`;
  try {
    const occupied = holdsDatabase(dir);
    if (occupied && !options.force) {
      throw new BackupRefusal(
        `${path.resolve(dataDir)} already holds an embedded database. Restoring replaces all of it; nothing was changed. ` +
          `Run again with --force to replace it (the current one is kept beside it, renamed).`,
      );
    }
    fs.rmSync(staging, { recursive: true, force: true });
    const data = fs.readFileSync(file).subarray(opened.payloadOffset);
    const client = new PGlite(staging, { startParams, loadDataDir: new Blob([data]) });
    try {
      await client.waitReady;
      await client.query("select count(*) from information_schema.tables");
      await client.query("CHECKPOINT");
    } finally {
      await client.close();
    }
    const notes: string[] = [];
    if (occupied) {
      const kept = `${dir}.before-restore-${options.now.toISOString().replace(/[:.]/g, "-")}`;
      fs.renameSync(dir, kept);
      notes.push(`The database it replaced is kept in ${kept}; delete it once you are content.`);
    }
    fs.renameSync(staging, dir);
    return notes;
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    lock.release();
  }
}
