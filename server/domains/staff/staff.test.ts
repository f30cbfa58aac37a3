import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { COMMAND_LINE, recordAudit } from "#server/platform/audit/audit-log";
import { grantAdmin, listStaff, revokeAdmin, staffStanding } from "./roles";

describe.each(ENGINES)("staff roles and the audit log on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const rowsAbout = (uid: string) => db().select().from(auditLog).where(eq(auditLog.subjectId, uid));

  it("grants and revokes the admin role by email, writing one audit row per change and none for a no-op", async () => {
    await db().insert(user).values({ id: "staff-1", name: "Sam Staff", email: "sam@staff.example", emailVerified: true });
    expect(await grantAdmin(db(), " SAM@staff.example ", COMMAND_LINE)).toEqual({ kind: "SUCCESS", changed: true });
    expect(await grantAdmin(db(), "sam@staff.example", COMMAND_LINE)).toEqual({ kind: "SUCCESS", changed: false });
    expect(await staffStanding(db(), "staff-1")).toEqual({ admin: true, twoFactorEnabled: false });
    expect((await listStaff(db())).map((member) => member.email)).toContain("sam@staff.example");
    expect(await revokeAdmin(db(), "sam@staff.example", COMMAND_LINE)).toEqual({ kind: "SUCCESS", changed: true });
    expect(await staffStanding(db(), "staff-1")).toEqual({ admin: false, twoFactorEnabled: false });
    const rows = await rowsAbout("staff-1");
    expect(rows.map((row) => ({ action: row.action, actor: row.actorLabel, before: row.before, after: row.after }))).toEqual([
      { action: "staff.grant", actor: "command line", before: { role: "user" }, after: { role: "admin" } },
      { action: "staff.revoke", actor: "command line", before: { role: "admin" }, after: { role: "user" } },
    ]);
  });

  it("refuses an email no account has", async () => {
    expect(await grantAdmin(db(), "nobody@staff.example", COMMAND_LINE)).toMatchObject({ kind: "ERROR", code: "not-found", reason: "NO_ACCOUNT" });
  });

  it("keeps the audit log append-only: the database itself refuses UPDATE, DELETE and TRUNCATE", async () => {
    await recordAudit(db(), { actor: { kind: "staff", id: "x", email: "x@staff.example" }, action: "staff.revoke", subject: { type: "user", id: "victim" }, reason: "spam" });
    // Drizzle wraps the database's error; its cause carries PostgreSQL's own message.
    const outcome = (attempt: Promise<unknown>) => attempt.then(
      () => "allowed",
      (error: Error & { cause?: Error }) => (error.cause ?? error).message,
    );
    expect(await outcome(db().update(auditLog).set({ reason: "nothing happened" }).where(eq(auditLog.subjectId, "victim")))).toMatch(/append-only: UPDATE is refused/);
    expect(await outcome(db().delete(auditLog).where(eq(auditLog.subjectId, "victim")))).toMatch(/append-only: DELETE is refused/);
    expect(await outcome(db().execute(sql`truncate audit_log`))).toMatch(/append-only: TRUNCATE is refused/);
    expect((await rowsAbout("victim")).map((row) => row.reason)).toEqual(["spam"]);
  });
});
