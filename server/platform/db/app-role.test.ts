import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_LINE, recordAudit } from "#server/platform/audit/audit-log";
import { auditLog, user } from "#server/platform/db/schema";
import { createMigratedDatabase, type TestDatabase } from "#tests/support/databases";
import { onServer } from "#tests/support/database-snapshots";
import { startServerProcess } from "#tests/support/server-process";
import { openPostgres, type DatabaseHandle } from "./client";
import { grantAppRole } from "./app-role";
import { buildServerIfMissing } from "#tests/support/built-server";

/**
 * The audit log cannot be rewritten by the app: connected as its own role (granted by
 * grantAppRole, as the server does after migrating with MIGRATION_DATABASE_URL), it adds and reads
 * rows and does its everyday work, but cannot update, delete, truncate, or switch the triggers
 * off — that takes the tables' owner.
 */
const adminUrl = process.env.DATABASE_URL;

describe.skipIf(!adminUrl)("the app's own PostgreSQL role", () => {
  const role = `sg_app_${randomBytes(4).toString("hex")}`;
  let database: TestDatabase;
  let app: DatabaseHandle;
  let raw: pg.Client;

  beforeAll(async () => {
    database = await createMigratedDatabase("postgres");
    await onServer(adminUrl!, (client) => client.query(`create role ${role} login`));
    await grantAppRole(database.url!, role);
    const appUrl = new URL(database.url!);
    appUrl.username = role;
    appUrl.password = "";
    app = await openPostgres(appUrl.toString());
    raw = new pg.Client({ connectionString: appUrl.toString() });
    await raw.connect();
  });
  afterAll(async () => {
    await raw?.end();
    await app?.close();
    await database?.dispose();
    await onServer(adminUrl!, (client) => client.query(`drop role if exists ${role}`));
  });

  const refused = (statement: string) => raw.query(statement).then(
    () => "done",
    (error: { message: string }) => error.message,
  );

  it("adds audit rows and reads them, and does the app's everyday writes", async () => {
    await recordAudit(app.db, { actor: COMMAND_LINE, action: "account.suspend", subject: { type: "user", id: "u-role" }, reason: "drill" });
    expect(await app.db.select().from(auditLog)).toHaveLength(1);
    await app.db.insert(user).values({ id: "u-role", name: "Role test", email: "role@example.com" });
    await app.db.update(user).set({ name: "Renamed" });
    await app.db.delete(user);
  });

  it("cannot update, delete or truncate the audit log, nor switch its triggers off or drop them", async () => {
    expect(await refused("update audit_log set reason = 'rewritten'")).toMatch(/permission denied/);
    expect(await refused("delete from audit_log")).toMatch(/permission denied/);
    expect(await refused("truncate audit_log")).toMatch(/permission denied/);
    expect(await refused("alter table audit_log disable trigger all")).toMatch(/must be owner/);
    expect(await refused("drop trigger audit_log_no_update_or_delete on audit_log")).toMatch(/must be owner/);
    expect(await refused("alter table audit_log owner to current_user")).toMatch(/must be owner/);
    expect(await refused("drop table audit_log")).toMatch(/must be owner/);
    const [row] = (await raw.query<{ reason: string }>("select reason from audit_log")).rows;
    expect(row?.reason).toBe("drill");
  });

  it("refuses to grant a role that owns the tables: the two connections must be two roles", async () => {
    const ownerRole = decodeURIComponent(new URL(database.url!).username) || "postgres";
    await expect(grantAppRole(database.url!, ownerRole)).rejects.toThrow(/owns tables/);
  });

  it("the built server migrates as the owner, then serves as the app's role: ready, pages and sign-up pages work", async () => {
    buildServerIfMissing();
    const appUrl = new URL(database.url!);
    appUrl.username = role;
    const server = await startServerProcess({ DATABASE_URL: appUrl.toString(), MIGRATION_DATABASE_URL: database.url!, SESSION_SECRET: "app-role-test-session-secret-0123456789abcdef" });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${server.url}/app/opportunities`)).status).toBe(200);
      expect((await fetch(`${server.url}/signup`)).status).toBe(200);
      expect(server.output()).not.toMatch(/permission denied/);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
