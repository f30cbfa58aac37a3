import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { accountSuspensions, auditLog, bioPages, opportunityPosts, tags, user } from "#server/platform/db/schema";
import { addCompany, editCompany, setCompanyRetired } from "#server/domains/sponsor-directory/curation";
import { applyImport, previewImport } from "#server/domains/sponsor-directory/company-import";
import { companyFlat, csvOf, insertCompany } from "#tests/support/sponsor-companies";
import { resolveReports } from "#server/domains/moderation/queue";
import { submitReport } from "#server/domains/moderation/report";
import { removeContent, restoreContent } from "#server/domains/moderation/takedown";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { AUDIT_ACTIONS, COMMAND_LINE, type Actor, type AuditAction } from "#server/platform/audit/audit-log";
import { grantAdmin, revokeAdmin } from "./roles";
import { liftSuspension, suspendAccount } from "./suspensions";
import { reconcile, yesterdayUtc } from "#server/features/reconciliation/run";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { refundAsStaff } from "#server/domains/payments/refunds/staff-refund";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { events, notificationDeps, payAtSandbox, seedPayee, seedSession, webhookDeps } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { fundedDeal } from "#tests/support/deals";
import { moveDeal } from "#server/domains/deals/act";
import { decideDispute } from "#server/domains/deals/disputes";

/**
 * Every back-office action writes exactly one audit row. `perform` does the action once, the way
 * its screen or command does, on a fresh subject it makes itself; the record type forces a case
 * for every name in AUDIT_ACTIONS, so a new action cannot be added without one.
 */
type Case = {
  /** Makes what the action needs (its own audit rows, if any, are not counted). */
  setup?(db: Db, n: number, sandbox: SandboxProvider): Promise<string>;
  perform(db: Db, n: number, prepared: string, sandbox: SandboxProvider): Promise<void>;
};

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

async function bioPage(db: Db, id: string): Promise<string> {
  await account(db, `owner-${id}`);
  await db.insert(bioPages).values({ id, uid: `owner-${id}`, customEnding: id, name: id });
  return id;
}

async function opportunity(db: Db, n: number): Promise<string> {
  const id = `${String(1000000000 + n)}_audit${n}`;
  await account(db, `poster-${n}`);
  await db.insert(opportunityPosts).values({ id, title: `Post ${n}`, description: "A post.", posterUid: `poster-${n}` });
  return id;
}

async function removedPage(db: Db, n: number): Promise<string> {
  const id = await bioPage(db, `restore_page_${n}`);
  await removeContent(db, notificationDeps(db), STAFF, { type: "bio_page", id }, "Setting up");
  return id;
}

const CASES: Record<AuditAction, Case> = {
  "report.outcome": {
    async perform(db, n) {
      const id = await opportunity(db, n);
      await submitReport(db, { type: "opportunity", address: id, reason: "Spam", note: "", email: "" }, { ip: "203.0.113.1", account: null });
      await resolveReports(db, notificationDeps(db), STAFF, { type: "opportunity", id }, "dismiss", "Within the rules");
    },
  },
  "bio_page.remove": {
    perform: async (db, n) => void (await removeContent(db, notificationDeps(db), STAFF, { type: "bio_page", id: await bioPage(db, `remove_page_${n}`) }, "Scam")),
  },
  "bio_page.restore": {
    setup: removedPage,
    perform: async (db, _n, id) => void (await restoreContent(db, notificationDeps(db), STAFF, { type: "bio_page", id }, "Appeal upheld")),
  },
  "opportunity.remove": {
    perform: async (db, n) => void (await removeContent(db, notificationDeps(db), STAFF, { type: "opportunity", id: await opportunity(db, n) }, "Spam")),
  },
  "opportunity.restore": {
    async setup(db, n) {
      const id = await opportunity(db, n);
      await removeContent(db, notificationDeps(db), STAFF, { type: "opportunity", id }, "Spam");
      return id;
    },
    perform: async (db, _n, id) => void (await restoreContent(db, notificationDeps(db), STAFF, { type: "opportunity", id }, "Appeal upheld")),
  },
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
  "reconciliation.run": {
    async perform(db) {
      const provider = { name: "sandbox" as const, listBalanceTransactions: async () => [] };
      const result = await reconcile(db, provider, { period: yesterdayUtc(new Date()), actor: { kind: "scheduled-job", job: "reconcile-ledger" } });
      expect(result.kind).toBe("SUCCESS");
    },
  },
  "payment.refund": {
    // A sandbox payment, paid and recorded, refunded from its back-office page.
    async perform(db, n, _prepared, sandbox) {
      await account(db, `refunder-${n}`);
      const payee = await seedPayee(db, sandbox);
      const paid = await payAtSandbox(db, sandbox, payee, await seedSession(db, payee));
      await receivePaymentEvent(db, events.checkout("checkout.completed", paid), webhookDeps(db, sandbox));
      const staff = { id: `refunder-${n}`, actor: { kind: "staff" as const, id: `refunder-${n}`, email: `refunder-${n}@audit.example` } };
      const result = await refundAsStaff(db, sandbox, { staff, sessionId: paid.sessionId, reason: "The sponsor paid twice by mistake." });
      if (result.kind !== "SUCCESS") throw new Error(result.message);
    },
  },
  "deal.dispute_decide": {
    // A booked deal the sponsor disputed, decided from its back-office page.
    async setup(db, _n, sandbox) {
      const deal = await fundedDeal(db, sandbox, await seedPayee(db, sandbox), 30_000);
      const opened = await moveDeal(db, notificationDeps(db), { uid: deal.sponsorUid, dealId: deal.dealId, move: { action: "dispute", reason: "Never delivered" }, network: "203.0.113.1" });
      if (opened.kind !== "SUCCESS") throw new Error(opened.message);
      return deal.dealId;
    },
    async perform(db, _n, dealId) {
      const decided = await decideDispute(db, notificationDeps(db), STAFF, { dealId, decision: "refund", reason: "No work was handed in." });
      if (decided.kind !== "SUCCESS") throw new Error(decided.message);
    },
  },
};

describe.each(ENGINES)("the audit log on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);

  it.each(AUDIT_ACTIONS.map((action, n) => [action, n] as const))("%s writes exactly one row", async (action, n) => {
    const prepared = (await CASES[action].setup?.(database.db, n, sandbox.provider)) ?? "";
    const rowsBefore = await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog);
    await CASES[action].perform(database.db, n, prepared, sandbox.provider);
    const added = (await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog)).filter((row) => !rowsBefore.some((old) => old.id === row.id));
    expect(added.map((row) => row.action)).toEqual([action]);
  });
});
