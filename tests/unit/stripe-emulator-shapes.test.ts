import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";
import { fixture, type FixtureName } from "#tests/support/stripe-emulator/fixtures";

/**
 * Every object the emulator answers with carries all the fields of Stripe's
 * published fixture for its resource, with the fixture's JSON types, so code
 * that works against the emulator reads real Stripe objects the same way.
 * Allowed differences, each one Stripe's own: a field the fixture shows as
 * null may hold any type (the fixture says nothing of it); a field may be null
 * where the fixture has a value (every such override is typed with the
 * `stripe` package's types, so the compiler has checked it is nullable); an
 * id string may stand where the fixture shows the expanded object and the
 * object where it shows the id (`expand[]`); a decimal string may arrive as
 * the SDK's Decimal object (it parses `*_decimal` fields); extra fields are fine.
 */
function shapeProblems(expected: unknown, actual: unknown, path: string): string[] {
  if (expected === null || expected === undefined || actual === null) return [];
  if (typeof actual === "string" && expected && typeof expected === "object" && "id" in expected) return [];
  // An expanded reference (`expand[]`): the object itself is kept and checked against its own fixture.
  if (typeof expected === "string" && actual && typeof actual === "object" && "id" in actual && "object" in actual) return [];
  // A decimal string (`unit_amount_decimal`) comes out of the SDK as its Decimal object; the wire has the string.
  if (typeof expected === "string" && /^-?\d+(\.\d+)?$/.test(expected) && actual && typeof actual === "object" && /^-?\d+(\.\d+)?$/.test(String(actual))) return [];
  const kind = (value: unknown) => (Array.isArray(value) ? "array" : typeof value);
  if (kind(expected) !== kind(actual)) return [`${path}: ${kind(actual)} where Stripe has ${kind(expected)}`];
  if (Array.isArray(expected)) {
    const sample = expected[0];
    return sample === undefined ? [] : (actual as unknown[]).flatMap((item, i) => shapeProblems(sample, item, `${path}[${i}]`));
  }
  if (typeof expected !== "object") return [];
  return Object.entries(expected as Record<string, unknown>).flatMap(([key, value]) => {
    const field = `${path}.${key}`;
    if (!(key in (actual as object))) return [`${field}: missing`];
    if (key === "object" && (actual as Record<string, unknown>)[key] !== value) return [`${field}: ${String((actual as Record<string, unknown>)[key])}, not ${String(value)}`];
    // An event's data.object is the resource the event is about, checked against that resource's fixture.
    if (path === "event" && key === "data") return [];
    return shapeProblems(value, (actual as Record<string, unknown>)[key], field);
  });
}

let emulator: StripeEmulator;
let stripe: Stripe;
const seen: { resource: FixtureName; label: string; object: unknown }[] = [];
const keep = <T>(resource: FixtureName, label: string, object: T): T => (seen.push({ resource, label, object }), object);

beforeAll(async () => {
  emulator = await startStripeEmulator();
  stripe = createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url });

  // One of everything, through the real SDK, as the product will ask for it.
  const account = keep("account", "new Express account", await stripe.accounts.create({ type: "express", email: "m@example.com", business_type: "individual", metadata: { uid: "u" } }));
  keep("account_link", "onboarding link", await stripe.accountLinks.create({ account: account.id, type: "account_onboarding", return_url: "http://x/r", refresh_url: "http://x/f" }));
  await emulator.completeOnboarding(account.id);
  keep("account", "onboarded account", await stripe.accounts.retrieve(account.id));
  keep("login_link", "login link", await stripe.accounts.createLoginLink(account.id));

  const create = (email?: string) =>
    stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 1_000, product_data: { name: "Tip" } } }],
      payment_intent_data: { transfer_data: { destination: account.id }, application_fee_amount: 50 },
      client_reference_id: "row-1",
      metadata: { session_id: "row-1" },
      ...(email && { customer_email: email }),
      success_url: "http://x/s",
      cancel_url: "http://x/c",
    });
  const open = keep("checkout.session", "open checkout", await create("s@example.com"));
  await emulator.completeCheckout(open.id);
  const paid = keep("checkout.session", "paid checkout", await stripe.checkout.sessions.retrieve(open.id));
  const expired = await create();
  await emulator.expireCheckout(expired.id);
  keep("checkout.session", "expired checkout", await stripe.checkout.sessions.retrieve(expired.id));

  const intent = keep("payment_intent", "paid payment intent", await stripe.paymentIntents.retrieve(paid.payment_intent as string));
  const expanded = await stripe.paymentIntents.retrieve(intent.id, { expand: ["latest_charge.balance_transaction"] });
  const charge = keep("charge", "expanded charge", expanded.latest_charge as Stripe.Charge);
  keep("balance_transaction", "expanded balance transaction", charge.balance_transaction);
  const plainCharge = keep("charge", "charge", await stripe.charges.retrieve(charge.id));
  keep("balance_transaction", "charge's balance transaction", await stripe.balanceTransactions.retrieve(plainCharge.balance_transaction as string));

  const refund = keep("refund", "refund", await stripe.refunds.create({ payment_intent: intent.id, reverse_transfer: true, refund_application_fee: true }));
  keep("balance_transaction", "refund's balance transaction", await stripe.balanceTransactions.retrieve(refund.balance_transaction as string));
  keep("charge", "refunded charge", await stripe.charges.retrieve(charge.id));

  const second = await create();
  await emulator.completeCheckout(second.id);
  const [disputeEvent] = await emulator.openDispute(emulator.store.checkoutSessions.get(second.id)!.payment_intent as string);
  keep("dispute", "dispute", await stripe.disputes.retrieve((disputeEvent!.data.object as Stripe.Dispute).id));

  // A deal's held payment: a platform charge in a transfer group, part of it transferred to the account.
  const held = await stripe.checkout.sessions.create({
    mode: "payment",
    line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 5_000, product_data: { name: "Deal" } } }],
    payment_intent_data: { transfer_group: "deal_1", metadata: { purpose: "deal", deal_id: "1", funding_id: "f1" } },
    client_reference_id: "f1",
    metadata: { purpose: "deal", deal_id: "1", funding_id: "f1" },
    success_url: "http://x/s",
  });
  await emulator.completeCheckout(held.id);
  const heldIntent = keep("payment_intent", "held payment intent", await stripe.paymentIntents.retrieve(emulator.store.checkoutSessions.get(held.id)!.payment_intent as string));
  const transfer = keep("transfer", "transfer", await stripe.transfers.create({ amount: 3_000, currency: "usd", destination: account.id, source_transaction: heldIntent.latest_charge as string, transfer_group: "deal_1" }));
  keep("balance_transaction", "transfer's balance transaction", await stripe.balanceTransactions.retrieve(transfer.balance_transaction as string));
  keep("transfer", "listed transfer", (await stripe.transfers.list({ transfer_group: "deal_1" })).data[0]);
  keep("refund", "partial refund of a held charge", await stripe.refunds.create({ payment_intent: heldIntent.id, amount: 1_000 }));
  keep("balance", "platform balance", await stripe.balance.retrieve());

  // Pro membership on Stripe Billing: a product and price by lookup key, a customer, a subscription checkout, the portal.
  const product = keep("product", "product", await stripe.products.create({ name: "Launchpad", metadata: { purpose: "pro" } }));
  keep("price", "monthly price", await stripe.prices.create({ product: product.id, currency: "usd", unit_amount: 200, lookup_key: "shape_monthly", recurring: { interval: "month" } }));
  const once = keep("price", "one-time price", await stripe.prices.create({ product: product.id, currency: "usd", unit_amount: 5_000, lookup_key: "shape_once" }));
  const listed = await stripe.prices.list({ lookup_keys: ["shape_monthly"], active: true, expand: ["data.product"] });
  keep("price", "listed price", listed.data[0]);
  keep("product", "expanded product", listed.data[0]!.product);
  const customer = keep("customer", "customer", await stripe.customers.create({ email: "m@example.com", metadata: { uid: "u" } }));
  const subscribe = keep(
    "checkout.session",
    "subscription checkout",
    await stripe.checkout.sessions.create({ mode: "subscription", customer: customer.id, line_items: [{ price: listed.data[0]!.id, quantity: 1 }], success_url: "http://x/s" }),
  );
  await emulator.completeCheckout(subscribe.id);
  const subscribed = keep("checkout.session", "paid subscription checkout", await stripe.checkout.sessions.retrieve(subscribe.id));
  const subscription = keep("subscription", "subscription", await stripe.subscriptions.retrieve(subscribed.subscription as string));
  keep("invoice", "first invoice", await stripe.invoices.retrieve(subscription.latest_invoice as string));
  await emulator.advanceSubscription(subscription.id);
  await emulator.setCardFailing(customer.id, true);
  await emulator.advanceSubscription(subscription.id);
  keep("invoice", "declined renewal invoice", await stripe.invoices.retrieve((await stripe.subscriptions.retrieve(subscription.id)).latest_invoice as string));
  await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
  await emulator.advanceSubscription(subscription.id);
  const subscriptions = await stripe.subscriptions.list({ customer: customer.id, status: "all", expand: ["data.items.data.price"] });
  keep("subscription", "ended subscription, listed", subscriptions.data[0]);
  keep("billing_portal.session", "portal session", await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://x/r" }));
  const lifetime = await stripe.checkout.sessions.create({ mode: "payment", customer: customer.id, line_items: [{ price: once.id, quantity: 1 }], success_url: "http://x/s" });
  await emulator.completeCheckout(lifetime.id);
  const completed = await stripe.checkout.sessions.list({ customer: customer.id, status: "complete" });
  keep("checkout.session", "listed one-time checkout", completed.data[0]);
  const platformIntent = await stripe.paymentIntents.retrieve(completed.data[0]!.payment_intent as string, { expand: ["latest_charge"] });
  keep("payment_intent", "platform payment intent", platformIntent);
  keep("charge", "platform charge", platformIntent.latest_charge);

  // A membership: a subscription checkout with an inline price paying the account, its invoices with their payments.
  const membership = await stripe.checkout.sessions.create({
    mode: "subscription",
    line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 500, recurring: { interval: "month" }, product_data: { name: "Gold" } } }],
    subscription_data: { transfer_data: { destination: account.id }, application_fee_percent: 5, metadata: { purpose: "membership", membership_id: "m1" } },
    metadata: { purpose: "membership", membership_id: "m1" },
    customer_email: "fan@example.com",
    success_url: "http://x/s",
  });
  await emulator.completeCheckout(membership.id);
  const memberSubscriptionId = (await stripe.checkout.sessions.retrieve(membership.id)).subscription as string;
  keep("subscription", "membership subscription", await stripe.subscriptions.retrieve(memberSubscriptionId, { expand: ["customer"] }));
  await emulator.advanceSubscription(memberSubscriptionId);
  const memberInvoices = await stripe.invoices.list({ subscription: memberSubscriptionId, expand: ["data.payments"] });
  for (const invoice of memberInvoices.data) keep("invoice", "membership invoice with its payments", invoice);
  keep("invoice_payment", "invoice payment", memberInvoices.data[0]!.payments!.data[0]);
  keep("invoice_payment", "listed invoice payment", (await stripe.invoicePayments.list({ invoice: memberInvoices.data[0]!.id })).data[0]);
  const renewalIntent = await stripe.paymentIntents.retrieve(memberInvoices.data[0]!.payments!.data[0]!.payment.payment_intent as string, { expand: ["latest_charge"] });
  keep("payment_intent", "renewal payment intent", renewalIntent);
  keep("charge", "renewal charge", renewalIntent.latest_charge);
  keep("billing_portal.session", "card update portal session", await stripe.billingPortal.sessions.create({ customer: customer.id, flow_data: { type: "payment_method_update" } }));

  await emulator.idle();
  for (const event of emulator.events) {
    // As delivered: the signed JSON body, parsed.
    const delivered = JSON.parse(emulator.sign(event).payload) as Stripe.Event;
    keep("event", `${event.type} event`, delivered);
    const object = delivered.data.object as { object: string };
    keep(object.object as FixtureName, `${event.type}'s data.object`, object);
  }
});
afterAll(() => emulator.close());

describe("Stripe API emulator objects follow Stripe's published fixtures", () => {
  it("covers every resource the product reads", () => {
    expect(new Set(seen.map((entry) => entry.resource))).toEqual(
      new Set([
        ...["account", "account_link", "login_link", "checkout.session", "payment_intent", "charge", "balance_transaction", "refund", "dispute", "event", "transfer", "balance"],
        ...["product", "price", "customer", "subscription", "invoice", "billing_portal.session", "invoice_payment"],
      ]),
    );
  });

  it("has every fixture field, with the fixture's type, on each object", () => {
    const problems = seen.flatMap(({ resource, label, object }) => shapeProblems(fixture(resource), object, resource).map((problem) => `${label}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it("finds a missing field, a wrong type and a wrong object name (the check itself works)", () => {
    const refund = structuredClone(seen.find((entry) => entry.resource === "refund")!.object) as Record<string, unknown>;
    delete refund.currency;
    refund.amount = "100";
    refund.object = "charge";
    expect(shapeProblems(fixture("refund"), refund, "refund")).toEqual(["refund.amount: string where Stripe has number", "refund.currency: missing", "refund.object: charge, not refund"]);
  });
});
