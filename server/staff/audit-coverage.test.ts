import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/db/client";
import { auditLog, user } from "#server/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { AUDIT_ACTIONS, COMMAND_LINE, type AuditAction } from "./audit-log";
import { grantAdmin, revokeAdmin } from "./roles";
import type { SandboxProvider } from "#server/payments/sandbox/provider";
import { refundAsStaff } from "#server/payments/staff-refund";
import { receivePaymentEvent } from "#server/payment-webhooks/intake";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";

/**
 * Every back-office action writes exactly one audit row. `perform` does the action once, the way
 * its screen or command does, on a fresh subject it makes itself; the record type forces a case
 * for every name in AUDIT_ACTIONS, so a new action cannot be added without one.
 */
type Case = { perform(db: Db, n: number, sandbox: SandboxProvider): Promise<void> };

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
  "payment.refund": {
    // A sandbox payment, paid and recorded, refunded from its back-office page.
    async perform(db, n, sandbox) {
      await account(db, `refunder-${n}`);
      const payee = await seedPayee(db, sandbox);
      const paid = await payAtSandbox(db, sandbox, payee, await seedSession(db, payee));
      await receivePaymentEvent(db, events.checkout("checkout.completed", paid), webhookDeps(db, sandbox));
      const staff = { id: `refunder-${n}`, actor: { kind: "staff" as const, id: `refunder-${n}`, email: `refunder-${n}@audit.example` } };
      const result = await refundAsStaff(db, sandbox, { staff, sessionId: paid.sessionId, reason: "The sponsor paid twice by mistake." });
      if (result.kind !== "SUCCESS") throw new Error(result.message);
    },
  },
};

describe.each(ENGINES)("the audit log on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);

  it.each(AUDIT_ACTIONS.map((action, n) => [action, n] as const))("%s writes exactly one row", async (action, n) => {
    const rowsBefore = await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog);
    await CASES[action].perform(database.db, n, sandbox.provider);
    const added = (await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog)).filter((row) => !rowsBefore.some((old) => old.id === row.id));
    expect(added.map((row) => row.action)).toEqual([action]);
  });
});
