import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentEventSchema } from "#server/payments/events";
import { WebhookSignatureError, type PaymentProvider } from "#server/payments/provider";
import { createStripeClient } from "#server/payments/stripe/client";
import { HANDLED_STRIPE_EVENT_TYPES, UnreadableStripeEventError } from "#server/payments/stripe/events";
import { createStripeProvider } from "#server/payments/stripe/provider";
import { newEvent } from "#tests/support/stripe-emulator/events";
import { startStripeEmulator, type EmulatorEvent, type StripeEmulator } from "#tests/support/stripe-emulator";

const CONNECT_SECRET = "whsec_connectEndpoint000000000000";
let emulator: StripeEmulator;
let provider: PaymentProvider;
let accountId: string;

beforeAll(async () => {
  emulator = await startStripeEmulator({ connectWebhookSecret: CONNECT_SECRET });
  provider = createStripeProvider({
    stripe: createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url }),
    webhookSecrets: [emulator.webhookSecret, CONNECT_SECRET],
  });
  ({ accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_webhooks", email: "maya@example.com", accountType: "individual", uid: "uid-maya" }));
});
afterAll(() => emulator.close());

const parse = (event: EmulatorEvent, options?: { timestamp?: number; secret?: string }) => {
  const delivery = emulator.sign(event, options);
  return provider.parseWebhook(Buffer.from(delivery.payload), delivery.header);
};

async function checkout(sessionId: string, amount = 1_500) {
  return provider.createSponsorCheckout({
    idempotencyKey: `checkout_${sessionId}`,
    sessionId,
    destinationAccountId: accountId,
    amount,
    currency: "usd",
    applicationFeeAmount: 0,
    productName: "Sponsorship",
    sponsorEmail: null,
    successUrl: "http://localhost:3000/app/payments/success",
    cancelUrl: "http://localhost:3000/app/payments/cancelled",
  });
}

describe("Stripe webhooks → our events", () => {
  it("maps every handled Stripe event type to our event, validated by our schema", async () => {
    const [accountUpdated] = await emulator.completeOnboarding(accountId);
    expect(parse(accountUpdated!)).toEqual({
      provider: "stripe",
      eventId: accountUpdated!.id,
      occurredAt: new Date(accountUpdated!.created * 1000),
      type: "account.updated",
      accountId,
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
    });

    const paid = await checkout("row-paid");
    const [completed] = await emulator.completeCheckout(paid.checkoutId);
    const paymentIntentId = emulator.store.checkoutSessions.get(paid.checkoutId)!.payment_intent as string;
    const chargeId = emulator.store.paymentIntents.get(paymentIntentId)!.latest_charge as string;
    expect(parse(completed!)).toMatchObject({
      type: "checkout.completed",
      checkoutId: paid.checkoutId,
      sessionId: "row-paid",
      paymentIntentId,
      paymentStatus: "paid",
      amount: 1_500,
      currency: "usd",
    });

    emulator.setRefundStatus("pending");
    await provider.refundPayment({ idempotencyKey: "refund_row-paid", paymentIntentId });
    emulator.setRefundStatus("succeeded");
    await emulator.idle();
    const [refundCreated, chargeRefunded] = emulator.events.slice(-2);
    const refundId = (refundCreated!.data.object as Stripe.Refund).id;
    expect(parse(refundCreated!)).toMatchObject({ type: "refund.updated", refundId, paymentIntentId, status: "pending", amount: 1_500, currency: "usd" });
    expect(parse(chargeRefunded!)).toMatchObject({ type: "charge.refunded", paymentIntentId, chargeId, amountRefunded: 1_500, currency: "usd" });
    const [refundUpdated] = await emulator.settleRefund(refundId, "succeeded");
    expect(parse(refundUpdated!)).toMatchObject({ type: "refund.updated", refundId, status: "succeeded" });

    const failing = await checkout("row-refund-fails");
    await emulator.completeCheckout(failing.checkoutId);
    emulator.setRefundStatus("pending");
    const { refundId: failingRefund } = await provider.refundPayment({
      idempotencyKey: "refund_row-refund-fails",
      paymentIntentId: emulator.store.checkoutSessions.get(failing.checkoutId)!.payment_intent as string,
    });
    emulator.setRefundStatus("succeeded");
    const [refundFailed] = await emulator.settleRefund(failingRefund, "failed");
    expect(parse(refundFailed!)).toMatchObject({ type: "refund.updated", refundId: failingRefund, status: "failed" });

    const disputed = await checkout("row-disputed");
    await emulator.completeCheckout(disputed.checkoutId);
    const disputedIntent = emulator.store.checkoutSessions.get(disputed.checkoutId)!.payment_intent as string;
    const [disputeCreated] = await emulator.openDispute(disputedIntent, "fraudulent");
    expect(parse(disputeCreated!)).toMatchObject({
      type: "dispute.created",
      disputeId: (disputeCreated!.data.object as Stripe.Dispute).id,
      paymentIntentId: disputedIntent,
      chargeId: emulator.store.paymentIntents.get(disputedIntent)!.latest_charge,
      reason: "fraudulent",
      amount: 1_500,
      currency: "usd",
    });

    const delayed = await checkout("row-delayed");
    const [completedUnpaid] = await emulator.completeCheckout(delayed.checkoutId, { delayed: true });
    expect(parse(completedUnpaid!)).toMatchObject({ type: "checkout.completed", sessionId: "row-delayed", paymentStatus: "unpaid" });
    const [asyncSucceeded] = await emulator.settleDelayedPayment(delayed.checkoutId, "succeeded");
    expect(parse(asyncSucceeded!)).toMatchObject({ type: "checkout.async_payment_succeeded", sessionId: "row-delayed", paymentStatus: "paid" });

    const bounced = await checkout("row-bounced");
    await emulator.completeCheckout(bounced.checkoutId, { delayed: true });
    const [asyncFailed] = await emulator.settleDelayedPayment(bounced.checkoutId, "failed");
    expect(parse(asyncFailed!)).toMatchObject({ type: "checkout.async_payment_failed", sessionId: "row-bounced", paymentStatus: "unpaid" });

    const abandoned = await checkout("row-abandoned", 700);
    const [expired] = await emulator.expireCheckout(abandoned.checkoutId);
    expect(parse(expired!)).toMatchObject({ type: "checkout.expired", sessionId: "row-abandoned", paymentIntentId: null, paymentStatus: "unpaid", amount: 700 });

    // Every type we say we handle was seen above, and each mapped event passes our schema.
    const seen = new Set(emulator.events.map((event) => event.type));
    expect(HANDLED_STRIPE_EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([]);
    for (const event of emulator.events) expect(paymentEventSchema.safeParse(parse(event)).success).toBe(true);
  });

  it("returns null for an event type we do not handle, after checking its signature", () => {
    const event = newEvent("payment_intent.created", { id: "pi_unhandled" });
    expect(parse(event)).toBeNull();
    expect(() => parse(event, { secret: "whsec_someoneElse" })).toThrow(WebhookSignatureError);
  });

  it("refuses a delivery signed with another secret, a changed body, or no signature", () => {
    const event = newEvent("account.updated", emulator.store.accounts.get(accountId)!, { account: accountId });
    expect(() => parse(event, { secret: "whsec_someoneElse" })).toThrow(WebhookSignatureError);
    const signed = emulator.sign(event);
    const tampered = signed.payload.replace('"charges_enabled": true', '"charges_enabled": false');
    expect(tampered).not.toBe(signed.payload);
    expect(() => provider.parseWebhook(Buffer.from(tampered), signed.header)).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(Buffer.from(signed.payload), undefined)).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(Buffer.from(signed.payload), "t=1,v1=deadbeef")).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(Buffer.from(signed.payload), "garbage")).toThrow(WebhookSignatureError);
  });

  it("refuses a delivery signed more than five minutes ago (a replayed capture)", () => {
    const event = newEvent("account.updated", emulator.store.accounts.get(accountId)!, { account: accountId });
    const now = Math.floor(Date.now() / 1000);
    expect(parse(event, { timestamp: now - 240 })).toMatchObject({ type: "account.updated" });
    expect(() => parse(event, { timestamp: now - 301 })).toThrow(/too old|tolerance/i);
    expect(() => parse(event, { timestamp: now - 301 })).toThrow(WebhookSignatureError);
  });

  it("accepts the Connect endpoint's secret only when it is configured", () => {
    const event = newEvent("account.updated", emulator.store.accounts.get(accountId)!, { account: accountId });
    const signed = emulator.sign(event, { secret: CONNECT_SECRET });
    expect(provider.parseWebhook(Buffer.from(signed.payload), signed.header)).toMatchObject({ type: "account.updated", accountId });
    const platformOnly = createStripeProvider({
      stripe: createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url }),
      webhookSecrets: [emulator.webhookSecret],
    });
    expect(() => platformOnly.parseWebhook(Buffer.from(signed.payload), signed.header)).toThrow(WebhookSignatureError);
  });

  it("says so when a signed event of a handled type lacks what we need", () => {
    const charge = { ...[...emulator.store.charges.values()][0]!, payment_intent: null };
    expect(() => parse(newEvent("charge.refunded", charge))).toThrow(UnreadableStripeEventError);
  });
});
