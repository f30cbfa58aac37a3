import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentProvider, ProBilling, ProCheckoutInput, ProPriceSpec } from "#server/providers/payments/port";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { createStripeProvider } from "#server/providers/payments/stripe/provider";
import { PRO_PLAN_KEYS, PRO_PLANS, type ProPlanKey } from "#isomorphic/pro-plans";
import { startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";

let emulator: StripeEmulator;
let stripe: Stripe;
let provider: PaymentProvider & ProBilling;
let prices: Record<ProPlanKey, string>;
const unique = () => Math.random().toString(36).slice(2, 10);

const SPECS: ProPriceSpec[] = PRO_PLAN_KEYS.map((key) => {
  const plan = PRO_PLANS[key];
  return { plan: key, lookupKey: plan.lookupKey, productName: `Sponsorgrid Pro ${plan.name}`, amount: plan.amount, currency: plan.currency, interval: plan.interval };
});

beforeAll(async () => {
  // Latency makes concurrent callers overlap at the emulator, as they would at Stripe.
  emulator = await startStripeEmulator({ latencyMs: 15 });
  stripe = createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url });
  provider = createStripeProvider({ stripe, webhookSecrets: [emulator.webhookSecret] });
});
afterAll(() => emulator.close());

const lastRequest = (endpoint: string) => emulator.requests.filter((request) => request.endpoint === endpoint).at(-1)!;

async function member() {
  const uid = `uid-${unique()}`;
  const { customerId } = await provider.createCustomer({ idempotencyKey: `customer_${uid}`, uid, email: `${uid}@example.com` });
  return { uid, customerId };
}

function checkoutInput(customerId: string, uid: string, plan: ProPlanKey): ProCheckoutInput {
  return {
    idempotencyKey: `pro_checkout_${unique()}`,
    customerId,
    uid,
    plan,
    priceId: prices[plan],
    mode: plan === "limitless" ? "payment" : "subscription",
    successUrl: "http://localhost:3000/app/pro/success?session={CHECKOUT_SESSION_ID}",
    cancelUrl: "http://localhost:3000/app/pro",
  };
}

/** A member who paid for `plan` on the hosted page. */
async function paidMember(plan: ProPlanKey) {
  const { uid, customerId } = await member();
  const { checkoutId } = await provider.createProCheckout(checkoutInput(customerId, uid, plan));
  await emulator.completeCheckout(checkoutId);
  const session = emulator.store.checkoutSessions.get(checkoutId)!;
  return { uid, customerId, checkoutId, subscriptionId: session.subscription as string | null, paymentIntentId: session.payment_intent as string | null };
}

describe("Pro billing on Stripe against the emulator (real SDK, real HTTP)", () => {
  it("creates each plan's price once, found by lookup key on every later call, even from two concurrent callers", async () => {
    // One plan set up before (an earlier deploy): only the other two are created.
    const [launchpadSpec] = SPECS;
    const earlier = await provider.ensureProPrices([launchpadSpec!]);
    const [first, second] = await Promise.all([provider.ensureProPrices(SPECS), provider.ensureProPrices(SPECS)]);
    expect(second).toEqual(first);
    expect(first.launchpad).toBe(earlier.launchpad);
    prices = await provider.ensureProPrices(SPECS);
    expect(prices).toEqual(first);

    for (const key of PRO_PLAN_KEYS) {
      const plan = PRO_PLANS[key];
      const withKey = [...emulator.store.prices.values()].filter((price) => price.lookup_key === plan.lookupKey);
      expect(withKey).toHaveLength(1);
      expect(withKey[0]).toMatchObject({ id: prices[key], unit_amount: plan.amount, currency: "usd", active: true });
      expect(withKey[0]!.recurring?.interval ?? null).toBe(plan.interval);
      expect(emulator.store.products.get(withKey[0]!.product as string)?.name).toBe(`Sponsorgrid Pro ${plan.name}`);
    }
    expect(emulator.store.products.size).toBe(3);
    // The second concurrent caller's creates replayed the first's, by the lookup-key-derived keys.
    expect(emulator.requests.filter((request) => request.endpoint === "POST /v1/prices").every((request) => request.idempotencyKey?.startsWith("price_sponsorgrid_pro_"))).toBe(true);
    expect(lastRequest("GET /v1/prices").params).toMatchObject({ active: "true", expand: ["data.product"], lookup_keys: SPECS.map((spec) => spec.lookupKey) });
    expect(lastRequest("POST /v1/prices").params).not.toHaveProperty("transfer_lookup_key");
  });

  it("creates a customer with the member's email and uid, once per idempotency key", async () => {
    const input = { idempotencyKey: `customer_uid-${unique()}`, uid: "uid-maya", email: "maya@example.com" };
    const first = await provider.createCustomer(input);
    const retried = await provider.createCustomer(input);
    expect(retried.customerId).toBe(first.customerId);
    expect(emulator.callsWithKey(input.idempotencyKey)).toBe(2);
    expect(emulator.store.customers.get(first.customerId)).toMatchObject({ email: "maya@example.com", metadata: { uid: "uid-maya" } });
  });

  it("opens a subscription checkout for Launchpad and Star Power with our metadata on the session and the subscription", async () => {
    const { uid, customerId } = await member();
    const input = checkoutInput(customerId, uid, "star_power");
    const created = await provider.createProCheckout(input);
    const retried = await provider.createProCheckout(input);
    expect(retried).toEqual(created);
    expect(created.url).toBe(`${emulator.url}/checkout/pay/${created.checkoutId}`);
    expect(created.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const metadata = { purpose: "pro", uid, plan: "star_power" };
    expect(lastRequest("POST /v1/checkout/sessions").params).toEqual({
      mode: "subscription",
      customer: customerId,
      line_items: [{ price: prices.star_power, quantity: "1" }],
      client_reference_id: uid,
      metadata,
      subscription_data: { metadata },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    expect(emulator.callsWithKey(input.idempotencyKey)).toBe(2);

    await emulator.completeCheckout(created.checkoutId);
    const session = emulator.store.checkoutSessions.get(created.checkoutId)!;
    expect(emulator.store.subscriptions.get(session.subscription as string)?.metadata).toEqual(metadata);
  });

  it("opens a one-time payment checkout for Limitless with our metadata on the session and the payment", async () => {
    const { uid, customerId } = await member();
    const created = await provider.createProCheckout(checkoutInput(customerId, uid, "limitless"));
    const metadata = { purpose: "pro", uid, plan: "limitless" };
    expect(lastRequest("POST /v1/checkout/sessions").params).toMatchObject({
      mode: "payment",
      customer: customerId,
      line_items: [{ price: prices.limitless, quantity: "1" }],
      metadata,
      payment_intent_data: { metadata },
    });
    expect(lastRequest("POST /v1/checkout/sessions").params).not.toHaveProperty("subscription_data");
    await emulator.completeCheckout(created.checkoutId);
    const intent = emulator.store.paymentIntents.get(emulator.store.checkoutSessions.get(created.checkoutId)!.payment_intent as string)!;
    expect(intent).toMatchObject({ amount: 5_000, customer: customerId, metadata, transfer_data: null });
  });

  it("makes a billing portal link for the customer that returns to our page", async () => {
    const { customerId } = await paidMember("launchpad");
    const { url } = await provider.createPortalLink({ customerId, returnUrl: "http://localhost:3000/app/pro" });
    expect(lastRequest("POST /v1/billing_portal/sessions").params).toEqual({ customer: customerId, return_url: "http://localhost:3000/app/pro" });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Sponsorgrid Pro Launchpad");
    expect(html).toContain('href="http://localhost:3000/app/pro"');
  });

  it("reads an active subscription with its plan and the period end from its item", async () => {
    const { customerId, subscriptionId } = await paidMember("launchpad");
    const subscription = emulator.store.subscriptions.get(subscriptionId!)!;
    const item = subscription.items.data[0]!;
    expect(await provider.readProState(customerId)).toEqual({
      customerId,
      subscriptions: [
        { subscriptionId, plan: "launchpad", status: "active", currentPeriodEnd: new Date(item.current_period_end * 1000), cancelAtPeriodEnd: false, created: new Date(subscription.created * 1000) },
      ],
      lifetimePurchase: null,
    });
    expect(lastRequest("GET /v1/subscriptions").params).toMatchObject({ customer: customerId, status: "all", expand: ["data.items.data.price"] });
    // About a month on (calendar months are 28 to 31 days).
    const days = (item.current_period_end - item.current_period_start) / 86_400;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
  });

  it("reads a renewal: the period moves on and the subscription stays active", async () => {
    const { customerId, subscriptionId } = await paidMember("star_power");
    const before = (await provider.readProState(customerId)).subscriptions[0]!.currentPeriodEnd;
    const events = await emulator.advanceSubscription(subscriptionId!);
    expect(events.map((event) => event.type)).toEqual(["customer.subscription.updated", "invoice.paid"]);
    const after = (await provider.readProState(customerId)).subscriptions[0]!;
    expect(after).toMatchObject({ plan: "star_power", status: "active", cancelAtPeriodEnd: false });
    expect(after.currentPeriodEnd.getUTCFullYear()).toBe(before.getUTCFullYear() + 1);
  });

  it("reads a subscription cancelled at period end, then canceled once the period is over", async () => {
    const { customerId, subscriptionId } = await paidMember("launchpad");
    await stripe.subscriptions.update(subscriptionId!, { cancel_at_period_end: true });
    expect((await provider.readProState(customerId)).subscriptions[0]).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    const events = await emulator.advanceSubscription(subscriptionId!);
    expect(events.map((event) => event.type)).toEqual(["customer.subscription.deleted"]);
    expect((await provider.readProState(customerId)).subscriptions[0]).toMatchObject({ subscriptionId, status: "canceled" });
  });

  it("reads a declined renewal as past_due", async () => {
    const { customerId, subscriptionId } = await paidMember("launchpad");
    await emulator.setCardFailing(customerId, true);
    const events = await emulator.advanceSubscription(subscriptionId!);
    expect(events.map((event) => event.type)).toEqual(["invoice.payment_failed", "customer.subscription.updated"]);
    expect((await provider.readProState(customerId)).subscriptions[0]).toMatchObject({ status: "past_due", plan: "launchpad" });
  });

  it("reads a subscription cancelled at once as canceled", async () => {
    const { customerId, subscriptionId } = await paidMember("star_power");
    await stripe.subscriptions.cancel(subscriptionId!);
    expect((await provider.readProState(customerId)).subscriptions).toEqual([expect.objectContaining({ subscriptionId, status: "canceled", plan: "star_power" })]);
  });

  it("reads a paid Limitless purchase as lifetime, and no longer once it is refunded", async () => {
    const { customerId, paymentIntentId } = await paidMember("limitless");
    const state = await provider.readProState(customerId);
    expect(state.subscriptions).toEqual([]);
    expect(state.lifetimePurchase).toEqual({ paymentIntentId, paidAt: expect.any(Date) });
    expect(lastRequest("GET /v1/checkout/sessions").params).toMatchObject({ customer: customerId, status: "complete" });

    await stripe.refunds.create({ payment_intent: paymentIntentId! });
    expect((await provider.readProState(customerId)).lifetimePurchase).toBeNull();
  });

  it("does not count an unpaid or abandoned Limitless checkout as lifetime", async () => {
    const { uid, customerId } = await member();
    const abandoned = await provider.createProCheckout(checkoutInput(customerId, uid, "limitless"));
    await emulator.expireCheckout(abandoned.checkoutId);
    const open = await provider.createProCheckout(checkoutInput(customerId, uid, "limitless"));
    expect(open.checkoutId).not.toBe(abandoned.checkoutId);
    expect(await provider.readProState(customerId)).toEqual({ customerId, subscriptions: [], lifetimePurchase: null });
  });
});
