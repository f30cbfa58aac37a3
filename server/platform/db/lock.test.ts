import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "./lock";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
const children: ChildProcess[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-lock-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  children.splice(0).forEach((child) => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"));
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

/**
 * Another process that takes the lock the way the server does and keeps it until killed. It prints
 * "locked" or "refused: <message>". `startAt` (epoch ms) makes several of them try at the same moment.
 */
function lockingProcess(dir: string, startAt = 0) {
  const script = `
    const { acquireDataDirLock } = await import("#server/platform/db/lock");
    while (Date.now() < ${startAt});
    try { acquireDataDirLock(${JSON.stringify(dir)}); console.log("locked"); }
    catch (error) { console.log("refused: " + error.message); }
    setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const answer = new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("\n")) resolve(output.trim());
    });
    child.on("exit", (code) => reject(new Error(`locking process exited with ${code} before answering: ${output}`)));
  });
  return { child, answer };
}

function writeLeftover(dir: string, pid: number) {
  fs.writeFileSync(path.join(dir, "sponsorgrid.lock"), `${pid}\n${os.hostname()}\n2026-11-01T00:00:00.000Z\n`);
}

describe("acquireDataDirLock", () => {
  it("refuses a second holder in the same process with a clear message, and frees the folder on release", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrowError(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrowError(`already in use by another Sponsorgrid process (pid ${process.pid})`);
    lock.release();
    lock.release(); // twice is harmless
    acquireDataDirLock(dir).release();
  });

  it("refuses while another live process holds the folder, naming that process", async () => {
    const dir = tempDir();
    const holder = lockingProcess(dir);
    expect(await holder.answer).toBe("locked");
    let refusal: unknown;
    try {
      acquireDataDirLock(dir);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as DataDirLockedError).holderPid).toBe(holder.child.pid);
    expect((refusal as Error).message).toContain(`already in use by another Sponsorgrid process (pid ${holder.child.pid})`);
  });

  it("is free again the moment its holder is killed with SIGKILL", async () => {
    const dir = tempDir();
    const holder = lockingProcess(dir);
    expect(await holder.answer).toBe("locked");
    const gone = new Promise((resolve) => holder.child.on("exit", resolve));
    holder.child.kill("SIGKILL");
    await gone;
    const lock = acquireDataDirLock(dir); // no waiting, no clean-up by hand
    expect(fs.readFileSync(lock.path, "utf8")).toMatch(new RegExp(`^${process.pid}\\n`));
    lock.release();
  });

  it("is not blocked by a leftover naming a pid that now belongs to an unrelated live process", () => {
    const dir = tempDir();
    // The test runner's parent is alive and is no Sponsorgrid process: PID reuse, as it would look.
    writeLeftover(dir, process.ppid);
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(lock.path, "utf8")).toMatch(new RegExp(`^${process.pid}\\n`));
    lock.release();
  });

  it("is not blocked by a leftover naming its own pid, as after kill -9 of PID 1 in a container", () => {
    const dir = tempDir();
    writeLeftover(dir, process.pid);
    acquireDataDirLock(dir).release();
  });

  it("lets exactly one of several starters racing for a stale lock win", async () => {
    const dir = tempDir();
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.on("exit", resolve));
    writeLeftover(dir, dead.pid!);
    const startAt = Date.now() + 2_500; // after the four have loaded
    const answers = await Promise.all([1, 2, 3, 4].map(() => lockingProcess(dir, startAt).answer));
    expect(answers.filter((answer) => answer === "locked")).toHaveLength(1);
    expect(answers.filter((answer) => answer.startsWith("refused: ") && answer.includes("already in use by another Sponsorgrid process"))).toHaveLength(3);
  });
});
