import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "./lock";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("acquireDataDirLock", () => {
  it("refuses a second holder in the same process with a clear message", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrowError(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrowError(/already in use by another Sponsorgrid process/);
    lock.release();
    acquireDataDirLock(dir).release();
  });

  it("refuses while another live process holds the folder", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(path.join(dir, "sponsorgrid.lock"), `${child.pid}\nhost\n`);
      expect(() => acquireDataDirLock(dir)).toThrowError(new RegExp(`pid ${child.pid}`));
    } finally {
      child.kill();
    }
  });

  it("takes over a stale lock whose process is gone", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => child.on("exit", resolve));
    fs.writeFileSync(path.join(dir, "sponsorgrid.lock"), `${child.pid}\nhost\n`);
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(lock.path, "utf8")).toMatch(new RegExp(`^${process.pid}\\n`));
    lock.release();
    expect(fs.existsSync(lock.path)).toBe(false);
  });
});
