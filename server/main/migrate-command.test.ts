import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { beforeAll, expect, it } from "vitest";
import { createEmptyDatabase } from "#tests/support/databases";
import { buildServerIfMissing } from "#tests/support/built-server";

/**
 * `node server.js migrate`: the migrations as a deploy step of their own (a Kubernetes Job), on
 * whichever database the server would use, run again harmlessly, and a clear word when asked wrong.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const migrate = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, ["server.js", "migrate", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: process.env.PATH, NODE_ENV: "production", DOTENV: "off", PAYMENT_PROVIDER: "sandbox", ...env },
  });

beforeAll(() => {
  buildServerIfMissing();
});

it("migrates an empty embedded database, and a second run changes nothing and succeeds", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-migrate-"));
  try {
    const first = migrate({ DATA_DIR: dataDir });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Migrations applied \(pglite\) in \d+\.\d s\.$/m);
    const again = migrate({ DATA_DIR: dataDir });
    expect(again.status, again.stderr).toBe(0);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

it.skipIf(!process.env.DATABASE_URL)("migrates an empty PostgreSQL database: every migration recorded", async () => {
  const database = await createEmptyDatabase("postgres");
  try {
    const done = migrate({ DATABASE_URL: database.url!, SESSION_SECRET: "migrate-test-session-secret-0123456789abcdef" });
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^Migrations applied \(postgres\)/m);
    const client = new pg.Client({ connectionString: database.url! });
    await client.connect();
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from drizzle."__drizzle_migrations"');
    await client.end();
    const journal = JSON.parse(fs.readFileSync(path.join(ROOT, "server/platform/db/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] };
    expect(rows[0]!.n).toBe(journal.entries.length);
  } finally {
    await database.dispose();
  }
}, 120_000);

it("says how to use it when given arguments, and what is wrong with a bad setting", () => {
  const wrong = migrate({}, "now");
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toMatch(/^Usage: node server\.js migrate/);
  const bad = migrate({ DATABASE_URL: "mysql://nope" });
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/^Cannot migrate: .*DATABASE_URL/);
});
