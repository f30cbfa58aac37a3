import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { moneyEvents, notifications } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { notificationDeps, seedPayee, seedSession, type Payee } from "#tests/support/payments";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";

describe.each(ENGINES)("recording a money fact on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let payee: Payee;
  beforeAll(async () => {
    payee = await seedPayee(database.db, sandbox.provider);
  });
  const notificationsOf = async (uid: string, kind: string) =>
    (await database.db.select({ kind: notifications.kind }).from(notifications).where(eq(notifications.uid, uid))).filter((n) => n.kind === kind);

  it("keeps the typed event and tells its people once per fact, however often it is reported", async () => {
    const db = database.db;
    const s = await seedSession(db, payee);
    const fact = { type: "payment.refunded", sessionId: s.sessionId, paymentIntentId: s.paymentIntentId, amount: 2500, currency: "usd" } as const;
    expect(await db.transaction((tx) => recordMoneyFact(tx, fact, notificationDeps(tx)))).toBe(true);
    expect(await db.transaction((tx) => recordMoneyFact(tx, fact, notificationDeps(tx)))).toBe(false);
    const rows = await db.select().from(moneyEvents).where(eq(moneyEvents.sessionId, s.sessionId));
    expect(rows).toMatchObject([{ type: "payment.refunded", key: `refund:${s.paymentIntentId}`, uid: null, payload: { sessionId: s.sessionId, amount: 2500, currency: "usd" } }]);
    expect(await notificationsOf(payee.uid, "refund-done")).toHaveLength(1);
  });

  it("leaves neither the event nor what it tells when the writer's transaction rolls back", async () => {
    const db = database.db;
    const before = (await notificationsOf(payee.uid, "payouts-enabled")).length;
    await expect(
      db.transaction(async (tx) => {
        await recordMoneyFact(tx, { type: "payouts.enabled", uid: payee.uid }, notificationDeps(tx));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await db.select().from(moneyEvents).where(eq(moneyEvents.uid, payee.uid))).toEqual([]);
    expect(await notificationsOf(payee.uid, "payouts-enabled")).toHaveLength(before);
  });
});
