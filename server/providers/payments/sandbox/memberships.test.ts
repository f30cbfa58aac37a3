import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { MembershipCheckoutInput } from "#server/providers/payments/port";
import {
  sandboxEvents,
  sandboxMembershipCheckouts,
  sandboxMembershipInvoices,
  sandboxMembershipSubscriptions,
  sandboxPayments,
} from "#server/providers/payments/sandbox/schema";
import { readSandboxDashboard } from "./dashboard";
import { stripeStandardFee } from "./fees";
import { isSandboxId } from "./ids";
import { advanceSandboxMemberships } from "./membership-clock";
import { nextPeriodEnd } from "./memberships";
import { checkMembershipCardLink, loadMembershipCheckoutView, payMembershipCheckout, updateMembershipCard } from "./membership-pay";
import { EVERY_PAYEE_PAYABLE, type PaymentForm } from "./pay";
import { createSandboxProvider, type SandboxProvider } from "./provider";

const ORIGIN = "http://app.test";
const SECRET = "a-session-secret-of-at-least-32-characters";
const GOOD: PaymentForm = { email: "fan@example.com", number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123", postalCode: "94107" };
const FAILS_RENEWAL: PaymentForm = { ...GOOD, number: "4000 0000 0000 0341" };
const DAY = 86_400_000;

describe.each(ENGINES)("sandbox memberships on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const clock = { now: new Date("2026-11-29T12:00:00Z") };
  let sandbox: SandboxProvider;
  let accountId: string;
  let serial = 0;

  beforeAll(async () => {
    // Deliveries are answered 200 and forgotten: these tests read the events the sandbox stored.
    const fetch: typeof globalThis.fetch = async () => new Response("ok");
    sandbox = createSandboxProvider({ db: db(), config: { PUBLIC_ORIGIN: ORIGIN }, sessionSecret: SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, now: () => clock.now, fetch });
    accountId = (await sandbox.createConnectedAccount({ idempotencyKey: "account_creator", email: "maya@example.com", accountType: "individual", uid: "creator" })).accountId;
    await sandbox.completeOnboarding(accountId, { legalName: "Maya Makes LLC", country: "US", bankAccount: "000123456789" });
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    clock.now = new Date("2026-11-29T12:00:00Z");
  });

  const input = (overrides: Partial<MembershipCheckoutInput> = {}): MembershipCheckoutInput => {
    serial += 1;
    return {
      idempotencyKey: `membership_checkout_m${serial}`,
      membershipId: `m${serial}`,
      destinationAccountId: accountId,
      amount: 500,
      currency: "usd",
      interval: "month",
      applicationFeePercent: 10,
      productName: "Gold membership · Maya Makes",
      memberEmail: "fan@example.com",
      successUrl: `${ORIGIN}/memberships/welcome?checkout={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ORIGIN}/maya`,
      ...overrides,
    };
  };
  const join = async (card: PaymentForm = GOOD, overrides: Partial<MembershipCheckoutInput> = {}) => {
    const checkoutInput = input(overrides);
    const checkout = await sandbox.createMembershipCheckout(checkoutInput);
    const paid = await payMembershipCheckout(db(), checkout.checkoutId, card, clock.now);
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(`not paid: ${JSON.stringify(paid)}`);
    return { membershipId: checkoutInput.membershipId, checkoutId: checkout.checkoutId, subscriptionId: paid.subscriptionId, paymentIntentId: paid.paymentIntentId };
  };
  const causes = async (subscriptionId: string) =>
    (await db().select().from(sandboxEvents).where(eq(sandboxEvents.type, "membership.changed")))
      .map((row) => row.payload as { subscriptionId: string | null; cause: string; membershipId: string; checkoutId: string })
      .filter((event) => event.subscriptionId === subscriptionId)
      .map((event) => event.cause);
  const state = (subscriptionId: string) => sandbox.readMembershipState(subscriptionId);

  it("opens one checkout per idempotency key, refuses the key with other parameters, and checks like a tip's", async () => {
    const first = input();
    const created = await sandbox.createMembershipCheckout(first);
    expect(created.url).toBe(`${ORIGIN}/sandbox/membership-checkout/${created.checkoutId}`);
    expect(sandbox.hostedPages.follow(created.url, "checkout")).toBe(created.url);
    expect(await sandbox.createMembershipCheckout(first)).toEqual(created);
    await expect(sandbox.createMembershipCheckout({ ...first, amount: 900 })).rejects.toMatchObject({ code: "idempotency_key_in_use" });
    await expect(sandbox.createMembershipCheckout(input({ successUrl: "javascript:alert(1)" }))).rejects.toMatchObject({ code: "url_invalid" });
    await expect(sandbox.createMembershipCheckout(input({ amount: 20 }))).rejects.toMatchObject({ code: "amount_too_small" });
    await expect(sandbox.createMembershipCheckout(input({ applicationFeePercent: 2.555 }))).rejects.toMatchObject({ code: "parameter_invalid" });
    const { accountId: unready } = await sandbox.createConnectedAccount({ idempotencyKey: "account_unready", email: "x@example.com", accountType: "individual", uid: "x" });
    await expect(sandbox.createMembershipCheckout(input({ destinationAccountId: unready }))).rejects.toMatchObject({ code: "account_not_ready" });
    expect(await sandbox.membershipSubscriptionOfCheckout(created.checkoutId)).toBeNull();
  });

  it("a paid checkout makes the customer, the subscription and its first paid invoice, charged as a tip's destination charge", async () => {
    const joined = await join();
    expect(isSandboxId("sub", joined.subscriptionId)).toBe(true);
    expect(await sandbox.membershipSubscriptionOfCheckout(joined.checkoutId)).toBe(joined.subscriptionId);
    const truth = await state(joined.subscriptionId);
    expect(truth).toMatchObject({
      membershipId: joined.membershipId,
      status: "active",
      amount: 500,
      currency: "usd",
      interval: "month",
      cancelAtPeriodEnd: false,
      endedAt: null,
      customerEmail: "fan@example.com",
      currentPeriodEnd: new Date("2026-12-29T12:00:00Z"),
    });
    expect(truth.invoices).toEqual([
      expect.objectContaining({ status: "paid", reason: "subscription_create", paymentIntentId: joined.paymentIntentId, amount: 500, periodStart: clock.now, periodEnd: truth.currentPeriodEnd }),
    ]);
    expect(await sandbox.paymentDetails(joined.paymentIntentId)).toMatchObject({ gross: 500, providerFee: stripeStandardFee(500, "usd"), currency: "usd" });
    const [payment] = await db().select().from(sandboxPayments).where(eq(sandboxPayments.id, joined.paymentIntentId));
    expect(payment).toMatchObject({ accountId, amount: 500, applicationFee: 50, net: 450, checkoutId: null });
    expect(await causes(joined.subscriptionId)).toEqual(["subscription.created", "invoice.paid", "checkout.completed"]);
    // A second submit charges nothing more.
    expect(await payMembershipCheckout(db(), joined.checkoutId, GOOD, clock.now)).toMatchObject({ kind: "SUCCESS", outcome: "ALREADY_PAID" });
    expect(await db().select().from(sandboxMembershipSubscriptions).where(eq(sandboxMembershipSubscriptions.checkoutId, joined.checkoutId))).toHaveLength(1);
    // The creator's payouts dashboard lists it as any payment.
    const dashboard = await readSandboxDashboard(db(), accountId);
    expect(dashboard!.payments.some((p) => p.id === joined.paymentIntentId && p.net === 450)).toBe(true);
  });

  it("a declined card changes nothing; an expired checkout stores checkout.expired once", async () => {
    const checkout = await sandbox.createMembershipCheckout(input());
    expect(await payMembershipCheckout(db(), checkout.checkoutId, { ...GOOD, number: "4000 0000 0000 0002" }, clock.now)).toMatchObject({ kind: "ERROR", reason: "card_declined" });
    expect(await sandbox.membershipSubscriptionOfCheckout(checkout.checkoutId)).toBeNull();
    clock.now = new Date(clock.now.getTime() + 2 * DAY);
    expect(await sandbox.expireDueCheckouts()).toBeGreaterThanOrEqual(1);
    expect(await loadMembershipCheckoutView(db(), checkout.checkoutId, clock.now)).toMatchObject({ status: "expired" });
    expect(await payMembershipCheckout(db(), checkout.checkoutId, GOOD, clock.now)).toMatchObject({ kind: "ERROR", reason: "EXPIRED" });
    const expired = (await db().select().from(sandboxEvents).where(eq(sandboxEvents.type, "membership.changed")))
      .map((row) => row.payload)
      .filter((p) => p.checkoutId === checkout.checkoutId);
    expect(expired).toEqual([expect.objectContaining({ cause: "checkout.expired", subscriptionId: null, membershipId: expect.any(String) })]);
  });

  it("the test clock renews: a new paid invoice with its own payment intent and charge", async () => {
    const joined = await join();
    const report = await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId });
    expect(report).toMatchObject({ renewed: 1, failed: 0, ended: 0 });
    const truth = await state(joined.subscriptionId);
    expect(truth.status).toBe("active");
    expect(truth.currentPeriodEnd).toEqual(new Date("2027-01-29T12:00:00Z"));
    expect(truth.invoices.map((i) => [i.status, i.reason])).toEqual([
      ["paid", "subscription_create"],
      ["paid", "subscription_cycle"],
    ]);
    const renewal = truth.invoices[1]!;
    expect(renewal.paymentIntentId).toBe(report.changes[0]!.paymentIntentId);
    expect(renewal.paymentIntentId).not.toBe(joined.paymentIntentId);
    expect(renewal.periodStart).toEqual(new Date("2026-12-29T12:00:00Z"));
    expect(await causes(joined.subscriptionId)).toContain("invoice.paid");
  });

  it("a renewal's charge works as a tip's: payment details, balance transactions, a dispute, a refund", async () => {
    const joined = await join(GOOD, { amount: 1000, applicationFeePercent: 5 });
    const { changes } = await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId });
    const renewal = changes[0]!.paymentIntentId!;
    const details = await sandbox.paymentDetails(renewal);
    expect(details).toMatchObject({ paymentIntentId: renewal, gross: 1000, providerFee: stripeStandardFee(1000, "usd"), currency: "usd" });
    const rows = (await sandbox.listBalanceTransactions({ from: new Date(clock.now.getTime() - DAY), to: new Date(clock.now.getTime() + DAY) })).filter((r) => r.paymentIntentId === renewal);
    expect(rows.map((r) => [r.type, r.amount, r.fee, r.sessionId])).toEqual(
      expect.arrayContaining([
        ["charge", 1000, stripeStandardFee(1000, "usd"), joined.membershipId],
        ["transfer", -1000, 0, null],
        ["application_fee", 50, 0, null],
      ]),
    );
    expect(rows).toHaveLength(3);
    const dispute = await sandbox.openDispute({ paymentIntentId: renewal });
    expect(dispute.disputeId).toMatch(/^du_sbx_/);
    const refund = await sandbox.refundPayment({ idempotencyKey: `refund_${renewal}`, paymentIntentId: renewal });
    expect(refund.status).toBe("succeeded");
    const after = (await sandbox.listBalanceTransactions({ from: new Date(clock.now.getTime() - DAY), to: new Date(clock.now.getTime() + DAY) })).filter((r) => r.paymentIntentId === renewal);
    expect(after.map((r) => r.type)).toEqual(expect.arrayContaining(["refund", "transfer_reversal", "application_fee_refund", "dispute"]));
  });

  it("the 0341 card's renewal fails (past due, open invoice); a good card on the card page pays it at once", async () => {
    const joined = await join(FAILS_RENEWAL);
    expect(await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId })).toMatchObject({ renewed: 0, failed: 1 });
    let truth = await state(joined.subscriptionId);
    expect(truth.status).toBe("past_due");
    expect(truth.invoices.at(-1)).toMatchObject({ status: "open", paymentIntentId: null, reason: "subscription_cycle" });
    expect(await causes(joined.subscriptionId)).toContain("invoice.payment_failed");

    const { url } = await sandbox.createMembershipCardLink({ customerId: truth.customerId, subscriptionId: joined.subscriptionId, returnUrl: `${ORIGIN}/membership/tok` });
    const link = new URL(url);
    expect(link.pathname).toBe(`/sandbox/membership-card/${joined.subscriptionId}`);
    expect(sandbox.hostedPages.follow(url, "billing")).toBe(url);
    expect(checkMembershipCardLink(sandbox.linkKey, joined.subscriptionId, link.searchParams, clock.now)).toBe("valid");
    expect(checkMembershipCardLink(sandbox.linkKey, "sub_sbx_other", link.searchParams, clock.now)).toBe("invalid");
    await expect(sandbox.createMembershipCardLink({ customerId: "cus_sbx_someone", subscriptionId: joined.subscriptionId, returnUrl: `${ORIGIN}/x` })).rejects.toMatchObject({ code: "resource_missing" });

    // The same failing card again: kept, and the retry fails again.
    expect(await updateMembershipCard(db(), joined.subscriptionId, FAILS_RENEWAL, clock.now)).toMatchObject({ kind: "ERROR", reason: "renewal_failed" });
    expect((await state(joined.subscriptionId)).status).toBe("past_due");
    const fixed = await updateMembershipCard(db(), joined.subscriptionId, GOOD, clock.now);
    expect(fixed).toMatchObject({ kind: "SUCCESS", paymentIntentId: expect.stringMatching(/^pi_sbx_/) });
    truth = await state(joined.subscriptionId);
    expect(truth.status).toBe("active");
    expect(truth.invoices.at(-1)).toMatchObject({ status: "paid", paymentIntentId: fixed.kind === "SUCCESS" ? fixed.paymentIntentId : "" });
    expect(await sandbox.paymentDetails(truth.invoices.at(-1)!.paymentIntentId!)).toMatchObject({ gross: 500 });
    // Paid once: a second card change pays nothing more.
    expect(await updateMembershipCard(db(), joined.subscriptionId, GOOD, clock.now)).toMatchObject({ kind: "SUCCESS", paymentIntentId: null });
    // And it renews with the new card.
    expect(await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId })).toMatchObject({ renewed: 1 });
  });

  it("a failed renewal left unpaid ends the membership: its invoice uncollectible", async () => {
    const joined = await join(FAILS_RENEWAL);
    await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId });
    expect(await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId })).toMatchObject({ ended: 1 });
    const truth = await state(joined.subscriptionId);
    expect(truth).toMatchObject({ status: "canceled", endedAt: clock.now, cancelAtPeriodEnd: false });
    expect(truth.invoices.map((i) => i.status)).toEqual(["paid", "uncollectible"]);
    expect((await causes(joined.subscriptionId)).filter((c) => c === "subscription.deleted")).toHaveLength(1);
    // An ended subscription is not moved again.
    expect(await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId })).toMatchObject({ renewed: 0, failed: 0, ended: 0 });
  });

  it("cancel at the period's end, resume, cancel again: the clock ends it without charging", async () => {
    const joined = await join();
    await sandbox.setMembershipCancelAtPeriodEnd({ idempotencyKey: "c1", subscriptionId: joined.subscriptionId, cancelAtPeriodEnd: true });
    expect((await state(joined.subscriptionId)).cancelAtPeriodEnd).toBe(true);
    await sandbox.setMembershipCancelAtPeriodEnd({ idempotencyKey: "c1", subscriptionId: joined.subscriptionId, cancelAtPeriodEnd: true });
    await sandbox.setMembershipCancelAtPeriodEnd({ idempotencyKey: "r1", subscriptionId: joined.subscriptionId, cancelAtPeriodEnd: false });
    expect((await state(joined.subscriptionId)).cancelAtPeriodEnd).toBe(false);
    await sandbox.setMembershipCancelAtPeriodEnd({ idempotencyKey: "c2", subscriptionId: joined.subscriptionId, cancelAtPeriodEnd: true });
    // A retried call changes nothing and stores nothing more.
    expect((await causes(joined.subscriptionId)).filter((c) => c === "subscription.updated")).toHaveLength(3);
    expect(await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId })).toMatchObject({ ended: 1, renewed: 0 });
    const truth = await state(joined.subscriptionId);
    expect(truth.status).toBe("canceled");
    expect(truth.invoices).toHaveLength(1);
    await expect(sandbox.setMembershipCancelAtPeriodEnd({ idempotencyKey: "r2", subscriptionId: joined.subscriptionId, cancelAtPeriodEnd: false })).rejects.toMatchObject({ code: "parameter_invalid" });
  });

  it("a price change applies from the next renewal, with its interval", async () => {
    const joined = await join();
    await sandbox.changeMembershipPrice({ idempotencyKey: "p1", subscriptionId: joined.subscriptionId, amount: 5000, interval: "year", productName: "Gold membership (yearly) · Maya Makes" });
    let truth = await state(joined.subscriptionId);
    expect(truth).toMatchObject({ amount: 5000, interval: "year", currentPeriodEnd: new Date("2026-12-29T12:00:00Z") });
    expect(truth.invoices).toHaveLength(1);
    await sandbox.changeMembershipPrice({ idempotencyKey: "p1", subscriptionId: joined.subscriptionId, amount: 5000, interval: "year", productName: "Gold membership (yearly) · Maya Makes" });
    expect((await causes(joined.subscriptionId)).filter((c) => c === "subscription.updated")).toHaveLength(1);
    await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId });
    truth = await state(joined.subscriptionId);
    expect(truth.currentPeriodEnd).toEqual(new Date("2027-12-29T12:00:00Z"));
    expect(truth.invoices.at(-1)).toMatchObject({ amount: 5000, status: "paid" });
    expect(await sandbox.paymentDetails(truth.invoices.at(-1)!.paymentIntentId!)).toMatchObject({ gross: 5000 });
    await expect(sandbox.changeMembershipPrice({ idempotencyKey: "p2", subscriptionId: joined.subscriptionId, amount: 10, interval: "month", productName: "x" })).rejects.toMatchObject({
      code: "amount_too_small",
    });
  });

  it("ends now without a refund; ending again does nothing", async () => {
    const joined = await join();
    await sandbox.endMembershipNow({ idempotencyKey: "e1", subscriptionId: joined.subscriptionId });
    await sandbox.endMembershipNow({ idempotencyKey: "e1", subscriptionId: joined.subscriptionId });
    const truth = await state(joined.subscriptionId);
    expect(truth).toMatchObject({ status: "canceled", endedAt: clock.now });
    expect(truth.invoices.map((i) => i.status)).toEqual(["paid"]);
    expect((await causes(joined.subscriptionId)).filter((c) => c === "subscription.deleted")).toHaveLength(1);
    expect(await sandbox.advanceMemberships({ subscriptionId: joined.subscriptionId })).toMatchObject({ renewed: 0, ended: 0 });
  });

  it("two clocks advancing to the same time at once charge each period once", async () => {
    const a = await join();
    const b = await join(FAILS_RENEWAL);
    const until = new Date("2026-12-30T00:00:00Z");
    const [one, two] = await Promise.all([advanceSandboxMemberships(db(), { until, batchSize: 1 }, clock.now), advanceSandboxMemberships(db(), { until, batchSize: 1 }, clock.now)]);
    const touched = [...one.changes, ...two.changes].filter((c) => c.subscriptionId === a.subscriptionId || c.subscriptionId === b.subscriptionId);
    expect(touched.map((c) => c.outcome).sort()).toEqual(["failed", "renewed"]);
    for (const sub of [a, b]) {
      const invoices = await db().select().from(sandboxMembershipInvoices).where(eq(sandboxMembershipInvoices.subscriptionId, sub.subscriptionId));
      expect(invoices).toHaveLength(2);
    }
    // Advancing to the same time again finds nothing due.
    const again = await advanceSandboxMemberships(db(), { until }, clock.now);
    expect(again.changes.filter((c) => c.subscriptionId === a.subscriptionId || c.subscriptionId === b.subscriptionId)).toEqual([]);
    // Far ahead: period after period until past it; the failing one ends.
    await advanceSandboxMemberships(db(), { until: new Date("2027-03-30T00:00:00Z") }, clock.now);
    expect((await state(a.subscriptionId)).invoices).toHaveLength(5);
    expect((await state(b.subscriptionId)).status).toBe("canceled");
    const paidOfA = await db()
      .select()
      .from(sandboxMembershipInvoices)
      .where(and(eq(sandboxMembershipInvoices.subscriptionId, a.subscriptionId), eq(sandboxMembershipInvoices.status, "paid")));
    expect(new Set(paidOfA.map((i) => i.periodStart.toISOString())).size).toBe(5);
  });

  it("periods follow the billing cycle anchor: the 31st renews on the month's last day, then on the 31st again", () => {
    const anchor = new Date("2027-01-31T09:30:00Z");
    const feb = nextPeriodEnd(anchor, "month", anchor);
    expect(feb).toEqual(new Date("2027-02-28T09:30:00Z"));
    expect(nextPeriodEnd(feb, "month", anchor)).toEqual(new Date("2027-03-31T09:30:00Z"));
    expect(nextPeriodEnd(new Date("2028-02-29T00:00:00Z"), "year", new Date("2028-02-29T00:00:00Z"))).toEqual(new Date("2029-02-28T00:00:00Z"));
    expect(nextPeriodEnd(new Date("2026-12-15T00:00:00Z"), "month", new Date("2026-11-15T00:00:00Z"))).toEqual(new Date("2027-01-15T00:00:00Z"));
  });

  it("as real time passes, a subscription whose period has ended renews by itself", async () => {
    const joined = await join();
    expect((await sandbox.renewDueMemberships()).changes.filter((c) => c.subscriptionId === joined.subscriptionId)).toEqual([]);
    clock.now = new Date("2026-12-29T12:00:01Z");
    const report = await sandbox.renewDueMemberships();
    expect(report.changes.filter((c) => c.subscriptionId === joined.subscriptionId)).toEqual([expect.objectContaining({ outcome: "renewed", currentPeriodEnd: "2027-01-29T12:00:00.000Z" })]);
  });

  it("deleting the member's customer ends their subscription now and forgets their address; a creator's account with members is kept as a shell", async () => {
    const joined = await join();
    const { customerId } = await state(joined.subscriptionId);
    await sandbox.deleteCustomer({ customerId });
    expect(await state(joined.subscriptionId)).toMatchObject({ status: "canceled", endedAt: clock.now, customerEmail: null });
    expect(await causes(joined.subscriptionId)).toContain("subscription.deleted");

    const { accountId: leaving } = await sandbox.createConnectedAccount({ idempotencyKey: "account_leaving", email: "leaving@example.com", accountType: "individual", uid: "leaving" });
    await sandbox.completeOnboarding(leaving, { legalName: "Leaving LLC", country: "US", bankAccount: "000123456789" });
    await sandbox.createMembershipCheckout(input({ destinationAccountId: leaving }));
    await sandbox.deleteConnectedAccount({ accountId: leaving });
    const [checkout] = await db().select().from(sandboxMembershipCheckouts).where(eq(sandboxMembershipCheckouts.accountId, leaving));
    expect(checkout).toMatchObject({ productName: "Deleted account", customerEmail: null });
  });

  it("without a subscription or a time, every running one moves on by one period, once", async () => {
    const joined = await join();
    const report = await sandbox.advanceMemberships({});
    expect(report.changes.filter((c) => c.subscriptionId === joined.subscriptionId)).toEqual([expect.objectContaining({ outcome: "renewed" })]);
    expect((await state(joined.subscriptionId)).invoices).toHaveLength(2);
    const [checkout] = await db().select().from(sandboxMembershipCheckouts).where(eq(sandboxMembershipCheckouts.id, joined.checkoutId));
    expect(checkout!.status).toBe("complete");
  });
});
