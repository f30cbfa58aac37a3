import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The data folder ${dataDir} is already in use by another Sponsorgrid process (pid ${holderPid}). ` +
        `Stop that process first, or set DATA_DIR to a different folder. ` +
        `Two processes must never open the same embedded database.`,
    );
    this.name = "DataDirLockedError";
  }
}

export type DataDirLock = { path: string; release(): void };

const LOCK_NAME = "sponsorgrid.lock";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").split("\n")[0] ?? "", 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes an exclusive lock on `dataDir` by creating a lock file with O_EXCL.
 * A lock left by a process that no longer runs (a crash, kill -9) is stale
 * and taken over; a live holder makes this throw DataDirLockedError at once.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, LOCK_NAME);
  const contents = `${process.pid}\n${os.hostname()}\n${new Date().toISOString()}\n`;

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, contents, { flag: "wx" });
      let released = false;
      return {
        path: lockPath,
        release() {
          if (released) return;
          released = true;
          if (readHolder(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolder(lockPath);
      if (holder !== null && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dir, holder);
      }
      if (holder === process.pid) throw new DataDirLockedError(dir, holder);
      fs.rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}
