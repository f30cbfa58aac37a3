// Starting the built server (or any program that answers HTTP) for a benchmark: a free port,
// the program's output kept for error messages, and readiness by an HTTP probe, since the
// benchmarks run with LOG_LEVEL=warn and never see the "is running at" line.
import { spawn } from "node:child_process";
import net from "node:net";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free loopback port outside 3100-3200, which the end-to-end tests own. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => (port >= 3100 && port <= 3200 ? freePort().then(resolve, reject) : resolve(port)));
    });
    probe.on("error", reject);
  });
}

/** Resolves once `isReady()` is true; throws with the program's output if it exits or takes too long. */
export async function waitUntil(what, { child, output, isReady, timeoutMs = 180_000 }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what}: exited with ${child.exitCode}:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer in ${timeoutMs / 1000} s:\n${output()}`);
    try {
      if (await isReady()) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Spawns `command args` in `cwd` with `env` added to this process's environment, keeps what it
 * prints, and waits until `isReady(base)` (default: `/robots.txt` answers 200). `stop()` sends
 * SIGTERM, as an operator's restart would, and waits for the exit. `group`: the program starts
 * programs of its own (`npm run …`), and the signal goes to all of them.
 */
export async function startProgram({ command = process.execPath, args = ["server.js"], cwd, port, env = {}, isReady, timeoutMs, signal = "SIGTERM", group = false }) {
  // Benchmarks take no real payments: the sandbox, even where a run looks like production (PostgreSQL).
  const child = spawn(command, args, { cwd, env: { PAYMENT_PROVIDER: "sandbox", ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: group });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const base = `http://127.0.0.1:${port}`;
  const ready = isReady ?? (async () => (await fetch(`${base}/robots.txt`)).ok);
  await waitUntil(`${command} ${args.join(" ")}`, { child, output: () => output, isReady: () => ready(base), timeoutMs });
  return {
    base,
    pid: child.pid,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        if (group) process.kill(-child.pid, signal);
        else child.kill(signal);
      }
      await exited;
      // The group is gone once its last program has exited (a database closes after npm has).
      if (group) await waitUntil("the program group to exit", { output: () => output, isReady: () => !groupAlive(child.pid), timeoutMs: 30_000 });
    },
  };
}

/**
 * What a benchmark runs the built server with on `port`: production mode on the payment sandbox,
 * bound to loopback, a fixed session secret (no secret file in the data folder) and warn-level
 * logs (the per-request log line would be part of every measurement otherwise).
 */
export function builtServerEnv(port, { dataDir = "", databaseUrl = "" } = {}) {
  return {
    NODE_ENV: "production",
    PAYMENT_PROVIDER: "sandbox",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: "warn",
  };
}

/**
 * The built server of the checkout at `root` (`node server.js`, or `args`) on a free port, with
 * `env` (or `env(port)`) over builtServerEnv. Resolves with startProgram's handle and the port.
 */
export async function startBuiltServer({ root, dataDir, databaseUrl, env = {}, ...options }) {
  const port = await freePort();
  const extra = typeof env === "function" ? env(port) : env;
  const server = await startProgram({ ...options, cwd: root, port, env: { ...builtServerEnv(port, { dataDir, databaseUrl }), ...extra } });
  return { ...server, port };
}
