import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeStandardFee } from "#server/providers/payments/sandbox/fees";
import type { PaymentProvider } from "#server/providers/payments/port";
import { startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";
import { DISPUTE_FEE } from "#tests/support/stripe-emulator/disputes";
import { stripeProviderOn } from "#tests/support/stripe-provider";

let emulator: StripeEmulator;
let provider: PaymentProvider;

beforeAll(async () => {
  emulator = await startStripeEmulator();
  provider = stripeProviderOn(emulator);
});
afterAll(() => emulator.close());

async function paid(accountId: string, sessionId: string, amount: number, fee: number) {
  const created = await provider.createSponsorCheckout({
    idempotencyKey: `checkout_${sessionId}`,
    sessionId,
    destinationAccountId: accountId,
    amount,
    currency: "usd",
    applicationFeeAmount: fee,
    productName: "Tip",
    sponsorEmail: null,
    successUrl: "http://localhost/s",
    cancelUrl: "http://localhost/c",
  });
  await emulator.completeCheckout(created.checkoutId);
  return emulator.store.checkoutSessions.get(created.checkoutId)!.payment_intent as string;
}

describe("Stripe balance transactions through the SDK against the emulator", () => {
  it("lists a period's charges, fees, refunds and disputes, tied to their payment intents, 100 a page with only the source expanded", async () => {
    const from = new Date(Date.now() - 1_000);
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "acct_bt", email: "maya@example.com", accountType: "individual", uid: "uid-bt" });
    await emulator.completeOnboarding(accountId);
    // 60 payments: 60 charges and 60 application fees, so the listing takes two pages.
    const intents: string[] = [];
    for (let i = 0; i < 60; i += 1) intents.push(await paid(accountId, `row_${i}`, 1_000 + i, 100));
    const [refunded, disputed] = intents;
    await provider.refundPayment({ idempotencyKey: "refund_bt", paymentIntentId: refunded! });
    await emulator.openDispute(disputed!);

    const rows = await provider.listBalanceTransactions({ from, to: new Date(Date.now() + 2_000) });
    const ofIntent = (pi: string) => rows.filter((r) => r.paymentIntentId === pi).map((r) => [r.type, r.amount, r.fee, r.currency]);
    expect(rows).toHaveLength(60 + 60 + 2 + 1);
    expect(ofIntent(intents[5]!)).toEqual(expect.arrayContaining([["charge", 1_005, stripeStandardFee(1_005, "usd"), "usd"], ["application_fee", 100, 0, "usd"]]));
    expect(ofIntent(refunded!).sort()).toEqual(
      [
        ["application_fee", 100, 0, "usd"],
        ["application_fee_refund", -100, 0, "usd"],
        ["charge", 1_000, stripeStandardFee(1_000, "usd"), "usd"],
        ["refund", -1_000, 0, "usd"],
      ].sort(),
    );
    const dispute = rows.find((r) => r.type === "dispute")!;
    expect(dispute).toMatchObject({ amount: -1_001, fee: DISPUTE_FEE, paymentIntentId: disputed, disputeId: expect.stringMatching(/^dp_/) });
    // The charge carries our session id (its metadata), so a payment the ledger lacks is known as ours.
    expect(rows.find((r) => r.type === "charge" && r.paymentIntentId === intents[7])!.sessionId).toBe("row_7");
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);

    const listings = emulator.requests.filter((r) => r.endpoint === "GET /v1/balance_transactions");
    expect(listings).toHaveLength(2);
    expect(listings[0]!.params).toEqual({ created: { gte: String(Math.floor(from.getTime() / 1000)), lt: expect.any(String) }, limit: "100", expand: ["data.source"] });
    expect(listings[1]!.params).toMatchObject({ starting_after: expect.stringMatching(/^txn_/) });
    // Everything came from the listing itself: no charge or fee looked up one by one.
    expect(emulator.calls("GET /v1/charges/:id")).toBe(0);
  });

  it("answers nothing for a period with no money moved", async () => {
    expect(await provider.listBalanceTransactions({ from: new Date("2001-01-01T00:00:00Z"), to: new Date("2001-01-02T00:00:00Z") })).toEqual([]);
  });
});
