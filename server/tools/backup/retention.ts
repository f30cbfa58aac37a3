import fs from "node:fs";
import path from "node:path";
import type { BackupEngine } from "./format";

/**
 * `--keep N`: after a backup, the oldest files of the command's own naming (backup.ts,
 * defaultBackupPath) for the same engine go until N are left. Counted, not aged: backups that fail
 * for weeks never take the last good ones with them. Files named otherwise (an `--out` copy, an
 * operator's own) and the other engine's (kept from before a move to PostgreSQL) are never touched.
 */
export function pruneBackups(dir: string, keep: number, engine: BackupEngine): string[] {
  const name = new RegExp(`^sponsorgrid-${engine}-\\d{8}T\\d{6}Z\\.backup$`);
  // The UTC time in the name sorts as text.
  const ours = fs
    .readdirSync(dir)
    .filter((file) => name.test(file))
    .sort();
  const removed = ours.slice(0, Math.max(0, ours.length - keep));
  for (const file of removed) fs.rmSync(path.join(dir, file), { force: true });
  return removed;
}
