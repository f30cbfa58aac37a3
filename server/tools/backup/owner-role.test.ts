import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAppRole } from "#server/platform/db/app-role";
import { createMigratedDatabase, type TestDatabase } from "#tests/support/databases";
import { onServer, withDatabase } from "#tests/support/database-snapshots";
import { createBackup, restoreBackup } from "./backup";

/**
 * With two roles (ADR 0060) a backup and a restore connect as the tables' owner
 * (MIGRATION_DATABASE_URL): the app's role cannot read the migration records' sequence, and a
 * restore it ran would leave it owning the tables — and so able to rewrite the audit log.
 */
const adminUrl = process.env.DATABASE_URL;

describe.skipIf(!adminUrl)("backups with the app's own PostgreSQL role", () => {
  const role = `sg_app_${randomBytes(4).toString("hex")}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-owner-backup-"));
  // The restore's target has no connection open, as a restore requires.
  const targetName = `sg_owner_restore_${randomBytes(4).toString("hex")}`;
  const targetUrl = adminUrl ? withDatabase(adminUrl, targetName) : "";
  let source: TestDatabase;
  const as = (url: string, user: string) => Object.assign(new URL(url), { username: user, password: "" }).toString();

  beforeAll(async () => {
    source = await createMigratedDatabase("postgres");
    await onServer(adminUrl!, (client) => client.query(`create database ${targetName}`));
    await onServer(adminUrl!, (client) => client.query(`create role ${role} login`));
    await grantAppRole(source.url!, role);
  });
  afterAll(async () => {
    await source?.dispose();
    await onServer(adminUrl!, (client) => client.query(`drop database if exists ${targetName} with (force)`));
    await onServer(adminUrl!, (client) => client.query(`drop role if exists ${role}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("as the app's role alone, is refused with what to set", async () => {
    const config = { DATA_DIR: dataDir, DATABASE_URL: as(source.url!, role), SESSION_SECRET: undefined };
    await expect(createBackup(config, { dir: dataDir })).rejects.toThrow(/permission denied.*set MIGRATION_DATABASE_URL to the owner's connection/s);
  });

  it("as the owner, backs up and restores, the tables the owner's and the app's role granted again", async () => {
    const backup = await createBackup({ DATA_DIR: dataDir, DATABASE_URL: as(source.url!, role), MIGRATION_DATABASE_URL: source.url!, SESSION_SECRET: undefined }, { dir: dataDir });
    const done = await restoreBackup({ DATA_DIR: dataDir, DATABASE_URL: as(targetUrl, role), MIGRATION_DATABASE_URL: targetUrl, SESSION_SECRET: undefined }, backup.file);
    expect(done.notes).toContain(`Granted the app's role ${role} its reads and writes (audit_log: insert and select only).`);
    const app = new pg.Client({ connectionString: as(targetUrl, role) });
    await app.connect();
    try {
      const owned = await app.query<{ n: number }>("select count(*)::int as n from pg_tables where schemaname = 'public' and tableowner = current_user");
      expect(owned.rows[0]!.n).toBe(0);
      await app.query("select count(*) from drizzle.__drizzle_migrations");
      await app.query("insert into audit_log (actor_label, action, subject_type, subject_id) values ('command line', 'drill', 'user', 'u1')");
      await expect(app.query("delete from audit_log")).rejects.toThrow(/permission denied/);
    } finally {
      await app.end();
    }
  }, 60_000);
});
