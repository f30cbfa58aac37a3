import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { user } from "#server/platform/db/schema";
import { refusal, success, type Result } from "#server/platform/errors";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";

export type StaffMember = { id: string; email: string; name: string; twoFactorEnabled: boolean };

const NO_ACCOUNT = (email: string) => refusal("not-found", "NO_ACCOUNT", `No account has the email ${email}.`);

async function setRole(db: Db, email: string, role: "admin" | "user", actor: Actor): Promise<Result<{ changed: boolean }>> {
  const address = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: user.id, role: user.role }).from(user).where(eq(user.email, address)).for("update");
    if (!row) return NO_ACCOUNT(address);
    if (row.role === role) return success({ changed: false });
    await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, row.id));
    await recordAudit(tx, { actor, action: role === "admin" ? "staff.grant" : "staff.revoke", subject: { type: "user", id: row.id }, before: { role: row.role }, after: { role } });
    return success({ changed: true });
  });
}

/** Makes the account staff. Only the command line calls it (npm run admin -- grant EMAIL), never a form. */
export function grantAdmin(db: Db, email: string, actor: Actor): Promise<Result<{ changed: boolean }>> {
  return setRole(db, email, "admin", actor);
}

export function revokeAdmin(db: Db, email: string, actor: Actor): Promise<Result<{ changed: boolean }>> {
  return setRole(db, email, "user", actor);
}

export async function listStaff(db: Db): Promise<StaffMember[]> {
  return db
    .select({ id: user.id, email: user.email, name: user.name, twoFactorEnabled: user.twoFactorEnabled })
    .from(user)
    .where(eq(user.role, "admin"))
    .orderBy(asc(user.email));
}

/** The staff side of an account: its role and whether an authenticator app guards it. */
export async function staffStanding(db: Db, uid: string): Promise<{ admin: boolean; twoFactorEnabled: boolean }> {
  const [row] = await db.select({ role: user.role, twoFactorEnabled: user.twoFactorEnabled, disabled: user.disabled }).from(user).where(eq(user.id, uid));
  return { admin: row?.role === "admin" && !row.disabled, twoFactorEnabled: row?.twoFactorEnabled ?? false };
}
