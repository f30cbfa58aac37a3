import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ensurePostgresTemplate, onServer as onDatabase, withDatabase } from "#tests/support/database-snapshots";
import { E2E_PORTS } from "#tests/support/e2e-ports";
import { E2E_TEST_ROUTES_SECRET } from "#tests/support/e2e-secret";
import { freePort } from "#tests/support/server-process";

/**
 * Two app processes (`node server.js`, the built server) on one fresh PostgreSQL database behind
 * Debian's nginx, all started here as children of the test: the set-up of ADR 0045. nginx
 * balances the app host and the bio host round robin, and has one extra port per process that
 * reaches only it (a tab that must be served by a given process). Every answer names the process
 * that gave it in `X-Upstream`.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const TEMPLATE = path.join(import.meta.dirname, "cluster-nginx.conf.template");

export type AppProcess = {
  port: number;
  /** How nginx names it in X-Upstream. */
  upstream: string;
  /** nginx's port that reaches only this process, as an origin on the app's host name. */
  pinnedOrigin: string;
  child: ChildProcess;
  output(): string;
};

export type Cluster = {
  /** PUBLIC_ORIGIN: nginx, balanced. */
  origin: string;
  /** BIO_ORIGIN: nginx, balanced. */
  bioOrigin: string;
  bioPort: number;
  apps: [AppProcess, AppProcess];
  databaseUrl: string;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  /** SIGKILL: no shutdown, no drain, nothing written on the way out. Resolves once it is gone. */
  kill(index: 0 | 1): Promise<void>;
  /** Starts a killed process again on its port and waits until it is ready. */
  restart(index: 0 | 1): Promise<void>;
  stop(): Promise<void>;
};

export function clusterDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(
      "The cluster spec runs two app processes on one PostgreSQL and needs DATABASE_URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/postgres; it creates and drops a database of its own there). " +
        "npm test runs it only when DATABASE_URL is set.",
    );
  }
  return url;
}

export async function startCluster(): Promise<Cluster> {
  const adminUrl = clusterDatabaseUrl();
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) throw new Error("No build: run `npm run build` first.");
  const name = `sg_cluster_${randomBytes(5).toString("hex")}`;
  const databaseUrl = withDatabase(adminUrl, name);
  // A copy of the migrated template (tests/support/database-snapshots.ts): the processes find
  // every migration applied, as after a deploy, instead of racing to migrate from empty.
  const template = await ensurePostgresTemplate(adminUrl);
  await onDatabase(adminUrl, (client) => client.query(`create database ${name} template ${template}`));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-cluster-"));
  const [publicPort, bioPort, pinA, pinB, portA, portB] = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const origin = `http://localhost:${publicPort}`;
  const sessionSecret = randomBytes(32).toString("base64url");
  const bioOrigin = `http://bio.localhost:${bioPort}`;
  const env = (port: number, index: number): Record<string, string> => ({
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(dir, `data-${index}`),
    // Every process must sign and read the same cookies, captcha challenges and sandbox events.
    SESSION_SECRET: sessionSecret,
    PUBLIC_ORIGIN: origin,
    BIO_ORIGIN: bioOrigin,
    TRUST_PROXY: "2",
    PAYMENT_PROVIDER: "sandbox",
    ENABLE_TEST_ROUTES: "true",
    TEST_ROUTES_SECRET: E2E_TEST_ROUTES_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
    SUPPORT_EMAIL: "help@sponsorgrid.example",
    ALTCHA_MAX_NUMBER: "1000",
    LOG_LEVEL: "warn",
    // A small per-key API budget, so that the spec can show it is one budget across processes.
    API_RATE_LIMIT_PER_MINUTE: "10",
    // The spec's webhook receiver listens on loopback.
    WEBHOOK_PRIVATE_TARGETS: "allow",
  });
  const apps: AppProcess[] = [];
  const ports = [portA!, portB!];
  const pins = [pinA!, pinB!];
  const spawnApp = (index: number): AppProcess => {
    const port = ports[index]!;
    const child = spawn(process.execPath, ["server.js"], { cwd: ROOT, env: env(port, index), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    return { port, upstream: `127.0.0.1:${port}`, pinnedOrigin: `http://localhost:${pins[index]}`, child, output: () => output };
  };

  let nginx: ChildProcess | undefined;
  const stopAll = async () => {
    await Promise.all(apps.map((app) => endChild(app.child, "SIGTERM")));
    await endChild(nginx, "SIGQUIT");
    await onDatabase(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    // One after the other: the first seeds the database, migrated as the template left it.
    for (const index of [0, 1]) {
      apps.push(spawnApp(index));
      await waitUntilReady(apps[index]!);
    }
    const ipv6 = await hasIpv6Loopback();
    const listen = (port: number) => `listen 127.0.0.1:${port};${ipv6 ? ` listen [::1]:${port};` : ""}`;
    const config = fs
      .readFileSync(TEMPLATE, "utf8")
      // Run as root (CI), nginx's workers would drop to `nobody`, who cannot write the temp folder.
      .replace("{{user}}", process.getuid?.() === 0 ? "user root;" : "")
      .replaceAll("{{dir}}", dir)
      .replaceAll("{{appA}}", String(portA))
      .replaceAll("{{appB}}", String(portB))
      .replaceAll("{{public}}", String(publicPort))
      .replace("{{listen_app}}", listen(publicPort!))
      .replace("{{listen_bio}}", listen(bioPort!))
      .replace("{{listen_pin_a}}", listen(pinA!))
      .replace("{{listen_pin_b}}", listen(pinB!));
    fs.writeFileSync(path.join(dir, "nginx.conf"), config);
    nginx = spawn(NGINX, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
    let nginxOutput = "";
    nginx.stderr!.on("data", (chunk) => (nginxOutput += chunk));
    await waitFor(async () => {
      if (nginx!.exitCode !== null) throw new Error(`nginx exited with ${nginx!.exitCode}:\n${nginxOutput}\n${readIfThere(path.join(dir, "error.log"))}`);
      return (await fetch(`${origin}/`).catch(() => null))?.status === 200;
    }, 15_000, "nginx did not answer");
  } catch (error) {
    await stopAll();
    throw error;
  }

  return {
    origin,
    bioOrigin,
    bioPort: bioPort!,
    apps: apps as [AppProcess, AppProcess],
    databaseUrl,
    query: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => onDatabase(databaseUrl, async (client) => (await client.query<T>(sql, params)).rows),
    async kill(index) {
      await endChild(apps[index]!.child, "SIGKILL");
    },
    async restart(index) {
      apps[index] = spawnApp(index);
      await waitUntilReady(apps[index]!);
    },
    stop: stopAll,
  };
}

/**
 * Ready as a load balancer or Kubernetes would ask: `/readyz` answers 200.
 * Fallback while /readyz is not in this build (it answers 404 then): the home page answering 200.
 */
async function waitUntilReady(app: AppProcess): Promise<void> {
  const base = `http://localhost:${app.port}`;
  await waitFor(async () => {
    if (app.child.exitCode !== null) throw new Error(`The app on ${app.port} exited with ${app.child.exitCode}:\n${app.output()}`);
    const ready = await fetch(`${base}/readyz`).catch(() => null);
    if (ready?.status === 404) return (await fetch(`${base}/`).catch(() => null))?.status === 200;
    return ready?.status === 200;
  }, 120_000, `The app on ${app.port} did not turn ready:\n${app.output()}`);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function endChild(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Browsers may try ::1 for localhost first; nginx listens there too when this machine has it. */
function hasIpv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(0, "::1", () => server.close(() => resolve(true)));
  });
}

function readIfThere(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}
