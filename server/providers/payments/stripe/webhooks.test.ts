import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentEventSchema } from "#server/providers/payments/events";
import type { PaymentProvider, ProBilling } from "#server/providers/payments/port";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { HANDLED_STRIPE_EVENT_TYPES, UnreadableStripeEventError } from "#server/providers/payments/stripe/events";
import { createStripeProvider } from "#server/providers/payments/stripe/provider";
import { PRO_PLAN_KEYS, PRO_PLANS, type ProPlanKey } from "#isomorphic/pro-plans";
import { newEvent } from "#tests/support/stripe-emulator/events";
import { startStripeEmulator, type EmulatorEvent, type StripeEmulator } from "#tests/support/stripe-emulator";
import { plainSponsorCheckout } from "#tests/support/stripe-provider";

const CONNECT_SECRET = "whsec_connectEndpoint000000000000";
let emulator: StripeEmulator;
let provider: PaymentProvider & ProBilling;
let accountId: string;
let stripeClient: Stripe;

beforeAll(async () => {
  emulator = await startStripeEmulator({ connectWebhookSecret: CONNECT_SECRET });
  stripeClient = createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url });
  provider = createStripeProvider({ stripe: stripeClient, webhookSecrets: [emulator.webhookSecret, CONNECT_SECRET] });
  ({ accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_webhooks", email: "maya@example.com", accountType: "individual", uid: "uid-maya" }));
});
afterAll(() => emulator.close());

/** What parseWebhook answers to a signed delivery of the event. */
const deliver = (event: EmulatorEvent, options?: { timestamp?: number; secret?: string }) => {
  const delivery = emulator.sign(event, options);
  return provider.parseWebhook(Buffer.from(delivery.payload), delivery.header);
};

/** The event of a delivery that must be accepted (a refusal fails the test). */
const parse = (event: EmulatorEvent, options?: { timestamp?: number; secret?: string }) => {
  const parsed = deliver(event, options);
  if (parsed.kind === "ERROR") throw new Error(`The delivery was refused: ${parsed.message}`);
  return parsed.event;
};

const badSignature = { kind: "ERROR", code: "invalid-argument", reason: "BAD_SIGNATURE" };

const PRO_SPECS = PRO_PLAN_KEYS.map((key) => ({ plan: key, lookupKey: PRO_PLANS[key].lookupKey, productName: PRO_PLANS[key].name, amount: PRO_PLANS[key].amount, currency: "usd", interval: PRO_PLANS[key].interval }));

/** A Pro checkout for a new customer, and that customer. */
async function proCheckout(plan: ProPlanKey) {
  const prices = await provider.ensureProPrices(PRO_SPECS);
  const uid = `uid-${plan}-${Math.random().toString(36).slice(2, 8)}`;
  const { customerId } = await provider.createCustomer({ idempotencyKey: `customer_${uid}`, uid, email: `${uid}@example.com` });
  const created = await provider.createProCheckout({
    idempotencyKey: `pro_checkout_${uid}`,
    customerId,
    uid,
    plan,
    priceId: prices[plan],
    mode: plan === "limitless" ? "payment" : "subscription",
    successUrl: "http://localhost:3000/app/pro/success",
    cancelUrl: "http://localhost:3000/app/pro",
  });
  return { customerId, checkoutId: created.checkoutId };
}

/** Every Stripe event of a Pro membership's life becomes pro.customer_changed naming the customer, with its cause. */
async function expectProEventsMapped(): Promise<{ ignoredEventId: string }> {
  const changed = (event: EmulatorEvent | undefined, customerId: string, cause: string) =>
    expect(parse(event!)).toEqual({ provider: "stripe", eventId: event!.id, occurredAt: new Date(event!.created * 1000), type: "pro.customer_changed", customerId, cause });

  const monthly = await proCheckout("launchpad");
  const [completed, created, paid] = await emulator.completeCheckout(monthly.checkoutId);
  changed(completed, monthly.customerId, "checkout.completed");
  changed(created, monthly.customerId, "subscription.created");
  changed(paid, monthly.customerId, "invoice.paid");
  const subscriptionId = emulator.store.checkoutSessions.get(monthly.checkoutId)!.subscription as string;

  const [renewed, renewalPaid] = await emulator.advanceSubscription(subscriptionId);
  changed(renewed, monthly.customerId, "subscription.updated");
  changed(renewalPaid, monthly.customerId, "invoice.paid");
  await emulator.setCardFailing(monthly.customerId, true);
  const [failed, pastDue] = await emulator.advanceSubscription(subscriptionId);
  changed(failed, monthly.customerId, "invoice.payment_failed");
  changed(pastDue, monthly.customerId, "subscription.updated");
  await stripeClient.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
  await emulator.idle();
  changed(emulator.events.at(-1), monthly.customerId, "subscription.updated");
  const [ended] = await emulator.advanceSubscription(subscriptionId);
  changed(ended, monthly.customerId, "subscription.deleted");

  const lifetime = await proCheckout("limitless");
  const [lifetimeCompleted] = await emulator.completeCheckout(lifetime.checkoutId);
  changed(lifetimeCompleted, lifetime.customerId, "checkout.completed");

  // An abandoned Pro checkout changes nothing: acknowledged, not stored.
  const abandoned = await proCheckout("star_power");
  const [expired] = await emulator.expireCheckout(abandoned.checkoutId);
  expect(parse(expired!)).toBeNull();
  return { ignoredEventId: expired!.id };
}

async function checkout(sessionId: string, amount = 1_500) {
  return provider.createSponsorCheckout(plainSponsorCheckout(sessionId, accountId, amount));
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
      type: "dispute.changed",
      status: "needs_response",
      fee: 1_500,
      disputeId: (disputeCreated!.data.object as Stripe.Dispute).id,
      paymentIntentId: disputedIntent,
      chargeId: emulator.store.paymentIntents.get(disputedIntent)!.latest_charge,
      reason: "fraudulent",
      amount: 1_500,
      currency: "usd",
    });
    const disputeId = (disputeCreated!.data.object as Stripe.Dispute).id;
    const [evidence] = await emulator.submitDisputeEvidence(disputeId);
    expect(parse(evidence!)).toMatchObject({ type: "dispute.changed", disputeId, status: "under_review" });
    for (const closing of await emulator.closeDispute(disputeId, "won")) expect(parse(closing)).toMatchObject({ type: "dispute.changed", disputeId, status: "won", fee: 1_500 });

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

    const { ignoredEventId } = await expectProEventsMapped();

    // Every type we say we handle was seen above, and each mapped event passes our schema.
    const seen = new Set(emulator.events.map((event) => event.type));
    expect(HANDLED_STRIPE_EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([]);
    for (const event of emulator.events.filter((each) => each.id !== ignoredEventId)) expect(paymentEventSchema.safeParse(parse(event)).success).toBe(true);
  });

  it("returns null for an event type we do not handle, after checking its signature", () => {
    const event = newEvent("payment_intent.created", { id: "pi_unhandled" });
    expect(parse(event)).toBeNull();
    expect(deliver(event, { secret: "whsec_someoneElse" })).toMatchObject(badSignature);
  });

  it("ignores an invoice that is not a subscription's, and keeps a sponsor checkout a sponsor checkout", async () => {
    const [, , paid] = await emulator.completeCheckout((await proCheckout("launchpad")).checkoutId);
    const invoice = paid!.data.object as Stripe.Invoice;
    const oneOff: Stripe.Invoice = { ...invoice, parent: null };
    const fromQuote: Stripe.Invoice = { ...invoice, parent: { ...invoice.parent!, type: "quote_details" } };
    expect(parse(newEvent("invoice.paid", oneOff))).toBeNull();
    expect(parse(newEvent("invoice.payment_failed", fromQuote))).toBeNull();
    const sponsor = await checkout("row-sponsor-not-pro");
    const [completed] = await emulator.completeCheckout(sponsor.checkoutId);
    expect(parse(completed!)).toMatchObject({ type: "checkout.completed", sessionId: "row-sponsor-not-pro" });
  });

  it("marks a deal's held checkout events purpose deal, with its funding id as sessionId; a tip's say sponsor", async () => {
    const held = (fundingId: string) =>
      provider.createHeldCheckout({
        idempotencyKey: `deal_funding_${fundingId}`,
        fundingId,
        dealId: "deal-1",
        transferGroup: "deal_deal-1",
        amount: 4_000,
        currency: "usd",
        productName: "Deal",
        sponsorEmail: null,
        successUrl: "http://localhost:3000/app/deals/deal-1",
        cancelUrl: "http://localhost:3000/app/deals/deal-1",
      });
    const paid = await held("fund-paid");
    const [completed] = await emulator.completeCheckout(paid.checkoutId);
    expect(parse(completed!)).toMatchObject({ type: "checkout.completed", purpose: "deal", sessionId: "fund-paid", paymentStatus: "paid", amount: 4_000 });
    const delayed = await held("fund-delayed");
    const [unpaid] = await emulator.completeCheckout(delayed.checkoutId, { delayed: true });
    expect(parse(unpaid!)).toMatchObject({ type: "checkout.completed", purpose: "deal", sessionId: "fund-delayed", paymentStatus: "unpaid" });
    const [failed] = await emulator.settleDelayedPayment(delayed.checkoutId, "failed");
    expect(parse(failed!)).toMatchObject({ type: "checkout.async_payment_failed", purpose: "deal", sessionId: "fund-delayed" });
    const [expired] = await emulator.expireCheckout((await held("fund-abandoned")).checkoutId);
    expect(parse(expired!)).toMatchObject({ type: "checkout.expired", purpose: "deal", sessionId: "fund-abandoned", paymentIntentId: null });

    const [tip] = await emulator.completeCheckout((await checkout("row-tip-purpose")).checkoutId);
    expect(parse(tip!)).toMatchObject({ type: "checkout.completed", purpose: "sponsor", sessionId: "row-tip-purpose" });
  });

  it("refuses a delivery signed with another secret, a changed body, or no signature", () => {
    const event = newEvent("account.updated", emulator.store.accounts.get(accountId)!, { account: accountId });
    expect(deliver(event, { secret: "whsec_someoneElse" })).toMatchObject(badSignature);
    const signed = emulator.sign(event);
    const tampered = signed.payload.replace('"charges_enabled": true', '"charges_enabled": false');
    expect(tampered).not.toBe(signed.payload);
    expect(provider.parseWebhook(Buffer.from(tampered), signed.header)).toMatchObject(badSignature);
    expect(provider.parseWebhook(Buffer.from(signed.payload), undefined)).toMatchObject({ ...badSignature, message: "No Stripe-Signature header" });
    expect(provider.parseWebhook(Buffer.from(signed.payload), "t=1,v1=deadbeef")).toMatchObject(badSignature);
    expect(provider.parseWebhook(Buffer.from(signed.payload), "garbage")).toMatchObject(badSignature);
  });

  it("refuses a delivery signed more than five minutes ago (a replayed capture)", () => {
    const event = newEvent("account.updated", emulator.store.accounts.get(accountId)!, { account: accountId });
    const now = Math.floor(Date.now() / 1000);
    expect(parse(event, { timestamp: now - 240 })).toMatchObject({ type: "account.updated" });
    expect(deliver(event, { timestamp: now - 301 })).toMatchObject({ ...badSignature, message: expect.stringMatching(/too old|tolerance/i) });
  });

  it("refuses a delivery signed more than five minutes ahead of now, which would stay replayable until then", () => {
    const event = newEvent("account.updated", emulator.store.accounts.get(accountId)!, { account: accountId });
    const now = Math.floor(Date.now() / 1000);
    expect(parse(event, { timestamp: now + 240 })).toMatchObject({ type: "account.updated" });
    expect(deliver(event, { timestamp: now + 301 })).toMatchObject({ ...badSignature, message: expect.stringMatching(/tolerance/i) });
    expect(deliver(event, { timestamp: now + 600 })).toMatchObject(badSignature);
  });

  it("accepts the Connect endpoint's secret only when it is configured", () => {
    const event = newEvent("account.updated", emulator.store.accounts.get(accountId)!, { account: accountId });
    const signed = emulator.sign(event, { secret: CONNECT_SECRET });
    expect(provider.parseWebhook(Buffer.from(signed.payload), signed.header)).toMatchObject({ kind: "SUCCESS", event: { type: "account.updated", accountId } });
    const platformOnly = createStripeProvider({
      stripe: createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url }),
      webhookSecrets: [emulator.webhookSecret],
    });
    expect(platformOnly.parseWebhook(Buffer.from(signed.payload), signed.header)).toMatchObject(badSignature);
  });

  it("says so when a signed event of a handled type lacks what we need", () => {
    const charge = { ...[...emulator.store.charges.values()][0]!, payment_intent: null };
    expect(() => parse(newEvent("charge.refunded", charge))).toThrow(UnreadableStripeEventError);
  });
});
