import { expect, test } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";

// These start their own server processes; run them one at a time.
test.describe.configure({ mode: "serial" });

let dataDir: string;
const running: ServerProcess[] = [];

test.beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-e2e-life-"));
});
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a second process on the same data folder fails at once with a clear message", async () => {
  const first = await startServerProcess({ DATA_DIR: dataDir });
  running.push(first);
  const started = Date.now();
  const second = await startServerProcess({ DATA_DIR: dataDir }, { expectExit: true });
  running.push(second);
  expect(await second.exited).toBe(1);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(second.output()).toContain(`is already in use by another Sponsorgrid process (pid ${first.child.pid})`);
  // The first one is unharmed.
  expect((await fetch(`${first.url}/about`)).status).toBe(200);
});

test("a port already in use stops the start with one clear line and a non-zero exit, and leaves the first server unharmed", async () => {
  const first = await startServerProcess({ DATA_DIR: dataDir });
  running.push(first);
  const port = new URL(first.url).port;
  const otherDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-e2e-life-"));
  try {
    const second = await startServerProcess({ DATA_DIR: otherDataDir, PORT: port }, { expectExit: true });
    running.push(second);
    expect(await second.exited).toBe(1);
    const errorLines = second.output().split("\n").filter((line) => line.startsWith("Cannot start"));
    expect(errorLines).toEqual([expect.stringMatching(new RegExp(`^Cannot start: Port ${port} is already in use: .*set PORT to a free port\\.$`))]);
    // No stack trace, and the second process closed its database before it went.
    expect(second.output()).not.toMatch(/^\s+at /m);
    expect(second.output()).not.toContain("EADDRINUSE");
    expect(second.output()).toContain("database closed");
  } finally {
    fs.rmSync(otherDataDir, { recursive: true, force: true });
  }
  expect((await fetch(`${first.url}/about`)).status).toBe(200);
});

test("after kill -9 the server restarts at once, even when the pid it left behind now runs something else", async ({ page }) => {
  const first = await startServerProcess({ DATA_DIR: dataDir });
  running.push(first);
  expect(await first.stop("SIGKILL")).toBe(null);
  const lockFile = path.join(dataDir, "sponsorgrid.lock");
  expect(fs.readFileSync(lockFile, "utf8")).toMatch(new RegExp(`^${first.child.pid}\\n`));
  // PID reuse, as after a container restart: the pid in the file is now a live, unrelated process.
  fs.writeFileSync(lockFile, `${process.pid}\n${os.hostname()}\n`);

  const started = Date.now();
  const second = await startServerProcess({ DATA_DIR: dataDir });
  running.push(second);
  expect(Date.now() - started).toBeLessThan(30_000);
  expect(fs.readFileSync(lockFile, "utf8")).toMatch(new RegExp(`^${second.child.pid}\\n`));
  await page.goto(`${second.url}/featured`);
  await expect(page.getByRole("heading", { name: "Maya Chen | Maya Makes" })).toBeVisible();
});

test("SIGTERM stops intake, closes the database and releases the lock; data survives the restart", async ({ page }) => {
  const first = await startServerProcess({ DATA_DIR: dataDir });
  running.push(first);
  expect(first.output()).toContain('"demoAdded":true');
  expect(await first.stop("SIGTERM")).toBe(0);
  expect(first.output()).toContain("database closed");
  // The lock file stays (deleting it would race a starter); released, it names no holder.
  expect(fs.readFileSync(path.join(dataDir, "sponsorgrid.lock"), "utf8")).toBe("");

  // What the server wrote is on disk; add a featured post of our own while it is down.
  const db = new PGlite(path.join(dataDir, "pglite"));
  const seeded = await db.query<{ n: number }>("select count(*)::int as n from opportunity_posts");
  expect(seeded.rows[0]!.n).toBe(48);
  await db.query(
    `insert into opportunity_posts (id, title, description, poster_uid, featured_at)
     values ('1000000000_survivor', 'Survives a restart', 'Written while the server was stopped.', 'demo-sponsor', now() + interval '1 day')`,
  );
  await db.query("CHECKPOINT");
  await db.close();

  const second = await startServerProcess({ DATA_DIR: dataDir });
  running.push(second);
  expect(second.output()).toContain('"demoAdded":false');
  await page.goto(`${second.url}/featured`);
  await expect(page.getByRole("heading", { name: "Survives a restart" })).toBeVisible();
  expect(await second.stop("SIGINT")).toBe(0);
});

test("a bad setting stops the start with a message naming the variable", async () => {
  const server = await startServerProcess({ DATA_DIR: dataDir, SUPPORT_EMAIL: "not-an-email" }, { expectExit: true });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("SUPPORT_EMAIL must be an email address");
});

test("production on the embedded database and a public origin without Stripe keys refuses to start unless the sandbox is chosen outright", async () => {
  const server = await startServerProcess({ DATA_DIR: dataDir, PAYMENT_PROVIDER: "", PUBLIC_ORIGIN: "https://sponsorgrid.example", BIO_ORIGIN: "https://bio.sponsorgrid.example" }, { expectExit: true });
  expect(await server.exited).toBe(1);
  const lines = server.output().split("\n").filter((line) => line.includes("Cannot start"));
  expect(lines).toEqual([expect.stringContaining("PAYMENT_PROVIDER needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET in production on https://sponsorgrid.example, or PAYMENT_PROVIDER=sandbox")]);
  expect(server.output()).not.toMatch(/^\s+at /m);
});

test("starts on an empty PostgreSQL database, migrating and seeding it", async ({ page }) => {
  test.skip(!process.env.DATABASE_URL, "DATABASE_URL is not set: PostgreSQL runs are covered in CI");
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `sg_e2e_${Date.now()}`;
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      SESSION_SECRET: "e2e-secret-that-is-at-least-32-characters",
    });
    running.push(server);
    expect(server.output()).toContain('"engine":"postgres"');
    await page.goto(`${server.url}/featured`);
    await expect(page.getByRole("heading", { name: "Maya Chen | Maya Makes" })).toBeVisible();
    expect(await server.stop()).toBe(0);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

test("in production the mailbox does not exist, even to a same-host proxy that sends only Host and X-Forwarded-Proto", async ({ request }) => {
  // No SMTP_URL, no DEV_MAILBOX: mail stays in the outbox, and nothing on the web shows it.
  const server = await startServerProcess({ DATA_DIR: dataDir });
  running.push(server);
  const reset = await request.post(`${server.url}/signin`, { form: { intent: "reset", email: "maya@demo.sponsorgrid.example" } });
  expect(reset.status()).toBe(200);
  const host = new URL(server.url).host;
  const variants: Record<string, string>[] = [{ Host: host, "X-Forwarded-Proto": "https" }, { Host: host }, {}];
  for (const headers of variants) {
    for (const path of ["/dev/mailbox", "/dev/mailbox/1"]) {
      const response = await request.get(`${server.url}${path}`, { headers });
      expect(response.status(), `${path} ${JSON.stringify(headers)}`).toBe(404);
      expect(await response.text()).not.toContain("reset-password?token=");
    }
  }
  const warning = server.output().split("\n").find((line) => line.includes("SMTP_URL is not set"));
  expect(JSON.parse(warning!)).toMatchObject({ level: 40, msg: expect.stringContaining("only with DEV_MAILBOX=on") });
});

test("without SMTP and with DEV_MAILBOX=on, mail waits in the outbox at /dev/mailbox for this machine only, and Google stays hidden", async ({ page, request }) => {
  const server = await startServerProcess({ DATA_DIR: dataDir, TRUST_PROXY: "1", DEV_MAILBOX: "on" });
  running.push(server);
  await page.goto(`${server.url}/signin`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue with Google" })).toHaveCount(0);

  await page.getByLabel("Email").fill("maya@demo.sponsorgrid.example");
  await page.getByRole("button", { name: "send me a reset link" }).click();
  await expect(page.getByText("we've sent it a link")).toBeVisible();
  // Production: the link (a key to the account) is never logged, and the start said loudly where mail goes.
  const logLine = server.output().split("\n").find((line) => line.includes("email stored in the outbox"));
  expect(logLine).toBeTruthy();
  expect(server.output()).not.toContain("/reset-password?token=");
  const warning = server.output().split("\n").find((line) => line.includes("SMTP_URL is not set"));
  expect(JSON.parse(warning!)).toMatchObject({ level: 40, msg: expect.stringContaining("only with DEV_MAILBOX=on") });
  expect(server.output()).toContain("DEV_MAILBOX is on in production");

  await page.goto(`${server.url}/dev/mailbox`);
  await page.getByRole("link", { name: /Reset your Sponsorgrid password/ }).click();
  const link = page.getByRole("link", { name: "Open the link in this email" });
  await expect(link).toHaveAttribute("href", /\/reset-password\?token=/);
  await link.click();
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // Opening the link is logged as a request, without the token.
  await expect.poll(() => server.output()).toContain("/reset-password?token=[redacted]");
  expect(server.output()).not.toMatch(/reset-password\?token=(?!\[redacted\])/);

  const fromElsewhere = await request.get(`${server.url}/dev/mailbox`, { headers: { "X-Forwarded-For": "203.0.113.50" } });
  expect(fromElsewhere.status()).toBe(404);
  // Even switched on, a same-host proxy that forwards no client address is not "this machine".
  const throughProxy = await request.get(`${server.url}/dev/mailbox`, { headers: { Host: new URL(server.url).host, "X-Forwarded-Proto": "https" } });
  expect(throughProxy.status()).toBe(404);
});
