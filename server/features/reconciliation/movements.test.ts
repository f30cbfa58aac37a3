import { describe, expect, it } from "vitest";
import type { ProviderBalanceTransaction } from "#server/providers/payments/port";
import { compareMovements, movementKey, providerMovements, type LedgerRow, type MovementKey } from "./movements";

const at = new Date("2031-03-03T12:00:00Z");
let n = 0;
const bt = (over: Partial<ProviderBalanceTransaction>): ProviderBalanceTransaction => ({
  id: `txn_${(n += 1)}`,
  type: "charge",
  amount: 0,
  fee: 0,
  currency: "usd",
  created: at,
  sourceId: "src",
  paymentIntentId: "pi_1",
  disputeId: null,
  sessionId: null,
  ...over,
});
const row = (over: Partial<LedgerRow>): LedgerRow => ({
  id: `row_${(n += 1)}`,
  sessionId: "ss_1",
  kind: "payment",
  gross: 0,
  providerFee: 0,
  platformFee: 0,
  currency: "usd",
  providerReference: "pi_1",
  created: at,
  ...over,
});

function compare(transactions: ProviderBalanceTransaction[], rows: LedgerRow[], ours = true) {
  const { movements, uncompared } = providerMovements(transactions);
  const ledger = new Map<MovementKey, LedgerRow>(rows.map((r) => [movementKey(r.kind, r.providerReference), r]));
  return { uncompared, ...compareMovements({ provider: movements, ledger, ours: () => ours, sessionOf: (m) => m.sessionId, inPeriod: (d) => d.getTime() === at.getTime() }) };
}

describe("folding balance transactions into ledger movements", () => {
  it("matches a payment (charge + application fee), its refund (refund + fee refund), a dispute and its reversal, leaving transfers uncompared", () => {
    const result = compare(
      [
        bt({ type: "charge", amount: 2_500, fee: 103, sessionId: "ss_1" }),
        bt({ type: "transfer", amount: -2_500 }),
        bt({ type: "application_fee", amount: 250 }),
        bt({ type: "refund", amount: -2_500 }),
        bt({ type: "transfer_reversal", amount: 2_500 }),
        bt({ type: "application_fee_refund", amount: -250 }),
        bt({ type: "dispute", amount: -2_500, fee: 1_500, disputeId: "du_1" }),
        bt({ type: "dispute_reversal", amount: 2_500, fee: 0, disputeId: "du_1" }),
      ],
      [
        row({ kind: "payment", gross: 2_500, providerFee: 103, platformFee: 250 }),
        row({ kind: "refund", gross: -2_500, platformFee: -250 }),
        // The dispute's platform share is our split: not the provider's to say, so not compared.
        row({ kind: "dispute", gross: -2_500, providerFee: 1_500, platformFee: -250, providerReference: "du_1" }),
        row({ kind: "dispute_reversal", gross: 2_500, platformFee: 250, providerReference: "du_1" }),
      ],
    );
    expect(result).toEqual({ uncompared: 2, differences: [], compared: 4 });
  });

  it("reports a different currency and a lost dispute fee as the figures that differ", () => {
    const { differences } = compare(
      [bt({ type: "dispute", amount: -900, fee: 1_500, currency: "eur", disputeId: "du_2" })],
      [row({ kind: "dispute", gross: -900, providerFee: 0, providerReference: "du_2" })],
    );
    expect(differences).toEqual([
      expect.objectContaining({
        problem: "amounts-differ",
        reference: "du_2",
        fields: [
          { field: "providerFee", provider: 1_500, ledger: 0 },
          { field: "currency", provider: "eur", ledger: "usd" },
        ],
      }),
    ]);
  });

  it("leaves out a provider movement that is not one of our sponsor payments (Pro billing), and one outside the period", () => {
    expect(compare([bt({ type: "charge", amount: 900, paymentIntentId: "pi_pro" })], [], false)).toMatchObject({ differences: [], compared: 0 });
    expect(compare([bt({ type: "charge", amount: 900, created: new Date("2031-03-02T23:59:59Z") })], [])).toMatchObject({ differences: [], compared: 0 });
  });

  it("finds a ledger row written after the period's end by its provider movement inside it: no difference", () => {
    const late = new Date("2031-03-04T00:00:05Z");
    expect(compare([bt({ type: "charge", amount: 700, fee: 50 })], [row({ gross: 700, providerFee: 50, created: late })])).toMatchObject({ differences: [], compared: 1 });
  });
});
