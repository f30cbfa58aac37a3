import crypto from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import type { MigrationState } from "./migrations";

/**
 * One backup is one file: a first line naming the format, a line of JSON (the header), then the
 * payload — PGlite's own tarball of its data folder, or `pg_dump --format=custom`. The header says
 * what the payload is and holds its length and SHA-256, so a truncated or damaged file is refused
 * before anything in the target is touched.
 */
export const MAGIC = "SPONSORGRID-BACKUP 1";

export type BackupEngine = "pglite" | "postgres";

export type BackupHeader = {
  engine: BackupEngine;
  createdAt: string;
  appVersion: string;
  /** PGlite's package version, or PostgreSQL's server_version. */
  engineVersion: string;
  /** The last migration of each chain recorded in the database, by its table (null: chain not there). */
  migrations: Record<string, MigrationState | null>;
  payload: { kind: "pglite-datadir-tar-gz" | "pg_dump-custom"; bytes: number; sha256: string };
  /** Files of DATA_DIR that the restored database needs (the generated session secret), by name. */
  dataFiles: Record<string, string>;
};

export class BackupFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file} is not a usable Sponsorgrid backup: ${problem}. Nothing was changed.`);
    this.name = "BackupFileError";
  }
}

export async function sha256OfFile(file: string, start = 0): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file, { start }), hash);
  return hash.digest("hex");
}

/** Writes header and payload (a file) into `out` through a temporary name, so `out` is whole or absent. */
export async function writeBackupFile(out: string, header: Omit<BackupHeader, "payload">, payload: { file: string; kind: BackupHeader["payload"]["kind"] }): Promise<BackupHeader> {
  const full: BackupHeader = {
    ...header,
    payload: { kind: payload.kind, bytes: fs.statSync(payload.file).size, sha256: await sha256OfFile(payload.file) },
  };
  const partial = `${out}.partial`;
  const output = fs.createWriteStream(partial, { mode: 0o600 });
  output.write(`${MAGIC}\n${JSON.stringify(full)}\n`);
  try {
    await pipeline(fs.createReadStream(payload.file), output);
    fs.renameSync(partial, out);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return full;
}

export type OpenedBackup = { header: BackupHeader; payloadOffset: number };

/** Reads the header and checks the payload's length and hash; throws BackupFileError otherwise. */
export async function readBackupFile(file: string): Promise<OpenedBackup> {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new BackupFileError(file, "the file does not exist");
  }
  const head = Buffer.alloc(Math.min(size, 1 << 20));
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const firstEnd = head.indexOf(0x0a);
  if (firstEnd < 0 || head.subarray(0, firstEnd).toString("utf8") !== MAGIC) throw new BackupFileError(file, "it does not start like one");
  const headerEnd = head.indexOf(0x0a, firstEnd + 1);
  if (headerEnd < 0) throw new BackupFileError(file, "its header is cut off");
  let header: BackupHeader;
  try {
    header = JSON.parse(head.subarray(firstEnd + 1, headerEnd).toString("utf8")) as BackupHeader;
  } catch {
    throw new BackupFileError(file, "its header is damaged");
  }
  if ((header.engine !== "pglite" && header.engine !== "postgres") || typeof header.payload?.bytes !== "number") {
    throw new BackupFileError(file, "its header is damaged");
  }
  const payloadOffset = headerEnd + 1;
  const bytes = size - payloadOffset;
  if (bytes !== header.payload.bytes) {
    throw new BackupFileError(file, `it holds ${bytes} bytes of data where its header says ${header.payload.bytes} (the file is truncated or was changed)`);
  }
  if ((await sha256OfFile(file, payloadOffset)) !== header.payload.sha256) {
    throw new BackupFileError(file, "its data does not match the checksum in its header (the file is damaged)");
  }
  return { header, payloadOffset };
}

/** Copies the payload out into `target`. */
export async function extractPayload(file: string, opened: OpenedBackup, target: string): Promise<void> {
  await pipeline(fs.createReadStream(file, { start: opened.payloadOffset }), fs.createWriteStream(target, { mode: 0o600 }));
}
