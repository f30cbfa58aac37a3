import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeStandardFee } from "#server/providers/payments/sandbox/fees";
import type { HeldCheckoutInput, PaymentProvider, SponsorCheckoutInput } from "#server/providers/payments/port";
import { createStripeClient, STRIPE_API_VERSION } from "#server/providers/payments/stripe/client";
import { CHECKOUT_LIFETIME_MS, createStripeProvider } from "#server/providers/payments/stripe/provider";
import { startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";
import { stripeProviderOn } from "#tests/support/stripe-provider";

let emulator: StripeEmulator;
let provider: PaymentProvider;
let run = 0;
/** Keys unique to this run, as our row ids are unique. */
const key = (name: string) => `${name}_${run}_${Math.random().toString(36).slice(2, 10)}`;

beforeAll(async () => {
  emulator = await startStripeEmulator();
  provider = stripeProviderOn(emulator);
});
afterAll(() => emulator.close());

const lastRequest = (endpoint: string) => emulator.requests.filter((request) => request.endpoint === endpoint).at(-1)!;

async function onboardedAccount(): Promise<string> {
  run += 1;
  const { accountId } = await provider.createConnectedAccount({ idempotencyKey: key("account"), email: "maya@example.com", accountType: "individual", uid: `uid-${run}` });
  await emulator.completeOnboarding(accountId);
  return accountId;
}

function checkoutInput(destinationAccountId: string, overrides: Partial<SponsorCheckoutInput> = {}): SponsorCheckoutInput {
  const sessionId = key("row");
  return {
    idempotencyKey: `checkout_${sessionId}`,
    sessionId,
    destinationAccountId,
    amount: 2_500,
    currency: "usd",
    applicationFeeAmount: 125,
    productName: "Tip for Maya Makes",
    sponsorEmail: "sponsor@example.com",
    successUrl: "http://localhost:3000/app/payments/success?session={CHECKOUT_SESSION_ID}",
    cancelUrl: "http://localhost:3000/app/payments/cancelled",
    ...overrides,
  };
}

async function paidCheckout(accountId: string, amount = 2_500) {
  const created = await provider.createSponsorCheckout(checkoutInput(accountId, { amount }));
  await emulator.completeCheckout(created.checkoutId);
  const session = emulator.store.checkoutSessions.get(created.checkoutId)!;
  return { ...created, paymentIntentId: session.payment_intent as string };
}

describe("Stripe provider against the Stripe API emulator (real SDK, real HTTP)", () => {
  it("creates a Connect Express account with the person's email, type and uid, once per idempotency key", async () => {
    const idempotencyKey = key("account");
    const input = { idempotencyKey, email: "maya@example.com", accountType: "company" as const, uid: "uid-maya" };
    const first = await provider.createConnectedAccount(input);
    const retried = await provider.createConnectedAccount(input);

    expect(retried.accountId).toBe(first.accountId);
    expect(emulator.callsWithKey(idempotencyKey)).toBe(2);
    expect([...emulator.store.accounts.values()].filter((account) => account.metadata?.uid === "uid-maya")).toHaveLength(1);
    expect(lastRequest("POST /v1/accounts").params).toEqual({
      type: "express",
      email: "maya@example.com",
      business_type: "company",
      capabilities: { card_payments: { requested: "true" }, transfers: { requested: "true" } },
      metadata: { uid: "uid-maya" },
    });
  });

  it("reads an account as incomplete until onboarding turns charges on", async () => {
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: key("account"), email: "a@example.com", accountType: "individual", uid: "uid-a" });
    expect(await provider.readAccount(accountId)).toEqual({ accountId, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false });
    await emulator.completeOnboarding(accountId);
    expect(await provider.readAccount(accountId)).toEqual({ accountId, chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true });
  });

  it("makes onboarding links that return to our URLs, and login links once onboarded", async () => {
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: key("account"), email: "b@example.com", accountType: "individual", uid: "uid-b" });
    const link = await provider.createOnboardingLink({ accountId, returnUrl: "http://localhost:3000/app/payments/setup/return?state=s1", refreshUrl: "http://localhost:3000/app/payments/setup/refresh?state=s1" });
    expect(link.url).toMatch(new RegExp(`^${emulator.url}/connect/onboarding/`));
    expect(lastRequest("POST /v1/account_links").params).toEqual({
      account: accountId,
      type: "account_onboarding",
      return_url: "http://localhost:3000/app/payments/setup/return?state=s1",
      refresh_url: "http://localhost:3000/app/payments/setup/refresh?state=s1",
    });
    await expect(provider.createLoginLink({ accountId })).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await emulator.completeOnboarding(accountId);
    expect((await provider.createLoginLink({ accountId })).url).toBe(`${emulator.url}/express/${accountId}`);
  });

  it("creates a hosted checkout as a destination charge with our fee, row id and sponsor email", async () => {
    const accountId = await onboardedAccount();
    const input = checkoutInput(accountId);
    const before = Date.now();
    const created = await provider.createSponsorCheckout(input);

    expect(created.url).toBe(`${emulator.url}/checkout/pay/${created.checkoutId}`);
    expect(created.expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor((before + CHECKOUT_LIFETIME_MS) / 1000) * 1000);
    expect(created.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + CHECKOUT_LIFETIME_MS);
    const { params, idempotencyKey } = lastRequest("POST /v1/checkout/sessions");
    expect(idempotencyKey).toBe(input.idempotencyKey);
    expect(params).toEqual({
      mode: "payment",
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "2500", product_data: { name: "Tip for Maya Makes" } } }],
      payment_intent_data: { transfer_data: { destination: accountId }, application_fee_amount: "125", metadata: { session_id: input.sessionId } },
      client_reference_id: input.sessionId,
      metadata: { session_id: input.sessionId },
      customer_email: "sponsor@example.com",
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: String(Math.floor(created.expiresAt.getTime() / 1000)),
    });
  });

  it("leaves out a zero platform fee and a missing sponsor email", async () => {
    const accountId = await onboardedAccount();
    await provider.createSponsorCheckout(checkoutInput(accountId, { applicationFeeAmount: 0, sponsorEmail: null }));
    const { params } = lastRequest("POST /v1/checkout/sessions");
    expect(params.payment_intent_data).toEqual({ transfer_data: { destination: accountId }, metadata: { session_id: expect.any(String) } });
    expect(params).not.toHaveProperty("customer_email");
  });

  it("returns the same checkout for a retried request, and refuses the key for a different one", async () => {
    const accountId = await onboardedAccount();
    const input = checkoutInput(accountId);
    const first = await provider.createSponsorCheckout(input);
    const retried = await provider.createSponsorCheckout(input);

    expect(retried).toEqual(first);
    expect(emulator.requests.filter((request) => request.idempotencyKey === input.idempotencyKey).map((request) => request.replayed)).toEqual([false, true]);
    expect([...emulator.store.checkoutSessions.values()].filter((session) => session.client_reference_id === input.sessionId)).toHaveLength(1);
    await expect(provider.createSponsorCheckout({ ...input, amount: 9_900 })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("cannot take money for an account that has not finished onboarding", async () => {
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: key("account"), email: "c@example.com", accountType: "individual", uid: "uid-c" });
    await expect(provider.createSponsorCheckout(checkoutInput(accountId))).rejects.toThrow(/capabilities enabled: transfers/);
  });

  it("reads gross and Stripe's real fee from the payment's balance transaction", async () => {
    const accountId = await onboardedAccount();
    const paid = await paidCheckout(accountId, 2_500);
    const details = await provider.paymentDetails(paid.paymentIntentId);
    const session = emulator.store.checkoutSessions.get(paid.checkoutId)!;
    const charge = emulator.store.charges.get(emulator.store.paymentIntents.get(paid.paymentIntentId)!.latest_charge as string)!;

    expect(details).toEqual({ paymentIntentId: paid.paymentIntentId, chargeId: charge.id, gross: 2_500, providerFee: 103, currency: "usd" });
    expect(details.providerFee).toBe(stripeStandardFee(2_500, "usd"));
    expect(session.payment_status).toBe("paid");
    expect(lastRequest("GET /v1/payment_intents/:id").params).toEqual({ expand: ["latest_charge.balance_transaction"] });
  });

  it("refunds a payment in full, reversing the transfer and our fee, once per idempotency key", async () => {
    const accountId = await onboardedAccount();
    const paid = await paidCheckout(accountId);
    const idempotencyKey = `refund_${paid.checkoutId}`;
    const first = await provider.refundPayment({ idempotencyKey, paymentIntentId: paid.paymentIntentId });
    const retried = await provider.refundPayment({ idempotencyKey, paymentIntentId: paid.paymentIntentId });

    expect(first.status).toBe("succeeded");
    expect(retried).toEqual(first);
    expect(lastRequest("POST /v1/refunds").params).toEqual({ payment_intent: paid.paymentIntentId, reverse_transfer: "true", refund_application_fee: "true" });
    expect([...emulator.store.refunds.values()].filter((refund) => refund.payment_intent === paid.paymentIntentId)).toHaveLength(1);
    // Another key (or the same one after Stripe forgot it, 24 h on): Stripe refuses a second refund
    // of the charge, and the provider answers with the refund already made.
    const later = await provider.refundPayment({ idempotencyKey: key("refund"), paymentIntentId: paid.paymentIntentId });
    expect(later).toEqual(first);
    expect(emulator.requests.filter((request) => request.endpoint === "POST /v1/refunds").at(-1)?.status).toBe(400);
    expect([...emulator.store.refunds.values()].filter((refund) => refund.payment_intent === paid.paymentIntentId)).toHaveLength(1);
  });

  it("reports a refund that has not settled yet as pending", async () => {
    const accountId = await onboardedAccount();
    const paid = await paidCheckout(accountId);
    emulator.setRefundStatus("pending");
    try {
      expect((await provider.refundPayment({ idempotencyKey: key("refund"), paymentIntentId: paid.paymentIntentId })).status).toBe("pending");
    } finally {
      emulator.setRefundStatus("succeeded");
    }
  });

  describe("a deal's held payment (separate charges and transfers)", () => {
    function heldInput(overrides: Partial<HeldCheckoutInput> = {}): HeldCheckoutInput {
      const fundingId = key("funding");
      return {
        idempotencyKey: `deal_funding_${fundingId}`,
        fundingId,
        dealId: `deal-of-${fundingId}`,
        transferGroup: `deal_deal-of-${fundingId}`,
        amount: 10_000,
        currency: "usd",
        productName: "Deal with Maya Makes",
        sponsorEmail: "brand@example.com",
        successUrl: "http://localhost:3000/app/deals/d1?paid={CHECKOUT_SESSION_ID}",
        cancelUrl: "http://localhost:3000/app/deals/d1",
        ...overrides,
      };
    }
    async function paidHeld(overrides: Partial<HeldCheckoutInput> = {}) {
      const input = heldInput(overrides);
      const created = await provider.createHeldCheckout(input);
      const [completed] = await emulator.completeCheckout(created.checkoutId);
      const paymentIntentId = emulator.store.checkoutSessions.get(created.checkoutId)!.payment_intent as string;
      const { chargeId } = await provider.paymentDetails(paymentIntentId);
      return { input, ...created, completed: completed!, paymentIntentId, chargeId };
    }
    const parse = (event: Stripe.Event) => {
      const delivery = emulator.sign(event);
      const parsed = provider.parseWebhook(Buffer.from(delivery.payload), delivery.header);
      if (parsed.kind === "ERROR") throw new Error(parsed.message);
      return parsed.event;
    };

    it("opens a hosted checkout as a plain platform charge in the deal's transfer group: no transfer_data, no fee, purpose deal", async () => {
      const input = heldInput();
      const created = await provider.createHeldCheckout(input);
      expect(created.url).toBe(`${emulator.url}/checkout/pay/${created.checkoutId}`);
      const { params, idempotencyKey } = lastRequest("POST /v1/checkout/sessions");
      expect(idempotencyKey).toBe(input.idempotencyKey);
      const metadata = { purpose: "deal", deal_id: input.dealId, funding_id: input.fundingId };
      expect(params).toEqual({
        mode: "payment",
        line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "10000", product_data: { name: "Deal with Maya Makes" } } }],
        payment_intent_data: { transfer_group: input.transferGroup, metadata },
        client_reference_id: input.fundingId,
        metadata,
        customer_email: "brand@example.com",
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: String(Math.floor(created.expiresAt.getTime() / 1000)),
      });
      expect(await provider.createHeldCheckout(input)).toEqual(created);
      await expect(provider.createHeldCheckout({ ...input, amount: 9_000 })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    });

    it("is paid on the platform: checkout.completed says purpose deal with the funding id; paymentDetails reads the charge", async () => {
      const held = await paidHeld();
      expect(parse(held.completed)).toMatchObject({ type: "checkout.completed", purpose: "deal", sessionId: held.input.fundingId, paymentIntentId: held.paymentIntentId, paymentStatus: "paid", amount: 10_000 });
      expect(await provider.paymentDetails(held.paymentIntentId)).toEqual({ paymentIntentId: held.paymentIntentId, chargeId: held.chargeId, gross: 10_000, providerFee: stripeStandardFee(10_000, "usd"), currency: "usd" });
      const charge = emulator.store.charges.get(held.chargeId)!;
      expect(charge).toMatchObject({ transfer_data: null, application_fee_amount: null, transfer_group: held.input.transferGroup, metadata: { purpose: "deal", funding_id: held.input.fundingId } });
      expect(charge).not.toHaveProperty("transfer");
    });

    it("transfers part to the creator tied to its charge, refunds the rest, refuses the over-transfer; one transfer and one refund per key", async () => {
      const accountId = await onboardedAccount();
      const held = await paidHeld();
      const transfer = { idempotencyKey: key("deal_release"), destinationAccountId: accountId, amount: 7_000, currency: "usd", sourceChargeId: held.chargeId, transferGroup: held.input.transferGroup };
      const first = await provider.createTransfer(transfer);
      expect(first.transferId).toMatch(/^tr_/);
      expect(lastRequest("POST /v1/transfers")).toMatchObject({
        idempotencyKey: transfer.idempotencyKey,
        params: { amount: "7000", currency: "usd", destination: accountId, source_transaction: held.chargeId, transfer_group: held.input.transferGroup },
      });
      expect(await provider.createTransfer(transfer)).toEqual(first);
      expect(emulator.requests.filter((r) => r.idempotencyKey === transfer.idempotencyKey).map((r) => r.replayed)).toEqual([false, true]);
      const ofGroup = () => [...emulator.store.transfers.values()].filter((t) => t.transfer_group === held.input.transferGroup);
      expect(ofGroup()).toMatchObject([{ id: first.transferId, amount: 7_000, destination: accountId, source_transaction: held.chargeId }]);

      const over = provider.createTransfer({ ...transfer, idempotencyKey: key("deal_release"), amount: 3_001 });
      await expect(over).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      await expect(over).rejects.toMatchObject({ code: "balance_insufficient", statusCode: 400 });

      const refund = { idempotencyKey: key("deal_refund"), paymentIntentId: held.paymentIntentId, amount: 3_000 };
      const refunded = await provider.refundHeldPayment(refund);
      expect(refunded.status).toBe("succeeded");
      expect(lastRequest("POST /v1/refunds").params).toEqual({ payment_intent: held.paymentIntentId, amount: "3000" });
      expect(await provider.refundHeldPayment(refund)).toEqual(refunded);
      const refundsOf = () => [...emulator.store.refunds.values()].filter((r) => r.payment_intent === held.paymentIntentId);
      expect(refundsOf()).toMatchObject([{ id: refunded.refundId, amount: 3_000, transfer_reversal: null }]);
      // Nothing is left of the charge to transfer.
      await expect(provider.createTransfer({ ...transfer, idempotencyKey: key("deal_release"), amount: 1 })).rejects.toMatchObject({ code: "balance_insufficient" });
      expect(ofGroup()).toHaveLength(1);
      expect(refundsOf()).toHaveLength(1);
      expect(emulator.store.charges.get(held.chargeId)).toMatchObject({ amount_refunded: 3_000, refunded: false });
    });

    it("refuses a transfer to an account that cannot take it", async () => {
      const { accountId } = await provider.createConnectedAccount({ idempotencyKey: key("account"), email: "n@example.com", accountType: "individual", uid: "uid-new" });
      const held = await paidHeld();
      const attempt = provider.createTransfer({ idempotencyKey: key("deal_release"), destinationAccountId: accountId, amount: 1_000, currency: "usd", sourceChargeId: held.chargeId, transferGroup: held.input.transferGroup });
      await expect(attempt).rejects.toThrow(/capabilities enabled: transfers/);
      expect([...emulator.store.transfers.values()].filter((t) => t.source_transaction === held.chargeId)).toEqual([]);
    });

    it("lists the held charge with its funding id, its transfer and its refund among the balance transactions", async () => {
      const from = new Date(Date.now() - 1_000);
      const accountId = await onboardedAccount();
      const held = await paidHeld();
      const { transferId } = await provider.createTransfer({ idempotencyKey: key("deal_release"), destinationAccountId: accountId, amount: 8_000, currency: "usd", sourceChargeId: held.chargeId, transferGroup: held.input.transferGroup });
      const { refundId } = await provider.refundHeldPayment({ idempotencyKey: key("deal_refund"), paymentIntentId: held.paymentIntentId, amount: 2_000 });
      const rows = (await provider.listBalanceTransactions({ from, to: new Date(Date.now() + 2_000) })).filter((r) => r.paymentIntentId === held.paymentIntentId);
      expect(rows.map(({ type, amount, fee, sourceId, sessionId }) => ({ type, amount, fee, sourceId, sessionId })).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
        { type: "charge", amount: 10_000, fee: stripeStandardFee(10_000, "usd"), sourceId: held.chargeId, sessionId: held.input.fundingId },
        { type: "refund", amount: -2_000, fee: 0, sourceId: refundId, sessionId: null },
        { type: "transfer", amount: -8_000, fee: 0, sourceId: transferId, sessionId: null },
      ]);
      const { refundId: second } = await provider.refundHeldPayment({ idempotencyKey: key("deal_refund_2"), paymentIntentId: held.paymentIntentId, amount: 500 });
      // Oldest first, each with its own amount: what charge.refunded (which names no refund) stands for.
      expect(await provider.listRefunds(held.paymentIntentId)).toEqual([
        { refundId, amount: 2_000, currency: "usd", status: "succeeded" },
        { refundId: second, amount: 500, currency: "usd", status: "succeeded" },
      ]);
    });
  });

  it("pins the API version on every call", () => {
    expect(new Set(emulator.requests.map((request) => request.stripeVersion))).toEqual(new Set([STRIPE_API_VERSION]));
  });
});

describe("Stripe provider when Stripe is slow or refuses", () => {
  it("makes one refund however many concurrent requests ask, with one key or many", async () => {
    const slow = await startStripeEmulator({ latencyMs: 40 });
    try {
      const stripe = createStripeClient({ secretKey: slow.apiKey, apiUrl: slow.url, maxNetworkRetries: 5 });
      const slowProvider = createStripeProvider({ stripe, webhookSecrets: [slow.webhookSecret] });
      const { accountId } = await slowProvider.createConnectedAccount({ idempotencyKey: "account_slow", email: "s@example.com", accountType: "individual", uid: "uid-s" });
      await slow.completeOnboarding(accountId);
      const { checkoutId } = await slowProvider.createSponsorCheckout(checkoutInput(accountId));
      await slow.completeCheckout(checkoutId);
      const paymentIntentId = slow.store.checkoutSessions.get(checkoutId)!.payment_intent as string;

      const results = await Promise.all(Array.from({ length: 8 }, () => slowProvider.refundPayment({ idempotencyKey: "refund_row_1", paymentIntentId })));

      expect(new Set(results.map((result) => result.refundId)).size).toBe(1);
      expect(slow.store.refunds.size).toBe(1);
      // The ones that arrived while the first was running got 409 and were retried by the SDK.
      expect(slow.requests.filter((request) => request.endpoint === "POST /v1/refunds" && request.status === 409).length).toBeGreaterThan(0);

      // Processes that did not agree on a key: Stripe still refunds the charge once, and each gets that refund.
      const { checkoutId: other } = await slowProvider.createSponsorCheckout(checkoutInput(accountId));
      await slow.completeCheckout(other);
      const otherIntent = slow.store.checkoutSessions.get(other)!.payment_intent as string;
      const uncoordinated = await Promise.all(Array.from({ length: 8 }, (_, i) => slowProvider.refundPayment({ idempotencyKey: `refund_process_${i}`, paymentIntentId: otherIntent })));
      expect(new Set(uncoordinated.map((result) => result.refundId)).size).toBe(1);
      expect([...slow.store.refunds.values()].filter((refund) => refund.payment_intent === otherIntent)).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });

  it("fails with Stripe's authentication error for a wrong secret key", async () => {
    const stripe = createStripeClient({ secretKey: "sk_test_notTheEmulatorsKey", apiUrl: emulator.url, maxNetworkRetries: 0 });
    const wrong = createStripeProvider({ stripe, webhookSecrets: [emulator.webhookSecret] });
    await expect(wrong.readAccount("acct_anything")).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(emulator.requests.at(-1)?.status).toBe(401);
  });
});
