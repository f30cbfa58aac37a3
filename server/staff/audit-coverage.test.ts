import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/db/client";
import { accountSuspensions, auditLog, tags, user } from "#server/db/schema";
import { addCompany, editCompany, setCompanyRetired } from "#server/sponsor-directory/curation";
import { applyImport, previewImport } from "#server/sponsor-directory/company-import";
import { companyFlat, csvOf, insertCompany } from "#tests/support/sponsor-companies";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { AUDIT_ACTIONS, COMMAND_LINE, type Actor, type AuditAction } from "./audit-log";
import { grantAdmin, revokeAdmin } from "./roles";
import { liftSuspension, suspendAccount } from "./suspensions";
import { notificationDeps } from "#tests/support/payments";

/**
 * Every back-office action writes exactly one audit row. `perform` does the action once, the way
 * its screen or command does, on a fresh subject it makes itself; the record type forces a case
 * for every name in AUDIT_ACTIONS, so a new action cannot be added without one.
 */
type Case = { perform(db: Db, n: number): Promise<void> };

async function account(db: Db, id: string): Promise<string> {
  await db.insert(user).values({ id, name: id, email: `${id}@audit.example`, emailVerified: true });
  return `${id}@audit.example`;
}

const STAFF: Actor = { kind: "staff", id: "audit-staff", email: "staff@audit.example" };
/** A company the way the seed writes one: straight into the table, no audit row of its own. */
async function sponsorCompany(db: Db, n: number): Promise<string> {
  await db.insert(tags).values({ kind: "external_sponsor", name: "tech" }).onConflictDoNothing();
  return insertCompany(db, `audit_co_${n}`, companyFlat(`Audit Co ${n}`));
}

const CASES: Record<AuditAction, Case> = {
  "staff.grant": {
    perform: async (db, n) => void (await grantAdmin(db, await account(db, `grant-${n}`), COMMAND_LINE)),
  },
  "staff.revoke": {
    async perform(db, n) {
      const email = await account(db, `revoke-${n}`);
      await db.update(user).set({ role: "admin" }).where(eq(user.email, email));
      await revokeAdmin(db, email, COMMAND_LINE);
    },
  },
  "account.suspend": {
    async perform(db, n) {
      await account(db, `suspend-${n}`);
      await suspendAccount(db, notificationDeps(db), STAFF, { uid: `suspend-${n}`, reason: "spam", until: "" });
    },
  },
  "account.lift": {
    async perform(db, n) {
      await account(db, `lift-${n}`);
      await db.insert(accountSuspensions).values({ uid: `lift-${n}`, suspendedByLabel: "earlier", reason: "spam" });
      await db.update(user).set({ disabled: true }).where(eq(user.id, `lift-${n}`));
      await liftSuspension(db, notificationDeps(db), STAFF, { uid: `lift-${n}`, reason: "appeal upheld" });
    },
  },
  "sponsor_company.add": {
    async perform(db, n) {
      await db.insert(tags).values({ kind: "external_sponsor", name: "tech" }).onConflictDoNothing();
      expect(await addCompany(db, COMMAND_LINE, companyFlat(`Added Co ${n}`))).toMatchObject({ kind: "SUCCESS" });
    },
  },
  "sponsor_company.edit": {
    async perform(db, n) {
      const id = await sponsorCompany(db, n);
      await db.insert(tags).values({ kind: "external_sponsor", name: "audio" }).onConflictDoNothing();
      const edited = await editCompany(db, COMMAND_LINE, id, { ...companyFlat(`Audit Co ${n}`), tags: "tech; audio" });
      expect(edited).toMatchObject({ kind: "SUCCESS", changed: true });
    },
  },
  "sponsor_company.retire": {
    async perform(db, n) {
      const id = await sponsorCompany(db, n);
      expect(await setCompanyRetired(db, COMMAND_LINE, id, true)).toMatchObject({ kind: "SUCCESS", changed: true });
    },
  },
  "sponsor_company.import": {
    async perform(db, n) {
      await db.insert(tags).values({ kind: "external_sponsor", name: "tech" }).onConflictDoNothing();
      const csv = csvOf([{ ...companyFlat(`Imported Co ${n}`), id: "", added: "" }]);
      const preview = await previewImport(db, csv);
      if (preview.kind === "ERROR") throw new Error(preview.message);
      expect(await applyImport(db, COMMAND_LINE, csv, preview.plan.fingerprint)).toMatchObject({ kind: "SUCCESS", added: 1 });
    },
  },
};

describe.each(ENGINES)("the audit log on %s", (engine) => {
  const database = migratedDatabase(engine);

  it.each(AUDIT_ACTIONS.map((action, n) => [action, n] as const))("%s writes exactly one row", async (action, n) => {
    const rowsBefore = await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog);
    await CASES[action].perform(database.db, n);
    const added = (await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog)).filter((row) => !rowsBefore.some((old) => old.id === row.id));
    expect(added.map((row) => row.action)).toEqual([action]);
  });
});
