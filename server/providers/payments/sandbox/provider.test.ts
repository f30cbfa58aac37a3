import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { startTestReceiver } from "#tests/support/sandbox-webhook-receiver";
import { sandboxCheckouts, sandboxEvents, sandboxPayments, sandboxRefunds, sandboxTransfers } from "#server/providers/payments/sandbox/schema";
import type { HeldCheckoutInput, SponsorCheckoutInput } from "#server/providers/payments/port";
import { loadCheckoutView } from "./checkout-view";
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

  describe("a deal's held payment (separate charges and transfers)", () => {
    let creatorId: string;
    let deal = 0;
    const heldInput = (overrides: Partial<HeldCheckoutInput> = {}): HeldCheckoutInput => {
      deal += 1;
      return {
        idempotencyKey: `deal_funding_f${deal}`,
        fundingId: `f${deal}`,
        dealId: `d${deal}`,
        transferGroup: `deal_d${deal}`,
        amount: 10_000,
        currency: "usd",
        productName: "Deal with Maya Makes",
        sponsorEmail: "brand@example.com",
        successUrl: `${ORIGIN}/app/deals/d${deal}?paid=1`,
        cancelUrl: `${ORIGIN}/app/deals/d${deal}`,
        ...overrides,
      };
    };
    /** A held checkout paid with the test card; the payee rule is one that would refuse anyone, and is never asked. */
    const paidHeld = async (overrides: Partial<HeldCheckoutInput> = {}) => {
      const input = heldInput(overrides);
      const { checkoutId } = await sandbox.createHeldCheckout(input);
      const asked: string[] = [];
      const paid = await payCheckout(database.db, checkoutId, CARD, clock.now, async (id) => (asked.push(id), "nobody may be paid"));
      if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
      expect(asked).toEqual([]);
      const details = await sandbox.paymentDetails(paid.paymentIntentId);
      return { input, checkoutId, paymentIntentId: paid.paymentIntentId, chargeId: details.chargeId };
    };
    const transfersOf = (paymentId: string) => database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.paymentId, paymentId));
    const refundsOf = (paymentId: string) => database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, paymentId));

    beforeAll(async () => {
      creatorId = (await sandbox.createConnectedAccount({ idempotencyKey: "account_creator", email: "c@example.com", accountType: "individual", uid: "creator" })).accountId;
      await sandbox.completeOnboarding(creatorId, { legalName: "Creator Co", country: "US", bankAccount: "000987654321" });
    });

    it("opens a held checkout once per key, for no account and with no fee, refusing bad input", async () => {
      const input = heldInput();
      const first = await sandbox.createHeldCheckout(input);
      expect(first.url).toBe(`${ORIGIN}/sandbox/checkout/${first.checkoutId}`);
      expect(first.expiresAt.getTime() - clock.now.getTime()).toBe(24 * 3600 * 1000);
      expect(await sandbox.createHeldCheckout(input)).toEqual(first);
      const [row] = await database.db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, first.checkoutId));
      expect(row).toMatchObject({ purpose: "deal", accountId: null, sessionId: input.fundingId, dealId: input.dealId, transferGroup: input.transferGroup, applicationFeeAmount: 0, amount: 10_000 });
      await expect(sandbox.createHeldCheckout({ ...input, amount: 9_000 })).rejects.toMatchObject({ code: "idempotency_key_in_use" });
      // A tip's key is not a deal's, nor the other way round.
      const tip = checkoutInput();
      await sandbox.createSponsorCheckout(tip);
      await expect(sandbox.createHeldCheckout({ ...input, idempotencyKey: tip.idempotencyKey })).rejects.toMatchObject({ code: "idempotency_key_in_use" });
      await expect(sandbox.createSponsorCheckout({ ...tip, idempotencyKey: input.idempotencyKey })).rejects.toMatchObject({ code: "idempotency_key_in_use" });
      await expect(sandbox.createHeldCheckout(heldInput({ amount: 49 }))).rejects.toMatchObject({ code: "amount_too_small" });
      await expect(sandbox.createHeldCheckout(heldInput({ transferGroup: " " }))).rejects.toMatchObject({ code: "parameter_invalid" });
      await expect(sandbox.createHeldCheckout(heldInput({ cancelUrl: "ftp://x" }))).rejects.toMatchObject({ code: "url_invalid" });
      // Its page says who holds the money: no creator is named.
      expect(await loadCheckoutView(sandbox, database.db, first.checkoutId)).toMatchObject({ status: "open", payee: null, amount: 10_000, email: "brand@example.com" });
    });

    it("is paid on the card page without the payee rule: checkout.completed says purpose deal and the funding id; paymentDetails reads it", async () => {
      const { input, checkoutId, paymentIntentId, chargeId } = await paidHeld({ amount: 2_500 });
      const [payment] = await database.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentIntentId));
      expect(payment).toMatchObject({ accountId: null, amount: 2_500, fee: 103, applicationFee: 0, net: 0, chargeId });
      expect(await sandbox.paymentDetails(paymentIntentId)).toEqual({ paymentIntentId, chargeId, gross: 2_500, providerFee: 103, currency: "usd" });
      const completed = (await events("checkout.completed")).filter((e) => e.checkoutId === checkoutId);
      expect(completed).toEqual([expect.objectContaining({ purpose: "deal", sessionId: input.fundingId, paymentIntentId, paymentStatus: "paid", amount: 2_500, customerEmail: "fan@example.com" })]);
      // A tip's events say so too.
      expect((await events("checkout.completed")).filter((e) => e.purpose === "sponsor").length).toBeGreaterThan(0);
      // An abandoned held checkout expires as a deal's.
      const abandoned = await sandbox.createHeldCheckout(heldInput());
      await expireDueCheckouts(database.db, new Date(clock.now.getTime() + 25 * 3600 * 1000));
      expect((await events("checkout.expired")).filter((e) => e.checkoutId === abandoned.checkoutId)).toEqual([expect.objectContaining({ purpose: "deal", paymentStatus: "unpaid" })]);
    });

    it("transfers part to the creator, refunds the rest, and refuses a transfer beyond what remains; each key counts once", async () => {
      const { input, paymentIntentId, chargeId } = await paidHeld();
      const transfer = { idempotencyKey: "deal_release_1", destinationAccountId: creatorId, amount: 7_000, currency: "usd", sourceChargeId: chargeId, transferGroup: input.transferGroup };
      const first = await sandbox.createTransfer(transfer);
      expect(isSandboxId("tr", first.transferId)).toBe(true);
      expect(await sandbox.createTransfer(transfer)).toEqual(first);
      await expect(sandbox.createTransfer({ ...transfer, amount: 6_000 })).rejects.toMatchObject({ code: "idempotency_key_in_use" });
      expect(await transfersOf(paymentIntentId)).toEqual([expect.objectContaining({ id: first.transferId, accountId: creatorId, amount: 7_000, transferGroup: input.transferGroup })]);

      await expect(sandbox.createTransfer({ ...transfer, idempotencyKey: "deal_release_2", amount: 3_001 })).rejects.toMatchObject({ code: "balance_insufficient" });
      const refund = { idempotencyKey: "deal_refund_1", paymentIntentId, amount: 3_000 };
      const refunded = await sandbox.refundHeldPayment(refund);
      expect(refunded.status).toBe("succeeded");
      expect(await sandbox.refundHeldPayment(refund)).toEqual(refunded);
      await expect(sandbox.refundHeldPayment({ ...refund, amount: 2_000 })).rejects.toMatchObject({ code: "idempotency_key_in_use" });
      expect(await refundsOf(paymentIntentId)).toEqual([expect.objectContaining({ id: refunded.refundId, amount: 3_000, applicationFeeRefunded: 0, status: "succeeded" })]);
      // Nothing remains to transfer; a refund is limited by what is unrefunded, as at Stripe.
      await expect(sandbox.createTransfer({ ...transfer, idempotencyKey: "deal_release_3", amount: 1 })).rejects.toMatchObject({ code: "balance_insufficient" });
      await expect(sandbox.refundHeldPayment({ idempotencyKey: "deal_refund_2", paymentIntentId, amount: 7_001 })).rejects.toMatchObject({ code: "parameter_invalid" });
      expect(await transfersOf(paymentIntentId)).toHaveLength(1);
      expect(await refundsOf(paymentIntentId)).toHaveLength(1);

      expect((await events("charge.refunded")).filter((e) => e.paymentIntentId === paymentIntentId)).toEqual([expect.objectContaining({ chargeId, amountRefunded: 3_000 })]);
      expect((await events("refund.updated")).filter((e) => e.paymentIntentId === paymentIntentId)).toEqual([expect.objectContaining({ refundId: refunded.refundId, amount: 3_000, status: "succeeded" })]);
      // The creator's dashboard has the transfer; the refund took nothing from it.
      const dashboard = (await readSandboxDashboard(database.db, creatorId))!;
      expect(dashboard.transfers).toEqual([expect.objectContaining({ id: first.transferId, amount: 7_000, transferGroup: input.transferGroup })]);
      expect(dashboard.balance).toBe(7_000);
    });

    it("moves no more than the charge however many transfers race for it", async () => {
      const { input, paymentIntentId, chargeId } = await paidHeld();
      const attempts = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) =>
          sandbox.createTransfer({ idempotencyKey: `race_${deal}_${i}`, destinationAccountId: creatorId, amount: 3_000, currency: "usd", sourceChargeId: chargeId, transferGroup: input.transferGroup }),
        ),
      );
      expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(3);
      for (const failed of attempts.filter((a) => a.status === "rejected")) expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: "balance_insufficient" });
      expect((await transfersOf(paymentIntentId)).reduce((sum, t) => sum + t.amount, 0)).toBe(9_000);
    });

    it("refuses a transfer to an account that cannot take payouts, from a tip's charge or a charge that is not there; a tip is not refunded as held", async () => {
      const { input, paymentIntentId, chargeId } = await paidHeld();
      const transfer = { idempotencyKey: "deal_release_x", destinationAccountId: creatorId, amount: 1_000, currency: "usd", sourceChargeId: chargeId, transferGroup: input.transferGroup };
      const newcomer = (await sandbox.createConnectedAccount({ idempotencyKey: "account_newcomer", email: "n@example.com", accountType: "individual", uid: "newcomer" })).accountId;
      await expect(sandbox.createTransfer({ ...transfer, destinationAccountId: newcomer })).rejects.toMatchObject({ code: "account_not_ready" });
      await expect(sandbox.createTransfer({ ...transfer, destinationAccountId: "acct_sbx_none" })).rejects.toMatchObject({ code: "resource_missing" });
      await expect(sandbox.createTransfer({ ...transfer, sourceChargeId: "ch_sbx_none" })).rejects.toMatchObject({ code: "resource_missing" });
      const tip = await sandbox.createSponsorCheckout(checkoutInput());
      const tipPaid = await payCheckout(database.db, tip.checkoutId, CARD, clock.now, EVERY_PAYEE_PAYABLE);
      if (tipPaid.kind !== "SUCCESS" || tipPaid.outcome !== "PAID") throw new Error(JSON.stringify(tipPaid));
      const tipCharge = (await sandbox.paymentDetails(tipPaid.paymentIntentId)).chargeId;
      await expect(sandbox.createTransfer({ ...transfer, sourceChargeId: tipCharge })).rejects.toMatchObject({ code: "parameter_invalid" });
      await expect(sandbox.refundHeldPayment({ idempotencyKey: "deal_refund_tip", paymentIntentId: tipPaid.paymentIntentId, amount: 100 })).rejects.toMatchObject({ code: "parameter_invalid" });
      // Nor is a held charge refunded as a tip (its whole amount, reversing a transfer it never made).
      await expect(sandbox.refundPayment({ idempotencyKey: "refund_held", paymentIntentId })).rejects.toMatchObject({ code: "parameter_invalid" });
      expect(await transfersOf(paymentIntentId)).toEqual([]);
      expect(await refundsOf(paymentIntentId)).toEqual([]);
    });

    it("lists the held charge, its transfer and its refund among the balance transactions", async () => {
      const from = clock.now;
      const { input, paymentIntentId, chargeId } = await paidHeld();
      const { transferId } = await sandbox.createTransfer({ idempotencyKey: "deal_release_bt", destinationAccountId: creatorId, amount: 8_000, currency: "usd", sourceChargeId: chargeId, transferGroup: input.transferGroup });
      const { refundId } = await sandbox.refundHeldPayment({ idempotencyKey: "deal_refund_bt", paymentIntentId, amount: 2_000 });
      const rows = (await sandbox.listBalanceTransactions({ from, to: new Date(from.getTime() + 1) })).filter((r) => r.paymentIntentId === paymentIntentId);
      expect(rows.map(({ type, amount, fee, sourceId, sessionId }) => ({ type, amount, fee, sourceId, sessionId })).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
        { type: "charge", amount: 10_000, fee: 320, sourceId: chargeId, sessionId: input.fundingId },
        { type: "refund", amount: -2_000, fee: 0, sourceId: refundId, sessionId: null },
        { type: "transfer", amount: -8_000, fee: 0, sourceId: transferId, sessionId: null },
      ]);
      expect(new Set(rows.map((r) => r.id)).size).toBe(3);
      // What charge.refunded (which names no refund) stands for, refund by refund.
      expect(await sandbox.listRefunds(paymentIntentId)).toEqual([{ refundId, amount: 2_000, currency: "usd", status: "succeeded" }]);
      expect(await sandbox.listRefunds(input.fundingId)).toEqual([]);
    });
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
