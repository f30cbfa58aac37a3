import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { startTestReceiver } from "#tests/support/sandbox-webhook-receiver";
import { sandboxCheckouts, sandboxEvents, sandboxPayments, sandboxRefunds } from "#server/providers/payments/sandbox/schema";
import type { SponsorCheckoutInput } from "#server/providers/payments/port";
import { expireDueCheckouts } from "./checkouts";
import { readSandboxDashboard } from "./dashboard";
import { SandboxRequestError } from "./errors";
import { isSandboxId } from "./ids";
import { payCheckout, type PaymentForm } from "./pay";
import { createSandboxProvider, type SandboxProvider } from "./provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const ORIGIN = "http://app.test";
const SECRET = "a-session-secret-of-at-least-32-characters";
const CARD: PaymentForm = { email: "fan@example.com", number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", postalCode: "94107" };

describe.each(ENGINES)("sandbox provider on %s", (engine) => {
  const database = migratedDatabase(engine);
  const clock = { now: new Date("2026-11-22T18:00:00Z") };
  let sandbox: SandboxProvider;
  let receiver: Awaited<ReturnType<typeof startTestReceiver>>;
  let accountId: string;
  let serial = 0;

  const checkoutInput = (overrides: Partial<SponsorCheckoutInput> = {}): SponsorCheckoutInput => {
    serial += 1;
    return {
      idempotencyKey: `checkout_s${serial}`,
      sessionId: `s${serial}`,
      destinationAccountId: accountId,
      amount: 2500,
      currency: "usd",
      applicationFeeAmount: 0,
      productName: "Tip for Maya Makes",
      sponsorEmail: "fan@example.com",
      successUrl: `${ORIGIN}/app/payments/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ORIGIN}/app/payments/cancelled`,
      ...overrides,
    };
  };
  const events = async (type: string) => (await database.db.select().from(sandboxEvents).where(eq(sandboxEvents.type, type))).map((row) => row.payload);

  beforeAll(async () => {
    // The receiver checks signatures with a provider of its own: what our webhook route will do.
    receiver = await startTestReceiver((raw, header) => sandbox.parseWebhook(raw, header));
    sandbox = createSandboxProvider({ db: database.db, config: { PUBLIC_ORIGIN: ORIGIN }, sessionSecret: SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, now: () => clock.now, webhookUrl: receiver.url });
    accountId = (await sandbox.createConnectedAccount({ idempotencyKey: "account_u1", email: "maya@example.com", accountType: "individual", uid: "u1" })).accountId;
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  it("creates a connected account once per idempotency key, not yet able to take charges", async () => {
    expect(isSandboxId("acct", accountId)).toBe(true);
    const again = await sandbox.createConnectedAccount({ idempotencyKey: "account_u1", email: "maya@example.com", accountType: "individual", uid: "u1" });
    expect(again.accountId).toBe(accountId);
    const same = await Promise.all(
      Array.from({ length: 5 }, () => sandbox.createConnectedAccount({ idempotencyKey: "account_u2", email: "j@example.com", accountType: "company", uid: "u2" })),
    );
    expect(new Set(same.map((a) => a.accountId)).size).toBe(1);
    expect(await sandbox.readAccount(accountId)).toEqual({ accountId, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false });
    await expect(sandbox.readAccount("acct_sbx_nothing")).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("refuses a checkout and a login link before onboarding, and links only back to our own origin", async () => {
    await expect(sandbox.createSponsorCheckout(checkoutInput())).rejects.toMatchObject({ code: "account_not_ready" });
    await expect(sandbox.createLoginLink({ accountId })).rejects.toMatchObject({ code: "account_not_ready" });
    await expect(
      sandbox.createOnboardingLink({ accountId, returnUrl: "https://evil.example/x", refreshUrl: `${ORIGIN}/app/payments/setup` }),
    ).rejects.toBeInstanceOf(SandboxRequestError);
    const { url } = await sandbox.createOnboardingLink({ accountId, returnUrl: `${ORIGIN}/app/payments/return?state=t`, refreshUrl: `${ORIGIN}/app/payments/setup` });
    const link = new URL(url);
    expect(link.origin).toBe(ORIGIN);
    expect(link.pathname).toBe(`/sandbox/onboarding/${accountId}`);
    expect(link.searchParams.get("return")).toBe(`${ORIGIN}/app/payments/return?state=t`);
    expect(link.searchParams.get("sig")).toMatch(/^[\w-]{43}$/);
  });

  it("onboards: the account can take charges and account.updated is stored with the change", async () => {
    const state = await sandbox.completeOnboarding(accountId, { legalName: "Maya Makes LLC", country: "US", bankAccount: "000123456789" });
    expect(state).toEqual({ accountId, chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true });
    expect(await events("account.updated")).toEqual([
      expect.objectContaining({ provider: "sandbox", type: "account.updated", accountId, chargesEnabled: true, eventId: expect.stringMatching(/^evt_sbx_/) }),
    ]);
    const { url } = await sandbox.createLoginLink({ accountId });
    expect(url).toMatch(new RegExp(`^${ORIGIN}/sandbox/dashboard/${accountId}\\?expires=\\d+&sig=`));
  });

  it("rolls the event back with the change: a failed onboarding stores nothing", async () => {
    const before = (await events("account.updated")).length;
    await expect(sandbox.completeOnboarding("acct_sbx_missing", { legalName: "X", country: "US", bankAccount: "000123456789" })).rejects.toMatchObject({
      code: "resource_missing",
    });
    expect(await events("account.updated")).toHaveLength(before);
  });

  it("creates a checkout once per key, refusing bad amounts and addresses", async () => {
    const input = checkoutInput();
    const first = await sandbox.createSponsorCheckout(input);
    expect(first.url).toBe(`${ORIGIN}/sandbox/checkout/${first.checkoutId}`);
    expect(isSandboxId("cs", first.checkoutId)).toBe(true);
    expect(first.expiresAt.getTime() - clock.now.getTime()).toBe(24 * 3600 * 1000);
    expect((await sandbox.createSponsorCheckout(input)).checkoutId).toBe(first.checkoutId);
    await expect(sandbox.createSponsorCheckout({ ...input, amount: 3000 })).rejects.toMatchObject({ code: "idempotency_key_in_use" });
    await expect(sandbox.createSponsorCheckout(checkoutInput({ amount: 49 }))).rejects.toMatchObject({ code: "amount_too_small" });
    await expect(sandbox.createSponsorCheckout(checkoutInput({ amount: 12.5 }))).rejects.toMatchObject({ code: "parameter_invalid" });
    await expect(sandbox.createSponsorCheckout(checkoutInput({ applicationFeeAmount: 3000 }))).rejects.toMatchObject({ code: "parameter_invalid" });
    await expect(sandbox.createSponsorCheckout(checkoutInput({ successUrl: "javascript:alert(1)" }))).rejects.toMatchObject({ code: "url_invalid" });
    await expect(sandbox.createSponsorCheckout(checkoutInput({ destinationAccountId: "acct_sbx_none" }))).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("pays with a test card once, however many submits, with Stripe's fee", async () => {
    const { checkoutId } = await sandbox.createSponsorCheckout(checkoutInput({ amount: 2500, applicationFeeAmount: 125 }));
    const results = await Promise.all(Array.from({ length: 8 }, () => payCheckout(database.db, checkoutId, CARD, clock.now, EVERY_PAYEE_PAYABLE)));
    const paid = results.filter((r) => r.kind === "SUCCESS" && r.outcome === "PAID");
    expect(paid).toHaveLength(1);
    expect(results.filter((r) => r.kind === "SUCCESS" && r.outcome === "ALREADY_PAID")).toHaveLength(7);
    expect(paid[0]).toMatchObject({ redirectTo: `${ORIGIN}/app/payments/success?session_id=${checkoutId}` });
    const payments = await database.db.select().from(sandboxPayments).where(eq(sandboxPayments.checkoutId, checkoutId));
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 2500, fee: 103, applicationFee: 125, net: 2375, cardBrand: "visa", cardLast4: "4242" });
    const paymentIntentId = payments[0]!.id;
    expect(await sandbox.paymentDetails(paymentIntentId)).toEqual({ paymentIntentId, chargeId: payments[0]!.chargeId, gross: 2500, providerFee: 103, currency: "usd" });
    const completed = (await events("checkout.completed")).filter((e) => e.checkoutId === checkoutId);
    expect(completed).toEqual([expect.objectContaining({ paymentIntentId, paymentStatus: "paid", amount: 2500, currency: "usd", sessionId: expect.any(String) })]);
    expect(await payCheckout(database.db, checkoutId, CARD, clock.now, EVERY_PAYEE_PAYABLE)).toMatchObject({ kind: "SUCCESS", outcome: "ALREADY_PAID" });
  });

  it("declines without charging and leaves the checkout open", async () => {
    const { checkoutId } = await sandbox.createSponsorCheckout(checkoutInput());
    expect(await payCheckout(database.db, checkoutId, { ...CARD, number: "4000 0000 0000 0002" }, clock.now, EVERY_PAYEE_PAYABLE)).toEqual({
      kind: "ERROR",
      code: "payment-required",
      reason: "card_declined",
      field: "number",
      message: "Your card was declined.",
    });
    expect(await payCheckout(database.db, checkoutId, { ...CARD, number: "4000 0000 0000 9995" }, clock.now, EVERY_PAYEE_PAYABLE)).toMatchObject({ message: "Your card has insufficient funds." });
    expect(await payCheckout(database.db, checkoutId, { ...CARD, email: "not an email" }, clock.now, EVERY_PAYEE_PAYABLE)).toMatchObject({ field: "email" });
    expect(await database.db.select().from(sandboxPayments).where(eq(sandboxPayments.checkoutId, checkoutId))).toEqual([]);
    const [row] = await database.db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, checkoutId));
    expect(row!.status).toBe("open");
    expect(await payCheckout(database.db, checkoutId, CARD, clock.now, EVERY_PAYEE_PAYABLE)).toMatchObject({ kind: "SUCCESS", outcome: "PAID" });
  });

  it.each([
    [50, 31],
    [1000, 59],
    [1234, 66],
    [100_000, 2930],
  ])("a %i¢ payment costs a %i¢ fee", async (amount, fee) => {
    const { checkoutId } = await sandbox.createSponsorCheckout(checkoutInput({ amount }));
    const paid = await payCheckout(database.db, checkoutId, CARD, clock.now, EVERY_PAYEE_PAYABLE);
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
    expect(await sandbox.paymentDetails(paid.paymentIntentId)).toMatchObject({ gross: amount, providerFee: fee });
  });

  it("expires a checkout after 24 hours, once, and then takes no payment", async () => {
    const { checkoutId } = await sandbox.createSponsorCheckout(checkoutInput());
    const later = new Date(clock.now.getTime() + 24 * 3600 * 1000 + 1);
    const expiredBefore = (await events("checkout.expired")).length;
    expect(await payCheckout(database.db, checkoutId, CARD, later, EVERY_PAYEE_PAYABLE)).toEqual({ kind: "ERROR", code: "gone", reason: "EXPIRED", message: "This checkout has expired. Nothing was charged." });
    expect(await payCheckout(database.db, checkoutId, CARD, later, EVERY_PAYEE_PAYABLE)).toEqual({ kind: "ERROR", code: "gone", reason: "EXPIRED", message: "This checkout has expired. Nothing was charged." });
    const expired = await events("checkout.expired");
    expect(expired).toHaveLength(expiredBefore + 1);
    expect(expired.at(-1)).toMatchObject({ checkoutId, paymentStatus: "unpaid", paymentIntentId: null });
    expect(await database.db.select().from(sandboxPayments).where(eq(sandboxPayments.checkoutId, checkoutId))).toEqual([]);
  });

  it("sweeps open checkouts whose time is up, whether or not anyone looks", async () => {
    const { checkoutId } = await sandbox.createSponsorCheckout(checkoutInput());
    const later = new Date(clock.now.getTime() + 25 * 3600 * 1000);
    expect(await sandbox.expireDueCheckouts()).toBe(0);
    expect(await expireDueCheckouts(database.db, later)).toBeGreaterThanOrEqual(1);
    expect(await expireDueCheckouts(database.db, later)).toBe(0);
    expect((await events("checkout.expired")).filter((e) => e.checkoutId === checkoutId)).toHaveLength(1);
  });

  it("refunds all of a payment once: the transfer and the platform fee go back, the processing fee does not", async () => {
    const { checkoutId } = await sandbox.createSponsorCheckout(checkoutInput({ amount: 1000, applicationFeeAmount: 100 }));
    const paid = await payCheckout(database.db, checkoutId, CARD, clock.now, EVERY_PAYEE_PAYABLE);
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
    const paymentIntentId = paid.paymentIntentId;
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => sandbox.refundPayment({ idempotencyKey: i < 5 ? "refund_a" : `refund_${i}`, paymentIntentId })),
    );
    const refunds = await database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, paymentIntentId));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 1000, applicationFeeRefunded: 100, status: "succeeded" });
    const ok = attempts.filter((a) => a.status === "fulfilled").map((a) => (a as PromiseFulfilledResult<{ refundId: string }>).value.refundId);
    expect(new Set(ok)).toEqual(new Set([refunds[0]!.id]));
    for (const failed of attempts.filter((a) => a.status === "rejected")) {
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: "charge_already_refunded" });
    }
    expect(await sandbox.refundPayment({ idempotencyKey: refunds[0]!.idempotencyKey!, paymentIntentId })).toEqual({ refundId: refunds[0]!.id, status: "succeeded" });
    expect((await events("charge.refunded")).filter((e) => e.paymentIntentId === paymentIntentId)).toEqual([
      expect.objectContaining({ amountRefunded: 1000, currency: "usd", chargeId: expect.stringMatching(/^ch_sbx_/) }),
    ]);
    expect((await events("refund.updated")).filter((e) => e.paymentIntentId === paymentIntentId)).toEqual([
      expect.objectContaining({ refundId: refunds[0]!.id, status: "succeeded", amount: 1000, currency: "usd" }),
    ]);
    await expect(sandbox.refundPayment({ idempotencyKey: "refund_x", paymentIntentId: "pi_sbx_none" })).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("opens a dispute on a payment as a bank would, with the dispute fee, and closes it won or lost once", async () => {
    const { checkoutId } = await sandbox.createSponsorCheckout(checkoutInput({ amount: 4200 }));
    const paid = await payCheckout(database.db, checkoutId, CARD, clock.now, EVERY_PAYEE_PAYABLE);
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
    const { disputeId } = await sandbox.openDispute({ paymentIntentId: paid.paymentIntentId, reason: "product_not_received" });
    expect(isSandboxId("du", disputeId)).toBe(true);
    // Opening again is the same dispute: a charge has one chargeback.
    expect(await sandbox.openDispute({ paymentIntentId: paid.paymentIntentId })).toEqual({ disputeId });
    expect((await events("dispute.changed")).filter((e) => e.disputeId === disputeId)).toEqual([
      expect.objectContaining({ paymentIntentId: paid.paymentIntentId, chargeId: expect.stringMatching(/^ch_sbx_/), reason: "product_not_received", amount: 4200, status: "needs_response", fee: 1500 }),
    ]);
    expect(await sandbox.closeDispute({ paymentIntentId: paid.paymentIntentId, outcome: "lost" })).toEqual({ disputeId });
    // Closed stays closed: a later "won" changes nothing and stores nothing.
    await sandbox.closeDispute({ paymentIntentId: paid.paymentIntentId, outcome: "won" });
    expect((await events("dispute.changed")).filter((e) => e.disputeId === disputeId).map((e) => String(e.status)).sort()).toEqual(["lost", "needs_response"]);
    await expect(sandbox.closeDispute({ paymentIntentId: "pi_sbx_none", outcome: "won" })).rejects.toMatchObject({ code: "resource_missing" });
    await expect(sandbox.openDispute({ paymentIntentId: "pi_sbx_none" })).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("shows the account's payments, refunds and balance on its dashboard", async () => {
    const dashboard = (await readSandboxDashboard(database.db, accountId))!;
    const credited = dashboard.payments.reduce((sum, p) => sum + p.net, 0);
    const debited = dashboard.refunds.reduce((sum, r) => sum + r.debit, 0);
    expect(dashboard.balance).toBe(credited - debited);
    expect(dashboard.refunds).toEqual([expect.objectContaining({ amount: 1000, debit: 900 })]);
    expect(dashboard.payments.find((p) => p.refunded)).toMatchObject({ gross: 1000, processingFee: 59, platformFee: 100, net: 900 });
    // Each payment brought gross less the platform fee; the refunded one gave it all back.
    expect(dashboard.balance).toBe(dashboard.payments.filter((p) => !p.refunded).reduce((sum, p) => sum + p.gross - p.platformFee, 0));
    expect(await readSandboxDashboard(database.db, "acct_sbx_none")).toBeNull();
  });

  it("delivers every stored event, signed, once each, and marks each delivered", async () => {
    // Onboarding and refunds already asked the worker to send (kick); this sends the rest,
    // including the expiry events stored "a day later" by the tests above.
    await sandbox.deliverPendingSandboxEvents();
    clock.now = new Date(clock.now.getTime() + 2 * 24 * 3600 * 1000);
    await sandbox.deliverPendingSandboxEvents();
    const rows = await database.db.select().from(sandboxEvents);
    expect(rows.length).toBeGreaterThan(10);
    expect(receiver.refused).toEqual([]);
    expect(receiver.received.map((e) => e.eventId).sort()).toEqual(rows.map((e) => e.id).sort());
    expect(rows.every((row) => row.deliveredAt && row.attempts === 1)).toBe(true);
    expect(await sandbox.deliverPendingSandboxEvents()).toBe(0);
  });
});
