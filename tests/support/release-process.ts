import { execFileSync, spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";

/**
 * Running a built release as the image does (tests/unit/release.test.ts): as a non-root user
 * (nobody, when the tests run as root, as CI does), from its own folder, with a PATH that holds
 * only what the image has — node, PostgreSQL's client tools, a shell and its basic tools — and
 * none of the checkout's (npm scripts, tsx).
 */
export const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const which = (name: string) => execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
const SETPRIV = asRoot ? which("setpriv") : "";

export type Env = Record<string, string>;

/** `command` as the release's user: nobody when this process is root. */
export function asServerUser(command: string[]): [string, string[]] {
  const all = asRoot ? [SETPRIV, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...command] : command;
  return [all[0]!, all.slice(1)];
}

/** A folder the release's user may write, as a volume mounted for it. */
export function writableDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  if (asRoot) fs.chownSync(dir, NOBODY, NOBODY);
  return dir;
}

/**
 * A folder of links to node and the few system tools the image has too: the release's whole PATH.
 * flock (util-linux) locks the embedded database's folder; sh, date and cp serve the backup schedule and its copy hook.
 */
export function imageToolsPath(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(process.execPath, path.join(dir, "node"));
  for (const tool of ["pg_dump", "pg_restore", "flock", "sh", "date", "cp"]) fs.symlinkSync(which(tool), path.join(dir, tool));
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

export type Answer = { status: number; type: string | undefined; body: Buffer };

// node:http, not fetch: fetch does not send a Host of our choosing, and the bio host is told apart by it.
export function request(port: number, pathname: string, host: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: pathname, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
  });
}

export type Release = { child: ChildProcess; port: number; log(): string; exited: Promise<number | null>; stop(): Promise<number | null> };

/** `node <flags> server.js` in `release` with exactly `env` (PORT included). */
export function startRelease(release: string, env: Env, flags: string[]): Release {
  const [file, args] = asServerUser([process.execPath, ...flags, "server.js"]);
  const child = spawn(file, args, { cwd: release, env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (chunk) => (log += chunk));
  child.stderr!.on("data", (chunk) => (log += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    port: Number(env.PORT),
    log: () => log,
    exited,
    stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Seconds from now until `readyPath` answers 200 with this Host; throws with the log if the process exits or the deadline passes. */
export async function secondsUntilReady(server: Release, host: string, deadlineMs: number, readyPath = "/readyz"): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`the server exited (${server.child.exitCode}) before it was ready:\n${server.log()}`);
    const status = await request(server.port, readyPath, host).then((res) => res.status, () => 0);
    if (status === 200) return (Date.now() - started) / 1000;
    if (Date.now() - started > deadlineMs) throw new Error(`${readyPath} never answered 200 (last: ${status}):\n${server.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A command of the release (`node server.js backup`, the schedule's script…) run to its end as the release's user. */
export function runInRelease(release: string, command: string[], env: Env): SpawnSyncReturns<string> {
  const [file, args] = asServerUser(command);
  return spawnSync(file, args, { cwd: release, env, encoding: "utf8", timeout: 5 * 60_000 });
}
