import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { recordPayment, refreshSessionStatus } from "#server/domains/payments/ledger/ledger";
import { listSponsorSessions } from "#server/domains/payments/records/sponsor-sessions";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, seedSession } from "#tests/support/payments";
import { seedMembership, seedMembershipPeriod, seedTier } from "#tests/support/office-memberships";
import { testSandbox } from "#tests/support/test-sandbox";
import { PAYMENTS_CSV_COLUMNS, receivedPaymentsCsv } from "./payments-csv";

/**
 * A membership's paid periods are the creator's received payments like tips: each is a row of
 * the CSV with kind "membership", and a card of the Supporters list with that kind (shown as
 * "Membership" by PAYMENT_KIND_LABELS), beside the tips.
 */
describe.each(ENGINES)("a membership's paid periods in the creator's CSV and Supporters on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  it("are rows and cards of kind membership beside the tips', each period its own payment", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const membership = await seedMembership(db(), payee, await seedTier(db(), payee), { amount: 700 });
    const periods = [await seedMembershipPeriod(db(), payee, membership, { platformFee: 70 }), await seedMembershipPeriod(db(), payee, membership, { platformFee: 70 })];
    for (const period of periods) {
      await recordPayment(db(), { sessionId: period.sessionId, paymentIntentId: period.paymentIntentId, gross: 700, providerFee: 50, platformFee: 70, currency: "usd" });
      await refreshSessionStatus(db(), period.sessionId, "pending");
    }
    const tip = await seedSession(db(), payee, { amount: 2500, platformFee: 250 });
    await recordPayment(db(), { sessionId: tip.sessionId, paymentIntentId: tip.paymentIntentId, gross: 2500, providerFee: 103, platformFee: 250, currency: "usd" });
    await refreshSessionStatus(db(), tip.sessionId, "pending");

    const { csv } = await receivedPaymentsCsv(db(), payee.uid, new Date());
    const [, ...data] = parse(csv.slice(1)) as string[][];
    const col = (name: (typeof PAYMENTS_CSV_COLUMNS)[number]) => PAYMENTS_CSV_COLUMNS.indexOf(name);
    const byKind = (kind: string) => data.filter((r) => r[col("kind")] === kind);
    expect(byKind("membership").map((r) => [r[col("session_id")], r[col("type")], r[col("gross")], r[col("fee")], r[col("net")], r[col("status")]]).sort()).toEqual(
      periods.map((p) => [p.sessionId, "payment", "7.00", "0.70", "6.30", "completed"]).sort(),
    );
    expect(byKind("tip")).toHaveLength(1);

    const { sessions } = await listSponsorSessions(db(), payee.uid);
    expect(sessions.map((s) => [s.id, s.kind]).sort()).toEqual([...periods.map((p) => [p.sessionId, "membership"]), [tip.sessionId, "tip"]].sort());
  });
});
