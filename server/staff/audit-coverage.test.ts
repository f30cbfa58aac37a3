import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/db/client";
import { auditLog, user } from "#server/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { AUDIT_ACTIONS, COMMAND_LINE, type AuditAction } from "./audit-log";
import { grantAdmin, revokeAdmin } from "./roles";
import { reconcile, yesterdayUtc } from "#server/reconciliation/run";

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
  "reconciliation.run": {
    async perform(db) {
      const provider = { name: "sandbox" as const, listBalanceTransactions: async () => [] };
      const result = await reconcile(db, provider, { period: yesterdayUtc(new Date()), actor: { kind: "scheduled-job", job: "reconcile-ledger" } });
      expect(result.kind).toBe("SUCCESS");
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
