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
  fundingId: null,
  kind: "payment",
  gross: 0,
  providerFee: 0,
  platformFee: 0,
  currency: "usd",
  providerReference: "pi_1",
  created: at,
  ...over,
});

function compare(transactions: ProviderBalanceTransaction[], rows: LedgerRow[], ours = true, held: ReadonlySet<string> = new Set()) {
  const { movements, uncompared } = providerMovements(transactions, held);
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

  it("matches a deal's held charge, a part refunded and a transfer to its deal_payment, deal_refund and deal_release rows, each in the sense its side means", () => {
    const deal = (over: Partial<LedgerRow>) => row({ sessionId: null, fundingId: "dfund_1", ...over });
    const provider = [
      bt({ type: "charge", amount: 10_000, fee: 320, sessionId: "dfund_1", sourceId: "ch_1" }),
      bt({ type: "refund", amount: -2_000, sourceId: "re_1" }),
      // −share on the platform's balance ...
      bt({ type: "transfer", amount: -7_200, sourceId: "tr_1" }),
    ];
    const ledger = [
      deal({ kind: "deal_payment", gross: 10_000, providerFee: 320, platformFee: 10_000 }),
      deal({ kind: "deal_refund", gross: -2_000, platformFee: -2_000, providerReference: "re_1" }),
      // ... is the release row's platform_fee −share (its net +share): nothing came from the sponsor.
      deal({ kind: "deal_release", gross: 0, platformFee: -7_200, providerReference: "tr_1" }),
    ];
    expect(compare(provider, ledger, true, new Set(["pi_1"]))).toEqual({ uncompared: 0, differences: [], compared: 3 });
    // Not known as held, the same charge is a tip's payment the ledger lacks and its transfer is not compared.
    expect(compare(provider, [], true).uncompared).toBe(1);

    const { differences } = compare(provider, [ledger[0]!, { ...ledger[2]!, platformFee: -7_000 }], true, new Set(["pi_1"]));
    expect(differences).toEqual([
      expect.objectContaining({ problem: "missing-in-ledger", kind: "deal_refund", reference: "re_1", sessionId: null, fundingId: null }),
      expect.objectContaining({ problem: "amounts-differ", kind: "deal_release", reference: "tr_1", fundingId: "dfund_1", fields: [{ field: "platformFee", provider: -7_200, ledger: -7_000 }] }),
    ]);
    // The charge carries its funding, so a held payment the ledger never heard of names it.
    expect(compare(provider.slice(0, 1), [], true, new Set(["pi_1"])).differences).toEqual([
      expect.objectContaining({
        problem: "missing-in-ledger",
        kind: "deal_payment",
        reference: "pi_1",
        sessionId: null,
        fundingId: "dfund_1",
        fields: [
          { field: "gross", provider: 10_000, ledger: 0 },
          { field: "providerFee", provider: 320, ledger: 0 },
          { field: "platformFee", provider: 10_000, ledger: 0 },
          { field: "currency", provider: "usd", ledger: "" },
        ],
      }),
    ]);
  });
});
