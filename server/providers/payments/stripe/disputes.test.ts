import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentProvider } from "#server/providers/payments/port";
import { disputeFee, toPaymentEvent } from "#server/providers/payments/stripe/events";
import { startStripeEmulator, type EmulatorEvent, type StripeEmulator } from "#tests/support/stripe-emulator";
import { plainSponsorCheckout, stripeProviderOn } from "#tests/support/stripe-provider";

/** Stripe's dispute events, as the emulator sends them with Stripe's shapes, become our one dispute.changed. */
let emulator: StripeEmulator;
let provider: PaymentProvider;
let accountId: string;

beforeAll(async () => {
  emulator = await startStripeEmulator({});
  provider = stripeProviderOn(emulator);
  ({ accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_disputes", email: "maya@example.com", accountType: "individual", uid: "uid-maya" }));
  await emulator.completeOnboarding(accountId);
});
afterAll(() => emulator.close());

const parse = (event: EmulatorEvent) => {
  const delivery = emulator.sign(event);
  const parsed = provider.parseWebhook(Buffer.from(delivery.payload), delivery.header);
  if (parsed.kind === "ERROR") throw new Error(parsed.message);
  return parsed.event;
};

async function paidIntent(sessionId: string, amount: number): Promise<string> {
  const { checkoutId } = await provider.createSponsorCheckout(plainSponsorCheckout(sessionId, accountId, amount));
  await emulator.completeCheckout(checkoutId);
  return emulator.store.checkoutSessions.get(checkoutId)!.payment_intent as string;
}

describe("Stripe disputes → dispute.changed", () => {
  it("opens with the withdrawal's 1500 fee and deadline, goes under review, and is won with the fee kept", async () => {
    const intent = await paidIntent("row-dispute-won", 4_000);
    const opened = await emulator.openDispute(intent, "product_not_received");
    expect(opened.map((e) => e.type)).toEqual(["charge.dispute.created", "charge.dispute.funds_withdrawn"]);
    const dispute = opened[0]!.data.object as Stripe.Dispute;
    for (const event of opened) {
      expect(parse(event)).toMatchObject({
        type: "dispute.changed",
        disputeId: dispute.id,
        paymentIntentId: intent,
        reason: "product_not_received",
        status: "needs_response",
        fee: 1_500,
        amount: 4_000,
        currency: "usd",
        evidenceDueBy: new Date(dispute.evidence_details.due_by! * 1000),
      });
    }
    const [updated] = await emulator.submitDisputeEvidence(dispute.id);
    expect(parse(updated!)).toMatchObject({ type: "dispute.changed", status: "under_review", fee: 1_500 });
    const won = await emulator.closeDispute(dispute.id, "won");
    expect(won.map((e) => e.type)).toEqual(["charge.dispute.funds_reinstated", "charge.dispute.closed"]);
    // The reinstatement (+4000, fee 0) does not count: the fee stays the withdrawal's.
    for (const event of won) expect(parse(event)).toMatchObject({ status: "won", fee: 1_500, amount: 4_000 });
    // The balance transactions are retrievable as the dispute lists them.
    const [withdrawal, reinstatement] = (emulator.store.disputes.get(dispute.id)!.balance_transactions);
    expect(withdrawal).toMatchObject({ amount: -4_000, fee: 1_500, reporting_category: "dispute", source: dispute.id });
    expect(reinstatement).toMatchObject({ amount: 4_000, fee: 0, reporting_category: "dispute_reversal" });
  });

  it("is lost with the fee, and a closed dispute cannot be closed again", async () => {
    const intent = await paidIntent("row-dispute-lost", 2_000);
    const [created] = await emulator.openDispute(intent);
    const id = (created!.data.object as Stripe.Dispute).id;
    const [closed, ...more] = await emulator.closeDispute(id, "lost");
    expect(more).toEqual([]);
    expect(closed!.type).toBe("charge.dispute.closed");
    expect(parse(closed!)).toMatchObject({ status: "lost", fee: 1_500, amount: 2_000 });
    expect(() => emulator.closeDispute(id, "won")).toThrow(/closed/);
  });

  it("leaves inquiries (warning_*) and prevented disputes unhandled; a dispute with no withdrawal yet has no fee", async () => {
    const intent = await paidIntent("row-inquiry", 1_000);
    const [created] = await emulator.openDispute(intent);
    const dispute = structuredClone(created!.data.object as Stripe.Dispute);
    const as = (status: Stripe.Dispute.Status) => ({ ...created!, data: { object: { ...dispute, status } } }) as unknown as Stripe.Event;
    expect(toPaymentEvent(as("warning_needs_response"))).toBeNull();
    expect(toPaymentEvent(as("warning_closed"))).toBeNull();
    expect(disputeFee({ ...dispute, balance_transactions: [] })).toBeNull();
  });
});
