import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Servers still running when this process ends are killed with it. A test that times out while a
 * server starts never gets it back to stop, and the orphan would go on using a core of a shared
 * machine (and its port) long after the run.
 */
const alive = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of alive) child.kill("SIGKILL");
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * Runs the built server (`node server.js`) as its own process, as `npm start` does, or with
 * `args` another entry (the development server: `--import tsx server/main/dev.ts`).
 */
export async function startServerProcess(env: Record<string, string>, options: { expectExit?: boolean; startTimeoutMs?: number; args?: string[] } = {}) {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, options.args ?? ["server.js"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", DATABASE_URL: "", PAYMENT_PROVIDER: "sandbox", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  alive.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      alive.delete(child);
      resolve(code);
    }),
  );

  const server: ServerProcess = {
    url: `http://localhost:${port}`,
    child,
    output: () => output,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.expectExit) return server;

  // A fresh embedded database migrates and seeds first: on two busy cores that can pass a minute.
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  while (!output.includes("is running at")) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`Server did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}
