import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Who holds the folder, as the holder wrote it into the lock file (null when it wrote nothing yet). */
export type LockHolder = { pid: number; host: string } | null;

export class DataDirLockedError extends Error {
  readonly holderPid: number | null;
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const who = holder ? ` (pid ${holder.pid}${holder.host && holder.host !== os.hostname() ? ` on host ${holder.host}` : ""})` : "";
    super(
      `The data folder ${dataDir} is already in use by another Sponsorgrid process${who}. ` +
        `Stop that process first, or set DATA_DIR to a different folder. ` +
        `Two processes must never open the same embedded database.`,
    );
    this.name = "DataDirLockedError";
    this.holderPid = holder?.pid ?? null;
  }
}

export type DataDirLock = { path: string; release(): void };

const LOCK_NAME = "sponsorgrid.lock";

/**
 * Node has no flock(2), so a helper process takes it on our descriptor: it inherits the
 * descriptor as fd 3, locks it and exits at once. A flock belongs to the open file description,
 * which this process still holds, so the lock stays ours until we close it or die — the kernel
 * releases it then, whatever happens to our pid afterwards. The helper never outlives the call.
 * `flock` is util-linux's (Debian, Ubuntu) or BusyBox's (Alpine); perl stands in on macOS.
 */
const LOCKERS: Array<[command: string, args: string[]]> = [
  ["flock", ["-x", "-n", "3"]],
  ["perl", ["-MFcntl=:flock", "-e", 'open(my $f, "+<&=", 3) or die "$!\\n"; exit(flock($f, LOCK_EX | LOCK_NB) ? 0 : 1)']],
];

/** True when we now hold the lock, false when another open file description holds it. */
function tryExclusiveFlock(fd: number, lockPath: string): boolean {
  const problems: string[] = [];
  for (const [command, args] of LOCKERS) {
    const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe", fd], encoding: "utf8", timeout: 10_000 });
    if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
      problems.push(`${command} is not installed`);
      continue;
    }
    const stderr = (result.stderr ?? "").trim();
    if (result.status === 0) return true;
    // Both lockers exit 1 without a word when the lock is taken; anything else is a failure.
    if (result.status === 1 && stderr === "") return false;
    throw new Error(`Could not lock ${lockPath} with ${command}: ${stderr || result.error?.message || `exit ${result.status}`}`);
  }
  throw new Error(
    `Could not lock ${lockPath}: ${problems.join(", ")}. Install util-linux (it provides flock), ` +
      `or run on PostgreSQL by setting DATABASE_URL.`,
  );
}

function readHolder(lockPath: string): LockHolder {
  try {
    const [pidLine, host = ""] = fs.readFileSync(lockPath, "utf8").split("\n");
    const pid = Number.parseInt(pidLine ?? "", 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, host } : null;
  } catch {
    return null;
  }
}

/**
 * Takes an exclusive lock on `dataDir`: flock(2) on `DATA_DIR/sponsorgrid.lock`
 * (docs/decisions/0013-embedded-database-lock.md). A live holder, in this process or another, makes
 * this throw DataDirLockedError at once, naming the pid the holder wrote into the file. The kernel
 * drops the lock when its holder dies (kill -9 included), so what a dead process left in the file —
 * a pid that may now belong to someone else, or to us — never blocks a start.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, LOCK_NAME);
  // Never deleted: unlinking a lock file lets a waiter lock the old inode while a newcomer locks a new one.
  const fd = fs.openSync(lockPath, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
  try {
    if (!tryExclusiveFlock(fd, lockPath)) throw new DataDirLockedError(dir, readHolder(lockPath));
    // Only for the message a refused starter shows; the lock itself is the kernel's.
    const holder = Buffer.from(`${process.pid}\n${os.hostname()}\n${new Date().toISOString()}\n`);
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, holder, 0, holder.length, 0);
  } catch (error) {
    fs.closeSync(fd); // releases the lock too, if we had it
    throw error;
  }

  let released = false;
  return {
    path: lockPath,
    release() {
      if (released) return;
      released = true;
      fs.ftruncateSync(fd, 0); // a holder no more: name nobody
      fs.closeSync(fd); // the last descriptor of the locked file: the kernel unlocks it
    },
  };
}
