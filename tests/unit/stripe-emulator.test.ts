import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseForm } from "#tests/support/stripe-emulator/form";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { processingFee, startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";

let emulator: StripeEmulator;
let receiver: http.Server;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  emulator = await startStripeEmulator({ webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/webhooks/stripe` });
});
afterAll(async () => {
  await emulator.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const call = (path: string, init: { method?: string; body?: string; key?: string | null; idempotencyKey?: string } = {}) =>
  fetch(`${emulator.url}${path}`, {
    method: init.method ?? "POST",
    headers: {
      ...(init.key !== null && { Authorization: `Bearer ${init.key ?? emulator.apiKey}` }),
      "Content-Type": "application/x-www-form-urlencoded",
      ...(init.idempotencyKey && { "Idempotency-Key": init.idempotencyKey }),
    },
    body: init.body,
  });

async function onboardedAccount(): Promise<string> {
  const account = (await (await call("/v1/accounts", { body: "type=express&email=m%40example.com" })).json()) as { id: string };
  await emulator.completeOnboarding(account.id);
  return account.id;
}

const checkoutBody = (destination: string, amount = 1000) =>
  new URLSearchParams({
    mode: "payment",
    "line_items[0][quantity]": "1",
    "line_items[0][price_data][currency]": "usd",
    "line_items[0][price_data][unit_amount]": String(amount),
    "line_items[0][price_data][product_data][name]": "Tip",
    "payment_intent_data[transfer_data][destination]": destination,
    success_url: "http://app.example/success?session={CHECKOUT_SESSION_ID}",
    cancel_url: "http://app.example/cancelled",
  }).toString();

describe("Stripe API emulator", () => {
  it("reads Stripe's bracket notation, with indexed and empty-bracket lists", () => {
    expect(parseForm("a[b][c]=1&list[0]=x&list[1]=y&expand[]=p&expand[]=q&line_items[0][price_data][unit_amount]=5")).toEqual({
      a: { b: { c: "1" } },
      list: ["x", "y"],
      expand: ["p", "q"],
      line_items: [{ price_data: { unit_amount: "5" } }],
    });
  });

  it("refuses a missing or wrong API key with 401, as Stripe does", async () => {
    const none = await call("/v1/accounts/acct_x", { method: "GET", key: null });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    const wrong = await call("/v1/accounts/acct_x", { method: "GET", key: "sk_test_wrongwrongwrong" });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid API Key provided: sk_test_\*+rong$/);
  });

  it("answers 404 resource_missing for an unknown id and for an unknown URL", async () => {
    const missing = await call("/v1/payment_intents/pi_nope", { method: "GET" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "resource_missing", message: "No such payment_intent: 'pi_nope'", param: "id" } });
    expect((await call("/v1/payouts", { method: "GET" })).status).toBe(404);
  });

  it("replays a repeated idempotency key, refuses it with other parameters, and keeps nothing for a refused request", async () => {
    const destination = await onboardedAccount();
    const first = await call("/v1/checkout/sessions", { body: checkoutBody(destination), idempotencyKey: "checkout_row_9" });
    const again = await call("/v1/checkout/sessions", { body: checkoutBody(destination), idempotencyKey: "checkout_row_9" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());

    const other = await call("/v1/checkout/sessions", { body: checkoutBody(destination, 2000), idempotencyKey: "checkout_row_9" });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: { type: "idempotency_error" } });

    // Below Stripe's minimum: refused before running, so the key stays free for the corrected request.
    const tooSmall = await call("/v1/checkout/sessions", { body: checkoutBody(destination, 49), idempotencyKey: "checkout_row_10" });
    expect(tooSmall.status).toBe(400);
    expect((await call("/v1/checkout/sessions", { body: checkoutBody(destination, 50), idempotencyKey: "checkout_row_10" })).status).toBe(200);

    expect(emulator.callsWithKey("checkout_row_9")).toBe(3);
    expect(emulator.calls("POST /v1/checkout/sessions")).toBe(5);
  });

  it("delivers each event, signed for the configured secret, to the webhook URL", async () => {
    const accountId = await onboardedAccount();
    const delivered = received.at(-1)!;
    const event = Stripe.webhooks.constructEvent(delivered.body, delivered.headers["stripe-signature"] as string, emulator.webhookSecret);
    expect(event).toMatchObject({ type: "account.updated", account: accountId, data: { object: { id: accountId, charges_enabled: true } } });
    expect(emulator.deliveries.at(-1)).toMatchObject({ eventId: event.id, status: 200 });
  });

  it("serves a hosted checkout page where paying completes the session and returns to success_url", async () => {
    const destination = await onboardedAccount();
    const session = (await (await call("/v1/checkout/sessions", { body: checkoutBody(destination) })).json()) as { id: string; url: string };
    const page = await fetch(session.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Pay 10.00 USD");

    const paid = await fetch(session.url, { method: "POST", body: new URLSearchParams({ email: "sponsor@example.com" }), redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://app.example/success?session=${session.id}`);
    expect(emulator.store.checkoutSessions.get(session.id)).toMatchObject({ status: "complete", payment_status: "paid", customer_details: { email: "sponsor@example.com" } });
    const event = JSON.parse(received.at(-1)!.body) as Stripe.Event;
    expect(event).toMatchObject({ type: "checkout.session.completed", data: { object: { id: session.id } } });
    // A finished session's page is gone.
    expect((await fetch(session.url)).status).toBe(404);
  });

  it("serves an onboarding page that completes the account and returns to return_url", async () => {
    const account = (await (await call("/v1/accounts", { body: "type=express" })).json()) as { id: string };
    const link = (await (await call("/v1/account_links", { body: `account=${account.id}&type=account_onboarding&return_url=http%3A%2F%2Fapp.example%2Freturn&refresh_url=http%3A%2F%2Fapp.example%2Frefresh` })).json()) as { url: string };
    const submitted = await fetch(link.url, { method: "POST", redirect: "manual" });
    expect(submitted.headers.get("location")).toBe("http://app.example/return");
    expect(emulator.store.accounts.get(account.id)).toMatchObject({ charges_enabled: true, details_submitted: true });
  });

  it("holds a checkout without transfer_data on the platform; transfers from it lower the balance, each with its balance transaction, never beyond what remains of the charge", async () => {
    const stripe = createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url, maxNetworkRetries: 0 });
    const destination = await onboardedAccount();
    const held = { ...Object.fromEntries(new URLSearchParams(checkoutBody(destination, 10_000))), "payment_intent_data[transfer_group]": "deal_7" } as Record<string, string>;
    delete held["payment_intent_data[transfer_data][destination]"];
    const withFee = await call("/v1/checkout/sessions", { body: new URLSearchParams({ ...held, "payment_intent_data[application_fee_amount]": "100" }).toString() });
    expect(withFee.status).toBe(400);
    expect(await withFee.json()).toMatchObject({ error: { param: "payment_intent_data[application_fee_amount]" } });
    const session = (await (await call("/v1/checkout/sessions", { body: new URLSearchParams(held).toString() })).json()) as { id: string };
    const before = await stripe.balance.retrieve();
    await emulator.completeCheckout(session.id);
    const intent = await stripe.paymentIntents.retrieve(emulator.store.checkoutSessions.get(session.id)!.payment_intent as string, { expand: ["latest_charge"] });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({ amount: 10_000, transfer_data: null, transfer_group: "deal_7", application_fee: null });
    const net = 10_000 - processingFee(10_000);
    const pending = (balance: Stripe.Balance) => balance.pending.find((b) => b.currency === "usd")!.amount;
    const available = (balance: Stripe.Balance) => balance.available.find((b) => b.currency === "usd")!.amount;
    expect(pending(await stripe.balance.retrieve())).toBe(pending(before) + net);

    // Tied to its charge, a transfer draws on the charge's funds while they are pending.
    const first = await stripe.transfers.create({ amount: 6_000, currency: "usd", destination, source_transaction: charge.id, transfer_group: "deal_7" });
    expect(first).toMatchObject({ object: "transfer", amount: 6_000, destination, source_transaction: charge.id, transfer_group: "deal_7", reversed: false });
    const transaction = await stripe.balanceTransactions.retrieve(first.balance_transaction as string);
    expect(transaction).toMatchObject({ type: "transfer", amount: -6_000, fee: 0, net: -6_000, source: first.id, reporting_category: "transfer" });
    expect(pending(await stripe.balance.retrieve())).toBe(pending(before) + net - 6_000);
    expect(emulator.events.at(-1)).toMatchObject({ type: "transfer.created", data: { object: { id: first.id } } });

    // What remains of the charge is 4,000, less what is refunded.
    await stripe.refunds.create({ payment_intent: intent.id, amount: 1_000 });
    const over = await call("/v1/transfers", { body: `amount=3001&currency=usd&destination=${destination}&source_transaction=${charge.id}` });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ error: { type: "invalid_request_error", code: "balance_insufficient", param: "amount" } });
    const rest = await stripe.transfers.create({ amount: 3_000, currency: "usd", destination, source_transaction: charge.id });
    expect(rest.transfer_group).toBe("deal_7");
    const listed = await stripe.transfers.list({ transfer_group: "deal_7" });
    expect(listed.data.map((t) => t.id)).toEqual([rest.id, first.id]);
    expect((await stripe.transfers.retrieve(first.id)).amount).toBe(6_000);

    // Without a source, a transfer needs available funds: none until the charges' funds become available.
    const unbacked = await call("/v1/transfers", { body: `amount=100&currency=usd&destination=${destination}` });
    expect(unbacked.status).toBe(400);
    expect(await unbacked.json()).toMatchObject({ error: { code: "balance_insufficient" } });
    await emulator.makeFundsAvailable();
    const settled = await stripe.balance.retrieve();
    expect(pending(settled)).toBe(0);
    const plain = await stripe.transfers.create({ amount: 100, currency: "usd", destination });
    expect(available(await stripe.balance.retrieve())).toBe(available(settled) - 100);
    expect(plain.source_transaction).toBeNull();
  });

  it("takes control calls over HTTP for a test runner in another process", async () => {
    const destination = await onboardedAccount();
    const session = (await (await call("/v1/checkout/sessions", { body: checkoutBody(destination) })).json()) as { id: string };
    const response = await fetch(`${emulator.url}/__emulator/expireCheckout`, { method: "POST", body: JSON.stringify({ args: [session.id] }) });
    expect(((await response.json()) as { events: Stripe.Event[] }).events.map((event) => event.type)).toEqual(["checkout.session.expired"]);
    expect(emulator.store.checkoutSessions.get(session.id)?.status).toBe("expired");
  });
});
