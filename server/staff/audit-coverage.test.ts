import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/db/client";
import { auditLog, bioPages, opportunityPosts, user } from "#server/db/schema";
import { resolveReports } from "#server/moderation/queue";
import { submitReport } from "#server/moderation/report";
import { removeContent, restoreContent } from "#server/moderation/takedown";
import { notificationDeps } from "#tests/support/payments";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { AUDIT_ACTIONS, COMMAND_LINE, type Actor, type AuditAction } from "./audit-log";
import { grantAdmin, revokeAdmin } from "./roles";

/**
 * Every back-office action writes exactly one audit row. `perform` does the action once, the way
 * its screen or command does, on a fresh subject it makes itself; the record type forces a case
 * for every name in AUDIT_ACTIONS, so a new action cannot be added without one.
 */
type Case = {
  /** Makes what the action needs (its own audit rows, if any, are not counted). */
  setup?(db: Db, n: number): Promise<string>;
  perform(db: Db, n: number, prepared: string): Promise<void>;
};

async function account(db: Db, id: string): Promise<string> {
  await db.insert(user).values({ id, name: id, email: `${id}@audit.example`, emailVerified: true });
  return `${id}@audit.example`;
}

const STAFF: Actor = { kind: "staff", id: "staff-audit", email: "staff@audit.example" };

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
};

describe.each(ENGINES)("the audit log on %s", (engine) => {
  const database = migratedDatabase(engine);

  it.each(AUDIT_ACTIONS.map((action, n) => [action, n] as const))("%s writes exactly one row", async (action, n) => {
    const prepared = (await CASES[action].setup?.(database.db, n)) ?? "";
    const rowsBefore = await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog);
    await CASES[action].perform(database.db, n, prepared);
    const added = (await database.db.select({ id: auditLog.id, action: auditLog.action }).from(auditLog)).filter((row) => !rowsBefore.some((old) => old.id === row.id));
    expect(added.map((row) => row.action)).toEqual([action]);
  });
});
