import { spawn } from "node:child_process";

/**
 * BACKUP_COPY_COMMAND: a shell command run after each backup with the file's path as `$1` (and in
 * BACKUP_FILE), to copy it off the machine — `DATA_DIR/backups` or a volume sits on the same disk
 * as the database. Its output goes to the command's own; its exit code is returned.
 */
export function runCopyCommand(command: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command, "sponsorgrid-backup", file], { env: { ...process.env, BACKUP_FILE: file }, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}
