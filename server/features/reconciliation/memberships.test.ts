import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledgerEntries } from "#server/platform/db/schema";
import { recordPayment, refreshSessionStatus } from "#server/domains/payments/ledger/ledger";
import type { PaymentProvider, ProviderBalanceTransaction } from "#server/providers/payments/port";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, seedSession, type Payee } from "#tests/support/payments";
import { seedMembership, seedMembershipPeriod, seedTier } from "#tests/support/office-memberships";
import { testSandbox } from "#tests/support/test-sandbox";
import type { Difference } from "./movements";
import { reconcile } from "./run";

/**
 * A membership's paid period is a sponsor session of kind "membership" with its own payment
 * intent (ADR 0084), so reconciliation compares its charge exactly as it compares a tip's: the
 * charge and its application fee against the period's ledger row, both ways. The provider here
 * is a fake whose balance holds exactly the transactions each test gives it.
 */
const ACTOR = { kind: "command-line" } as const;
const HOUR = 3_600_000;

/** A destination charge as the provider's balance shows it: the charge, the transfer to the creator, the application fee. */
function destinationCharge(o: { paymentIntentId: string; sessionId: string | null; gross: number; providerFee: number; platformFee: number; at: Date }): ProviderBalanceTransaction[] {
  const base = { currency: "usd", created: o.at, paymentIntentId: o.paymentIntentId, disputeId: null };
  return [
    { ...base, id: `txn_ch_${o.paymentIntentId}`, type: "charge", amount: o.gross, fee: o.providerFee, sourceId: `ch_${o.paymentIntentId}`, sessionId: o.sessionId },
    { ...base, id: `txn_tr_${o.paymentIntentId}`, type: "transfer", amount: -o.gross, fee: 0, sourceId: `tr_${o.paymentIntentId}`, sessionId: null },
    { ...base, id: `txn_fee_${o.paymentIntentId}`, type: "application_fee", amount: o.platformFee, fee: 0, sourceId: `fee_${o.paymentIntentId}`, sessionId: null },
  ];
}

const fakeProvider = (transactions: ProviderBalanceTransaction[]): Pick<PaymentProvider, "name" | "listBalanceTransactions"> => ({
  name: "sandbox",
  listBalanceTransactions: async (period) => transactions.filter((t) => t.created >= period.from && t.created < period.to),
});

describe.each(ENGINES)("a membership's renewals in reconciliation on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  /** A paid renewal (session + ledger row) and a paid tip of the same creator, and the provider's balance for both. */
  async function renewalAndTip(payee: Payee, at: Date) {
    const membership = await seedMembership(db(), payee, await seedTier(db(), payee), { amount: 700 });
    const renewal = await seedMembershipPeriod(db(), payee, membership, { platformFee: 70 });
    await recordPayment(db(), { sessionId: renewal.sessionId, paymentIntentId: renewal.paymentIntentId, gross: 700, providerFee: 50, platformFee: 70, currency: "usd" });
    await refreshSessionStatus(db(), renewal.sessionId, "pending");
    const tip = await seedSession(db(), payee, { amount: 2500, platformFee: 250 });
    await recordPayment(db(), { sessionId: tip.sessionId, paymentIntentId: tip.paymentIntentId, gross: 2500, providerFee: 103, platformFee: 250, currency: "usd" });
    const balance = [
      // A renewal's invoice charge may not carry our session id: its payment intent finds the session.
      ...destinationCharge({ paymentIntentId: renewal.paymentIntentId, sessionId: null, gross: 700, providerFee: 50, platformFee: 70, at }),
      ...destinationCharge({ paymentIntentId: tip.paymentIntentId, sessionId: tip.sessionId, gross: 2500, providerFee: 103, platformFee: 250, at }),
    ];
    return { membership, renewal, tip, balance };
  }

  const periodAround = (at: Date) => ({ from: new Date(at.getTime() - 12 * HOUR), to: new Date(at.getTime() + 12 * HOUR) });

  it("compares a renewal's charge and application fee with its ledger row, as a tip's: no difference when they agree", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const at = new Date();
    const { balance } = await renewalAndTip(payee, at);
    const result = await reconcile(db(), fakeProvider(balance), { period: periodAround(at), actor: ACTOR, slackMs: 0 });
    expect(result.kind).toBe("SUCCESS");
    if (result.kind !== "SUCCESS") return;
    // The first test of the file: the ledger holds only these two payments.
    expect(result.run.differences).toEqual([]);
    // Both payments compared; the two transfers are the creators' money and not compared.
    expect(result.run.movementsCompared).toBe(2);
  });

  it("reports a renewal whose ledger row differs from the provider's charge, and one the provider has no charge for, by its session", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const at = new Date();
    const { renewal, balance } = await renewalAndTip(payee, at);
    await db().update(ledgerEntries).set({ gross: 600, net: 530 }).where(eq(ledgerEntries.providerReference, renewal.paymentIntentId));
    // A second period the ledger recorded that the provider never charged.
    const membership = await seedMembership(db(), payee, await seedTier(db(), payee), { amount: 900 });
    const phantom = await seedMembershipPeriod(db(), payee, membership, { platformFee: 90 });
    await recordPayment(db(), { sessionId: phantom.sessionId, paymentIntentId: phantom.paymentIntentId, gross: 900, providerFee: 60, platformFee: 90, currency: "usd" });

    const result = await reconcile(db(), fakeProvider(balance), { period: periodAround(at), actor: ACTOR, slackMs: 0 });
    if (result.kind !== "SUCCESS") throw new Error("the run was refused");
    const ours = result.run.differences.filter((d: Difference) => d.sessionId === renewal.sessionId || d.sessionId === phantom.sessionId);
    expect(ours).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ problem: "amounts-differ", kind: "payment", reference: renewal.paymentIntentId, sessionId: renewal.sessionId, fields: [{ field: "gross", provider: 700, ledger: 600 }] }),
        expect.objectContaining({ problem: "missing-at-provider", kind: "payment", reference: phantom.paymentIntentId, sessionId: phantom.sessionId }),
      ]),
    );
    expect(ours).toHaveLength(2);
  });

  it("reports a renewal the provider charged whose ledger row was never written", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const at = new Date();
    const membership = await seedMembership(db(), payee, await seedTier(db(), payee), { amount: 700 });
    // The writer made the period's session, and its payment never reached the ledger.
    const renewal = await seedMembershipPeriod(db(), payee, membership, { platformFee: 70 });
    const balance = destinationCharge({ paymentIntentId: renewal.paymentIntentId, sessionId: null, gross: 700, providerFee: 50, platformFee: 70, at });
    const result = await reconcile(db(), fakeProvider(balance), { period: periodAround(at), actor: ACTOR, slackMs: 0 });
    if (result.kind !== "SUCCESS") throw new Error("the run was refused");
    expect(result.run.differences.filter((d: Difference) => d.sessionId === renewal.sessionId)).toEqual([
      expect.objectContaining({ problem: "missing-in-ledger", kind: "payment", reference: renewal.paymentIntentId, ledgerEntryId: null }),
    ]);
  });
});
