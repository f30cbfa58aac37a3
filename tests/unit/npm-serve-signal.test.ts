import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { freePort } from "#tests/support/server-process";
import { buildServerIfMissing } from "#tests/support/built-server";

/**
 * A process manager (systemd, a container runtime, a terminal's Ctrl-C) signals the process it
 * started: `npm run serve`, here. npm hands SIGTERM to its script, and the script `exec`s the
 * server, so the server itself gets the signal and drains: without that, npm would go and leave
 * the server running, undrained.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

beforeAll(() => {
  buildServerIfMissing();
});

it("SIGTERM to `npm run serve` reaches the server, which drains, closes its database and exits 0", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-npm-serve-"));
  const port = await freePort();
  const npm = spawn("npm", ["run", "--silent", "serve"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", DOTENV: "off", LOG_LEVEL: "info", PAYMENT_PROVIDER: "sandbox" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  npm.stdout.on("data", (chunk) => (output += chunk));
  npm.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => npm.on("exit", (code) => resolve(code)));
  try {
    const deadline = Date.now() + 90_000;
    while (!output.includes("is running at")) {
      if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    npm.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("shutting down");
    expect(output).toContain("database closed; bye");
    // Nothing is left listening on the port.
    await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow();
  } finally {
    if (npm.exitCode === null) npm.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
