import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { seedPayee, seedSession, type Payee } from "#tests/support/payments";
import { deriveStatus, ownerTotals, recordDispute, recordPayment, recordRefund, sessionTotals } from "#server/domains/payments/ledger/ledger";
import { formatMoney } from "#server/domains/payments/ledger/money";

describe("session status from the ledger", () => {
  it.each([
    [[], "pending", "pending"],
    [[], "expired", "expired"],
    [[], "failed", "failed"],
    [["payment"], "pending", "completed"],
    [["payment"], "expired", "completed"],
    [["payment", "refund"], "completed", "refunded"],
    [["refund", "payment"], "completed", "refunded"],
    [["payment", "dispute"], "completed", "disputed"],
    [["payment", "refund", "dispute"], "refunded", "disputed"],
    [["payment", "dispute", "dispute_reversal"], "disputed", "completed"],
  ] as const)("%j (lifecycle %s) is %s", (kinds, lifecycle, status) => {
    expect(deriveStatus(kinds, lifecycle)).toBe(status);
  });
});

describe("money", () => {
  it("shows minor units with the currency's decimals", () => {
    expect(formatMoney(2500, "usd")).toBe("$25.00");
    expect(formatMoney(1_000_000, "usd")).toBe("$10,000.00");
    expect(formatMoney(500, "jpy")).toBe("¥500");
    expect(formatMoney(-1234, "eur")).toBe("-€12.34");
  });
});

describe.each(ENGINES)("ledger on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let payee: Payee;
  beforeAll(async () => {
    payee = await seedPayee(database.db, sandbox.provider);
  });

  it("writes each movement once and derives totals: gross, fees, the creator's net and the platform's margin", async () => {
    const db = database.db;
    const a = await seedSession(db, payee, { amount: 10_000, platformFee: 1_000 });
    const b = await seedSession(db, payee, { amount: 2_000, platformFee: 0 });
    const payA = { sessionId: a.sessionId, paymentIntentId: a.paymentIntentId, gross: 10_000, providerFee: 320, platformFee: 1_000, currency: "usd" };
    expect((await recordPayment(db, payA)).outcome).toBe("RECORDED");
    expect(await recordPayment(db, payA)).toEqual({ kind: "SUCCESS", outcome: "ALREADY_RECORDED" });
    await recordPayment(db, { sessionId: b.sessionId, paymentIntentId: b.paymentIntentId, gross: 2_000, providerFee: 88, platformFee: 0, currency: "usd" });
    const refund = { sessionId: b.sessionId, paymentIntentId: b.paymentIntentId, amount: 2_000, currency: "usd", payment: { gross: 2_000, platformFee: 0 } };
    expect((await recordRefund(db, refund)).outcome).toBe("RECORDED");
    expect(await recordRefund(db, refund)).toEqual({ kind: "SUCCESS", outcome: "ALREADY_RECORDED" });
    expect((await recordDispute(db, { sessionId: a.sessionId, disputeId: "dp_1", amount: 10_000, providerFee: 1_500, currency: "usd", payment: { gross: 10_000, platformFee: 1_000 } })).outcome).toBe("RECORDED");

    expect(await sessionTotals(db, b.sessionId)).toEqual([{ currency: "usd", gross: 0, providerFee: 88, platformFee: 0, net: 0, platformNet: -88 }]);
    expect(await sessionTotals(db, a.sessionId)).toEqual([{ currency: "usd", gross: 0, providerFee: 1_820, platformFee: 0, net: 0, platformNet: -1_820 }]);
    expect(await ownerTotals(db, payee.uid)).toEqual([{ currency: "usd", gross: 0, providerFee: 1_908, platformFee: 0, net: 0, platformNet: -1_908 }]);
    expect(await ownerTotals(db, "nobody")).toEqual([]);
  });

  it("refuses an entry whose net is not gross − platform fee", async () => {
    const s = await seedSession(database.db, payee);
    const attempt = database.db.execute(
      sql`insert into ledger_entries (session_id, kind, gross, provider_fee, platform_fee, net, currency, provider_reference) values (${s.sessionId}, 'payment', 100, 3, 10, 87, 'usd', 'pi_bad')`,
    );
    await expect(attempt).rejects.toThrow();
  });
});
