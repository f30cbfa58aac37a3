import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MembershipCheckoutInput, PaymentProvider } from "#server/providers/payments/port";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { createStripeProvider } from "#server/providers/payments/stripe/provider";
import { PRO_PLANS } from "#isomorphic/pro-plans";
import { startStripeEmulator, type EmulatorEvent, type StripeEmulator } from "#tests/support/stripe-emulator";

let emulator: StripeEmulator;
let stripe: Stripe;
let provider: PaymentProvider;
let accountId: string;
const unique = () => Math.random().toString(36).slice(2, 10);
const DECLINED_ON_CHARGE = "4000 0000 0000 0341";

beforeAll(async () => {
  emulator = await startStripeEmulator({ latencyMs: 5 });
  stripe = createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url });
  provider = createStripeProvider({ stripe, webhookSecrets: [emulator.webhookSecret] });
  ({ accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_memberships", email: "maya@example.com", accountType: "individual", uid: "uid-maya" }));
  await emulator.completeOnboarding(accountId);
});
afterAll(() => emulator.close());

function checkoutInput(membershipId: string, overrides: Partial<MembershipCheckoutInput> = {}): MembershipCheckoutInput {
  return {
    idempotencyKey: `membership_checkout_${membershipId}`,
    membershipId,
    destinationAccountId: accountId,
    amount: 500,
    currency: "usd",
    interval: "month",
    applicationFeePercent: 5,
    productName: "Gold membership · Maya Makes",
    memberEmail: "fan@example.com",
    successUrl: "http://localhost:3000/membership/welcome?checkout={CHECKOUT_SESSION_ID}",
    cancelUrl: "http://localhost:3000/maya",
    ...overrides,
  };
}

/** Pays on the emulator's hosted Checkout page as a person would: the form's email, then the redirect to our success URL. */
async function payOnHostedPage(url: string, email: string) {
  const page = await fetch(url);
  expect(await page.text()).toContain("Subscribe 5.00 USD");
  const response = await fetch(url, { method: "POST", body: new URLSearchParams({ email }), headers: { "Content-Type": "application/x-www-form-urlencoded" }, redirect: "manual" });
  expect(response.status).toBe(303);
  return response.headers.get("location");
}

/** A member who joined through Checkout: the membership row id, the checkout, the subscription and its customer. */
async function joined(overrides: Partial<MembershipCheckoutInput> = {}) {
  const membershipId = `mem-${unique()}`;
  const { checkoutId } = await provider.createMembershipCheckout(checkoutInput(membershipId, overrides));
  const events = await emulator.completeCheckout(checkoutId, { email: "fan@example.com" });
  const subscriptionId = (await provider.membershipSubscriptionOfCheckout(checkoutId))!;
  const customerId = emulator.store.subscriptions.get(subscriptionId)!.customer as string;
  return { membershipId, checkoutId, subscriptionId, customerId, events };
}

/** What parseWebhook answers to a signed delivery of the event. */
function parse(event: EmulatorEvent | undefined) {
  const delivery = emulator.sign(event!);
  const parsed = provider.parseWebhook(Buffer.from(delivery.payload), delivery.header);
  if (parsed.kind === "ERROR") throw new Error(`The delivery was refused: ${parsed.message}`);
  return parsed.event;
}

const lastRequest = (endpoint: string) => emulator.requests.filter((request) => request.endpoint === endpoint).at(-1)!;

describe("Memberships on Stripe against the emulator (real SDK, real HTTP)", () => {
  it("opens a subscription checkout paying the creator less the platform's percentage, once per key", async () => {
    const membershipId = `mem-${unique()}`;
    const input = checkoutInput(membershipId);
    const [first, again] = await Promise.all([provider.createMembershipCheckout(input), provider.createMembershipCheckout(input)]);
    expect(again).toEqual(first);
    expect(first.url).toMatch(/\/checkout\/pay\/cs_test_/);
    expect(first.expiresAt.getTime() - Date.now()).toBeGreaterThan(55 * 60 * 1000);
    const request = emulator.requests.find((each) => each.idempotencyKey === input.idempotencyKey && !each.replayed)!;
    expect(request.params).toMatchObject({
      mode: "subscription",
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "500", recurring: { interval: "month" }, product_data: { name: "Gold membership · Maya Makes" } } }],
      subscription_data: { transfer_data: { destination: accountId }, application_fee_percent: "5", metadata: { purpose: "membership", membership_id: membershipId } },
      metadata: { purpose: "membership", membership_id: membershipId },
      client_reference_id: membershipId,
      customer_email: "fan@example.com",
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    expect(await provider.membershipSubscriptionOfCheckout(first.checkoutId)).toBeNull();

    // Without a fee or a known email, neither is sent.
    await provider.createMembershipCheckout(checkoutInput(`mem-${unique()}`, { applicationFeePercent: 0, memberEmail: null }));
    const plain = lastRequest("POST /v1/checkout/sessions").params as { subscription_data: Record<string, unknown>; customer_email?: string };
    expect(plain.subscription_data.application_fee_percent).toBeUndefined();
    expect(plain.customer_email).toBeUndefined();
  });

  it("starts the subscription when the member pays on the hosted page: its first invoice paid by a destination charge", async () => {
    const membershipId = `mem-${unique()}`;
    const { checkoutId, url } = await provider.createMembershipCheckout(checkoutInput(membershipId));
    expect(await payOnHostedPage(url, "fan@example.com")).toBe(`http://localhost:3000/membership/welcome?checkout=${checkoutId}`);
    const subscriptionId = await provider.membershipSubscriptionOfCheckout(checkoutId);
    expect(subscriptionId).toMatch(/^sub_/);

    const state = await provider.readMembershipState(subscriptionId!);
    expect(state).toMatchObject({ subscriptionId, membershipId, status: "active", amount: 500, currency: "usd", interval: "month", cancelAtPeriodEnd: false, endedAt: null, customerEmail: "fan@example.com" });
    expect(state.customerId).toMatch(/^cus_/);
    expect(state.invoices).toHaveLength(1);
    const [first] = state.invoices;
    expect(first).toMatchObject({ status: "paid", amount: 500, currency: "usd", reason: "subscription_create" });
    expect(first!.periodEnd).toEqual(state.currentPeriodEnd);
    expect(first!.periodEnd.getTime()).toBeGreaterThan(first!.periodStart.getTime() + 27 * 86_400_000);
    expect(first!.paidAt).toBeInstanceOf(Date);

    // The invoice's payment is a destination charge like a tip's: its own payment intent, gross and fee readable, 5 % to us.
    const details = await provider.paymentDetails(first!.paymentIntentId!);
    expect(details).toMatchObject({ paymentIntentId: first!.paymentIntentId, gross: 500, currency: "usd" });
    expect(details.providerFee).toBeGreaterThan(0);
    const intent = await stripe.paymentIntents.retrieve(first!.paymentIntentId!);
    expect(intent).toMatchObject({ amount: 500, application_fee_amount: 25, transfer_data: { destination: accountId } });
    // Read the way the API version has it: the invoice's payments, asked for by expand.
    expect(lastRequest("GET /v1/invoices").params).toMatchObject({ subscription: subscriptionId, limit: "100", expand: ["data.payments"] });
  });

  it("renews: a second invoice for the next period with its own payment, refundable like a tip (transfer reversed, fee returned)", async () => {
    const from = new Date(Date.now() - 1_000);
    const { subscriptionId } = await joined();
    const before = await provider.readMembershipState(subscriptionId);
    const events = await emulator.advanceSubscription(subscriptionId);
    expect(events.map((event) => event.type)).toEqual(["customer.subscription.updated", "invoice.paid"]);

    const state = await provider.readMembershipState(subscriptionId);
    expect(state.status).toBe("active");
    expect(state.invoices).toHaveLength(2);
    const [first, renewal] = state.invoices;
    expect(renewal).toMatchObject({ status: "paid", amount: 500, reason: "subscription_cycle" });
    expect(renewal!.periodStart).toEqual(first!.periodEnd);
    expect(state.currentPeriodEnd).toEqual(renewal!.periodEnd);
    expect(state.currentPeriodEnd.getTime()).toBeGreaterThan(before.currentPeriodEnd.getTime());
    expect(renewal!.paymentIntentId).not.toBe(first!.paymentIntentId);

    const refund = await provider.refundPayment({ idempotencyKey: `refund_${renewal!.paymentIntentId}`, paymentIntentId: renewal!.paymentIntentId! });
    expect(refund.status).toBe("succeeded");
    expect(lastRequest("POST /v1/refunds").params).toMatchObject({ payment_intent: renewal!.paymentIntentId, reverse_transfer: "true", refund_application_fee: "true" });
    expect((await stripe.refunds.retrieve(refund.refundId)).transfer_reversal).toMatch(/^trr_/);

    // The balance listing (reconciliation) has the renewal's charge, our fee, the refund and the fee's return.
    const rows = await provider.listBalanceTransactions({ from, to: new Date(Date.now() + 2_000) });
    const ofRenewal = rows.filter((row) => row.paymentIntentId === renewal!.paymentIntentId).map((row) => [row.type, row.amount]);
    expect(ofRenewal.sort()).toEqual(
      [
        ["application_fee", 25],
        ["application_fee_refund", -25],
        ["charge", 500],
        ["refund", -500],
      ].sort(),
    );
    // And a renewal can be disputed like any charge.
    const [disputed] = await emulator.openDispute(first!.paymentIntentId!);
    expect(parse(disputed)).toMatchObject({ type: "dispute.changed", paymentIntentId: first!.paymentIntentId, amount: 500 });
  });

  it("reads every invoice, oldest first, through Stripe's pages of 100", async () => {
    const { subscriptionId } = await joined();
    for (let i = 0; i < 100; i += 1) await emulator.advanceSubscription(subscriptionId);
    const calls = emulator.calls("GET /v1/invoices");
    const state = await provider.readMembershipState(subscriptionId);
    expect(emulator.calls("GET /v1/invoices") - calls).toBe(2);
    expect(state.invoices).toHaveLength(101);
    expect(state.invoices[0]!.reason).toBe("subscription_create");
    for (let i = 1; i < state.invoices.length; i += 1) expect(state.invoices[i]!.periodStart).toEqual(state.invoices[i - 1]!.periodEnd);
    expect(new Set(state.invoices.map((invoice) => invoice.paymentIntentId)).size).toBe(101);
  });

  it("a declined renewal leaves the subscription past due with the invoice open; a new card in the portal pays it at once", async () => {
    const { membershipId, subscriptionId, customerId } = await joined();
    await emulator.updateCard(customerId, DECLINED_ON_CHARGE);
    const failed = await emulator.advanceSubscription(subscriptionId);
    expect(failed.map((event) => event.type)).toEqual(["invoice.payment_failed", "customer.subscription.updated"]);
    let state = await provider.readMembershipState(subscriptionId);
    expect(state.status).toBe("past_due");
    expect(state.invoices.at(-1)).toMatchObject({ status: "open", paymentIntentId: null, paidAt: null, reason: "subscription_cycle" });

    const returnUrl = "http://localhost:3000/membership/token-1";
    const { url } = await provider.createMembershipCardLink({ customerId, subscriptionId, returnUrl });
    expect(lastRequest("POST /v1/billing_portal/sessions").params).toMatchObject({
      customer: customerId,
      return_url: returnUrl,
      flow_data: { type: "payment_method_update", after_completion: { type: "redirect", redirect: { return_url: returnUrl } } },
    });
    expect(await (await fetch(url)).text()).toContain("Update payment method");
    const saved = await fetch(`${url}/card`, { method: "POST", body: new URLSearchParams({ card: "4242 4242 4242 4242" }), headers: { "Content-Type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    expect(saved.headers.get("location")).toBe(returnUrl);

    state = await provider.readMembershipState(subscriptionId);
    expect(state.status).toBe("active");
    const paid = state.invoices.at(-1)!;
    expect(paid).toMatchObject({ status: "paid", amount: 500 });
    expect((await provider.paymentDetails(paid.paymentIntentId!)).gross).toBe(500);
    const [invoicePaid, updated] = emulator.events.slice(-2);
    expect(parse(invoicePaid)).toMatchObject({ type: "membership.changed", membershipId, subscriptionId, cause: "invoice.paid" });
    expect(parse(updated)).toMatchObject({ type: "membership.changed", membershipId, subscriptionId, cause: "subscription.updated" });
  });

  it("ends the membership once the retries of a declined renewal give up", async () => {
    const { membershipId, subscriptionId, customerId } = await joined();
    await emulator.setCardFailing(customerId, true);
    await emulator.advanceSubscription(subscriptionId);
    expect((await emulator.advanceSubscription(subscriptionId)).map((event) => event.type)).toEqual(["invoice.payment_failed"]);
    await emulator.advanceSubscription(subscriptionId);
    const last = await emulator.advanceSubscription(subscriptionId);
    expect(last.map((event) => event.type)).toEqual(["invoice.payment_failed", "customer.subscription.deleted"]);
    expect(parse(last[1])).toMatchObject({ type: "membership.changed", membershipId, subscriptionId, checkoutId: null, cause: "subscription.deleted" });
    const state = await provider.readMembershipState(subscriptionId);
    expect(state).toMatchObject({ status: "canceled", cancelAtPeriodEnd: false });
    expect(state.endedAt).toBeInstanceOf(Date);
    expect(state.invoices.map((invoice) => invoice.status)).toEqual(["paid", "uncollectible"]);
  });

  it("cancels at the period's end and resumes, each once per key", async () => {
    const { subscriptionId } = await joined();
    await provider.setMembershipCancelAtPeriodEnd({ idempotencyKey: `cancel_${subscriptionId}`, subscriptionId, cancelAtPeriodEnd: true });
    await provider.setMembershipCancelAtPeriodEnd({ idempotencyKey: `cancel_${subscriptionId}`, subscriptionId, cancelAtPeriodEnd: true });
    expect(emulator.requests.filter((request) => request.idempotencyKey === `cancel_${subscriptionId}`).map((request) => request.replayed)).toEqual([false, true]);
    expect(await provider.readMembershipState(subscriptionId)).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    await provider.setMembershipCancelAtPeriodEnd({ idempotencyKey: `resume_${subscriptionId}`, subscriptionId, cancelAtPeriodEnd: false });
    expect(await provider.readMembershipState(subscriptionId)).toMatchObject({ status: "active", cancelAtPeriodEnd: false });

    await provider.setMembershipCancelAtPeriodEnd({ idempotencyKey: `cancel2_${subscriptionId}`, subscriptionId, cancelAtPeriodEnd: true });
    await emulator.advanceSubscription(subscriptionId);
    const ended = await provider.readMembershipState(subscriptionId);
    expect(ended.status).toBe("canceled");
    expect(ended.endedAt).toEqual(ended.currentPeriodEnd);
    expect(ended.invoices).toHaveLength(1);
  });

  it("changes the price and the interval from the next renewal, with a product named for the new tier, once per key", async () => {
    const { subscriptionId } = await joined();
    const change = { idempotencyKey: `price_${subscriptionId}`, subscriptionId, amount: 900, interval: "month" as const, productName: "Platinum membership · Maya Makes" };
    await provider.changeMembershipPrice(change);
    await provider.changeMembershipPrice(change);
    expect(emulator.requests.filter((request) => request.endpoint === "POST /v1/products" && request.idempotencyKey === `${change.idempotencyKey}_product` && !request.replayed)).toHaveLength(1);
    expect(lastRequest("POST /v1/subscriptions/:id").params).toMatchObject({ proration_behavior: "none", items: [{ price_data: { currency: "usd", unit_amount: "900", recurring: { interval: "month" } } }] });

    let state = await provider.readMembershipState(subscriptionId);
    expect(state).toMatchObject({ amount: 900, interval: "month", status: "active" });
    expect(state.invoices).toHaveLength(1);
    const subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ["items.data.price.product"] });
    expect((subscription.items.data[0]!.price.product as Stripe.Product).name).toBe("Platinum membership · Maya Makes");

    await emulator.advanceSubscription(subscriptionId);
    state = await provider.readMembershipState(subscriptionId);
    expect(state.invoices.map((invoice) => [invoice.reason, invoice.amount])).toEqual([
      ["subscription_create", 500],
      ["subscription_cycle", 900],
    ]);
    const intent = await stripe.paymentIntents.retrieve(state.invoices[1]!.paymentIntentId!);
    expect(intent.application_fee_amount).toBe(45);

    // The same name keeps the product; a yearly switch charges nothing now: the paid month runs out as a
    // trial (trial_end), and the yearly price is first charged when it would have renewed.
    const products = emulator.store.products.size;
    const monthEnds = state.currentPeriodEnd.getTime();
    await provider.changeMembershipPrice({ ...change, idempotencyKey: `yearly_${subscriptionId}`, amount: 9_000, interval: "year" });
    expect(emulator.store.products.size).toBe(products);
    expect(lastRequest("POST /v1/subscriptions/:id").params).toMatchObject({ trial_end: String(monthEnds / 1000) });
    state = await provider.readMembershipState(subscriptionId);
    expect(state).toMatchObject({ amount: 9_000, interval: "year", status: "trialing" });
    expect(state.invoices).toHaveLength(2);
    expect(state.currentPeriodEnd.getTime()).toBe(monthEnds);

    await emulator.advanceSubscription(subscriptionId);
    state = await provider.readMembershipState(subscriptionId);
    expect(state).toMatchObject({ status: "active", interval: "year" });
    expect(state.invoices.at(-1)).toMatchObject({ reason: "subscription_cycle", amount: 9_000, status: "paid" });
    expect(state.currentPeriodEnd.getTime() - monthEnds).toBeGreaterThan(360 * 86_400_000);
  });

  it("ends now without a refund, and ending an ended one does nothing", async () => {
    const { subscriptionId } = await joined();
    await provider.endMembershipNow({ idempotencyKey: `end_${subscriptionId}`, subscriptionId });
    expect(lastRequest("DELETE /v1/subscriptions/:id").params).toMatchObject({ prorate: "false", invoice_now: "false" });
    const state = await provider.readMembershipState(subscriptionId);
    expect(state.status).toBe("canceled");
    expect(state.endedAt).toBeInstanceOf(Date);
    const deletes = emulator.calls("DELETE /v1/subscriptions/:id");
    await provider.endMembershipNow({ idempotencyKey: `end_again_${subscriptionId}`, subscriptionId });
    expect(emulator.calls("DELETE /v1/subscriptions/:id")).toBe(deletes);
    const paidIntent = state.invoices[0]!.paymentIntentId;
    expect([...emulator.store.refunds.values()].filter((refund) => refund.payment_intent === paidIntent)).toEqual([]);
  });
});

describe("Stripe's membership events → membership.changed", () => {
  it("maps the checkout, subscription and invoice events of a membership, naming our row and the subscription", async () => {
    const { membershipId, checkoutId, subscriptionId, customerId, events } = await joined();
    const [completed, created, paid] = events;
    const base = (event: EmulatorEvent | undefined) => ({ provider: "stripe", eventId: event!.id, occurredAt: new Date(event!.created * 1000), type: "membership.changed", membershipId });
    expect(parse(completed)).toEqual({ ...base(completed), subscriptionId, checkoutId, cause: "checkout.completed" });
    expect(parse(created)).toEqual({ ...base(created), subscriptionId, checkoutId: null, cause: "subscription.created" });
    expect(parse(paid)).toEqual({ ...base(paid), subscriptionId, checkoutId: null, cause: "invoice.paid" });

    await emulator.setCardFailing(customerId, true);
    const [failed, pastDue] = await emulator.advanceSubscription(subscriptionId);
    expect(parse(failed)).toEqual({ ...base(failed), subscriptionId, checkoutId: null, cause: "invoice.payment_failed" });
    expect(parse(pastDue)).toEqual({ ...base(pastDue), subscriptionId, checkoutId: null, cause: "subscription.updated" });
    await provider.endMembershipNow({ idempotencyKey: `end_${subscriptionId}`, subscriptionId });
    await emulator.idle();
    const deleted = emulator.events.at(-1);
    expect(parse(deleted)).toEqual({ ...base(deleted), subscriptionId, checkoutId: null, cause: "subscription.deleted" });

    const abandonedId = `mem-${unique()}`;
    const abandoned = await provider.createMembershipCheckout(checkoutInput(abandonedId));
    const [expired] = await emulator.expireCheckout(abandoned.checkoutId);
    expect(parse(expired)).toEqual({ ...base(expired), membershipId: abandonedId, subscriptionId: null, checkoutId: abandoned.checkoutId, cause: "checkout.expired" });
  });

  it("leaves Pro's subscription and invoice events as pro.customer_changed", async () => {
    const prices = await provider.ensureProPrices([{ plan: "launchpad", lookupKey: PRO_PLANS.launchpad.lookupKey, productName: "Launchpad", amount: PRO_PLANS.launchpad.amount, currency: "usd", interval: PRO_PLANS.launchpad.interval }]);
    const uid = `uid-${unique()}`;
    const { customerId } = await provider.createCustomer({ idempotencyKey: `customer_${uid}`, uid, email: `${uid}@example.com` });
    const { checkoutId } = await provider.createProCheckout({
      idempotencyKey: `pro_checkout_${uid}`,
      customerId,
      uid,
      plan: "launchpad",
      priceId: prices.launchpad,
      mode: "subscription",
      successUrl: "http://localhost:3000/app/pro/success",
      cancelUrl: "http://localhost:3000/app/pro",
    });
    const [completed, created, paid] = await emulator.completeCheckout(checkoutId);
    const subscriptionId = emulator.store.checkoutSessions.get(checkoutId)!.subscription as string;
    const [renewed, renewalPaid] = await emulator.advanceSubscription(subscriptionId);
    const causes = [completed, created, paid, renewed, renewalPaid].map((event) => parse(event));
    expect(causes).toEqual(
      [completed, created, paid, renewed, renewalPaid].map((event, index) => ({
        provider: "stripe",
        eventId: event!.id,
        occurredAt: new Date(event!.created * 1000),
        type: "pro.customer_changed",
        customerId,
        cause: ["checkout.completed", "subscription.created", "invoice.paid", "subscription.updated", "invoice.paid"][index],
      })),
    );
  });
});
