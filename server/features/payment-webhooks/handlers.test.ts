import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { emailOutbox, ledgerEntries, notifications, paymentEvents, profiles, connectedAccounts, refundRequests, sponsorSessions } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, PAYING_CARD, payAtSandbox, sandboxAccount, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { setSandboxAccountState, testSandbox, withCallLog, withOutage } from "#tests/support/test-sandbox";
import { paymentEventSchema, type PaymentEvent } from "#server/providers/payments/events";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import { sandboxEvents } from "#server/providers/payments/sandbox/schema";
import { stripeStandardFee } from "#server/providers/payments/sandbox/fees";
import type { PaymentProvider } from "#server/providers/payments/port";
import { sharedGenerationSource } from "#server/platform/page-cache/generation";
import { receivePaymentEvent } from "./intake";

describe.each(ENGINES)("payment webhook handlers on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let provider: PaymentProvider;
  let outage: ReturnType<typeof withOutage>["down"];
  let callsOf: ReturnType<typeof withCallLog>["callsOf"];
  let payee: Payee;
  let s: SeededSession;
  const db = () => database.db;
  const deliver = (event: PaymentEvent) => receivePaymentEvent(db(), event, webhookDeps(db(), provider));
  const session = async () => (await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, s.sessionId)))[0]!;
  const entries = () => db().select().from(ledgerEntries).where(eq(ledgerEntries.sessionId, s.sessionId));
  const notificationRows = (kind: string) => db().select().from(notifications).where(and(eq(notifications.uid, payee.uid), eq(notifications.kind, kind)));
  const request = async () => (await db().select().from(refundRequests).where(eq(refundRequests.sessionId, s.sessionId)))[0];
  /** The provider's webhook for the payment the sponsor made at the sandbox (beforeEach). */
  const pay = async () => {
    expect(await deliver(events.checkout("checkout.completed", s))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
  };

  beforeEach(async () => {
    const reachable = withOutage(sandbox.provider);
    outage = reachable.down;
    ({ provider, callsOf } = withCallLog(reachable.provider));
    payee = await seedPayee(db(), sandbox.provider);
    // Paid at the sandbox with the test card; the handlers hear of it only from the events each test delivers.
    s = await payAtSandbox(db(), sandbox.provider, payee, await seedSession(db(), payee, { amount: 2500, platformFee: 250 }));
  });

  it("records a paid checkout once: gross, the provider's real fee, the platform fee, the creator's net; alert and two mails", async () => {
    const event = events.checkout("checkout.completed", s);
    expect(await deliver(event)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await deliver(event)).toMatchObject({ kind: "SUCCESS", outcome: "ALREADY_HANDLED" });
    // The same payment reported by a second event (async succeeded) is not a second payment either.
    expect(await deliver(events.checkout("checkout.async_payment_succeeded", s))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    const [entry, ...more] = await entries();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ kind: "payment", gross: 2500, providerFee: stripeStandardFee(2500, "usd"), platformFee: 250, net: 2250, currency: "usd", providerReference: s.paymentIntentId });
    expect(await session()).toMatchObject({ status: "completed", paymentIntentId: s.paymentIntentId });
    const received = await notificationRows("payment-received");
    expect(received).toHaveLength(1);
    // The amount and who paid in the title (no name was given here), leading to the payment's row on Supporters.
    expect(received[0]).toMatchObject({ title: "Someone tipped you $25.00", buttonDestination: `/app/account/supporters#payment-${s.sessionId}` });
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.meta, { kind: "sponsor-receipt", url: `http://bio.test/${payee.ending}`, reference: s.sessionId }));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your receipt: $25.00 to Page of ${payee.uid}`);
    const ownerMails = await db().select().from(emailOutbox).where(eq(emailOutbox.to, `${payee.uid}@pay.example`));
    // The owner's mail is the "Payment received" alert's own (mailed by default), with its one-click unsubscribe.
    expect(ownerMails.map((m) => m.subject)).toEqual(["Someone tipped you $25.00"]);
    expect(ownerMails[0]!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    const [stored] = await db().select().from(paymentEvents).where(eq(paymentEvents.eventId, event.eventId));
    expect(stored!.handledAt).not.toBeNull();
    expect(stored!.payload).toMatchObject({ type: "checkout.completed", checkoutId: s.checkoutId });
  });

  it("keeps an unpaid (delayed) checkout pending until the payment succeeds, or fails", async () => {
    await deliver(events.checkout("checkout.completed", s, "unpaid"));
    expect(await session()).toMatchObject({ status: "pending", paymentIntentId: s.paymentIntentId });
    expect(callsOf("paymentDetails")).toHaveLength(0);
    await deliver(events.checkout("checkout.async_payment_succeeded", s));
    expect((await session()).status).toBe("completed");

    const other = await seedSession(db(), payee);
    await deliver(events.checkout("checkout.async_payment_failed", other, "unpaid"));
    expect((await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, other.sessionId)))[0]!.status).toBe("failed");
  });

  it("expires only a pending session", async () => {
    const late = await seedSession(db(), payee);
    await deliver(events.checkout("checkout.expired", late, "unpaid"));
    expect((await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, late.sessionId)))[0]!.status).toBe("expired");
    await pay();
    await deliver(events.checkout("checkout.expired", s, "unpaid"));
    await deliver(events.checkout("checkout.async_payment_failed", s, "unpaid"));
    expect((await session()).status).toBe("completed");
  });

  it("refunds once, whichever refund event comes first, and a refund before its payment waits for the provider's retry", async () => {
    const early = events.chargeRefunded(s);
    const first = await deliver(early);
    expect(first.kind).toBe("ERROR");
    const [stored] = await db().select().from(paymentEvents).where(eq(paymentEvents.eventId, early.eventId));
    expect(stored!.handledAt).toBeNull();
    await pay();
    expect(await deliver(early)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await deliver(events.refundUpdated(s, "succeeded"))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await deliver(events.chargeRefunded(s))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    const refunds = (await entries()).filter((e) => e.kind === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ gross: -2500, providerFee: 0, platformFee: -250, net: -2250 });
    expect((await session()).status).toBe("refunded");
    expect(await request()).toMatchObject({ status: "succeeded", providerRefundId: `re_${s.paymentIntentId}` });
    expect(await notificationRows("refund-done")).toHaveLength(1);
  });

  it("a failed refund leaves the payment completed and the request failed", async () => {
    await pay();
    await db().insert(refundRequests).values({ sessionId: s.sessionId, status: "pending", requestedBy: payee.uid, providerRefundId: "re_1" });
    await deliver(events.refundUpdated(s, "failed", "re_1"));
    expect(await request()).toMatchObject({ status: "failed" });
    expect((await session()).status).toBe("completed");
    expect(await notificationRows("refund-done")).toHaveLength(0);
  });

  it("records a dispute once, marks the payment disputed and alerts the owner", async () => {
    await pay();
    const dispute = events.disputeChanged(s);
    await deliver(dispute);
    await deliver({ ...dispute, eventId: `${dispute.eventId}_again` });
    const disputes = (await entries()).filter((e) => e.kind === "dispute");
    expect(disputes).toHaveLength(1);
    expect(disputes[0]).toMatchObject({ gross: -2500, providerFee: 1500, platformFee: -250, net: -2250, providerReference: dispute.type === "dispute.changed" ? dispute.disputeId : "" });
    expect((await session()).status).toBe("disputed");
    const opened = await notificationRows("dispute-opened");
    expect(opened).toHaveLength(1);
    // The amount, the deadline and what to do.
    expect(opened[0]!.message).toContain("$25.00");
    expect(opened[0]!.message).toContain("December 3, 2026");
    expect(opened[0]!.message).toContain("Do not refund");
  });

  it("account.updated writes the provider's current state: payments on, alert once; off again when charges stop", async () => {
    const newcomer = await seedPayee(db(), sandbox.provider, { complete: false });
    const accountNotifications = () => db().select().from(notifications).where(and(eq(notifications.uid, newcomer.uid), eq(notifications.kind, "payouts-enabled")));
    const state = async () => ({
      completed: (await db().select().from(connectedAccounts).where(eq(connectedAccounts.uid, newcomer.uid)))[0]!.completed,
      paymentsEnabled: (await db().select().from(profiles).where(eq(profiles.uid, newcomer.uid)))[0]!.paymentsEnabled,
    });
    // The event says enabled, the provider (asked fresh) says not yet: the provider wins.
    await deliver(events.accountUpdated(newcomer.accountId, true));
    expect(await state()).toEqual({ completed: false, paymentsEnabled: false });
    await setSandboxAccountState(db(), newcomer.accountId, { chargesEnabled: true });
    const generation = await sharedGenerationSource(db()).current();
    await deliver(events.accountUpdated(newcomer.accountId, true));
    // Their bio pages now offer sponsorships: cached guest pages are stale.
    expect(await sharedGenerationSource(db()).current()).not.toBe(generation);
    await deliver(events.accountUpdated(newcomer.accountId, true));
    expect(await state()).toEqual({ completed: true, paymentsEnabled: true });
    expect(await accountNotifications()).toHaveLength(1);
    await setSandboxAccountState(db(), newcomer.accountId, { chargesEnabled: false });
    await deliver(events.accountUpdated(newcomer.accountId, false));
    expect(await state()).toEqual({ completed: false, paymentsEnabled: false });
    // An account that is not ours is recorded and ignored.
    const elsewhere = await sandboxAccount(sandbox.provider, `elsewhere_${newcomer.uid}`, { complete: false });
    expect(await deliver(events.accountUpdated(elsewhere, true))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
  });

  it("a handler that fails (the provider is down) changes nothing and leaves the event for the retry", async () => {
    outage.add("paymentDetails");
    const event = events.checkout("checkout.completed", s);
    expect((await deliver(event)).kind).toBe("ERROR");
    expect(await entries()).toEqual([]);
    expect((await session()).status).toBe("pending");
    outage.clear();
    expect(await deliver(event)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await entries()).toHaveLength(1);
  });

  it("leaves a deal's checkout events to the deal: no tip session touched, no tip ledger row, nothing for an unknown funding", async () => {
    // The worst case: a deal event naming a real pending session and a real paid payment. Only its purpose keeps it from being filed as a tip.
    for (const type of ["checkout.completed", "checkout.async_payment_succeeded", "checkout.async_payment_failed", "checkout.expired"] as const) {
      expect(await deliver(events.checkout(type, s, type === "checkout.completed" || type === "checkout.async_payment_succeeded" ? "paid" : "unpaid", "deal"))).toMatchObject({
        kind: "SUCCESS",
        outcome: "HANDLED",
      });
    }
    expect(await session()).toMatchObject({ status: "pending", paymentIntentId: null });
    expect(await entries()).toEqual([]);
    expect(await notificationRows("payment-received")).toEqual([]);

    // A held payment made at the sandbox, its event as the sandbox sends it: purpose "deal", the funding id as sessionId.
    const { checkoutId } = await sandbox.provider.createHeldCheckout({
      idempotencyKey: `deal_funding_f_${s.sessionId}`,
      fundingId: `f_${s.sessionId}`,
      dealId: `d_${s.sessionId}`,
      transferGroup: `deal_d_${s.sessionId}`,
      amount: 5000,
      currency: "usd",
      productName: "Deal with a creator",
      sponsorEmail: null,
      successUrl: "http://app.test/app/deals/paid",
      cancelUrl: "http://app.test/app/deals/cancelled",
    });
    const paid = await payCheckout(db(), checkoutId, { email: "brand@sponsor.example", ...PAYING_CARD }, sandbox.provider.now(), sandbox.provider.whyPayeeCannotBePaid);
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
    const [stored] = await db().select().from(sandboxEvents).where(and(eq(sandboxEvents.type, "checkout.completed"), sql`${sandboxEvents.payload}->>'checkoutId' = ${checkoutId}`));
    const held = paymentEventSchema.parse(stored!.payload);
    expect(held).toMatchObject({ type: "checkout.completed", purpose: "deal", sessionId: `f_${s.sessionId}`, paymentIntentId: paid.paymentIntentId });
    expect(await deliver(held)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await db().select().from(ledgerEntries).where(eq(ledgerEntries.providerReference, paid.paymentIntentId))).toEqual([]);
    expect(await db().select().from(sponsorSessions).where(eq(sponsorSessions.paymentIntentId, paid.paymentIntentId))).toEqual([]);
    // The same session's own (tip) event still records its payment.
    await pay();
    expect(await entries()).toHaveLength(1);
  });

  it("ignores a checkout that is not ours", async () => {
    // A real payment at the provider, for a session this app never made.
    const stranger = await payAtSandbox(db(), sandbox.provider, payee, { ...s, sessionId: "ss_unknown", amount: 100, platformFee: 0 });
    expect(await deliver(events.checkout("checkout.completed", stranger))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await db().select().from(ledgerEntries).where(eq(ledgerEntries.providerReference, stranger.paymentIntentId))).toEqual([]);
  });
});
