import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { refundRequests, sponsorSessions } from "#server/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { FakePaymentProvider } from "#tests/support/fake-payment-provider";
import { events, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { refundSponsorship, REFUND_CLAIM_LEASE_MS } from "./refunds";
import { receivePaymentEvent } from "./webhooks/intake";

describe.each(ENGINES)("refunds on %s", (engine) => {
  const database = migratedDatabase(engine);
  let provider: FakePaymentProvider;
  let payee: Payee;
  let s: SeededSession;
  const db = () => database.db;
  const request = async () => (await db().select().from(refundRequests).where(eq(refundRequests.sessionId, s.sessionId)))[0];
  const status = async () => (await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, s.sessionId)))[0]!.status;

  beforeEach(async () => {
    provider = new FakePaymentProvider();
    payee = await seedPayee(db(), provider);
    s = await seedSession(db(), payee, { amount: 4000 });
    provider.settlePayment(s.paymentIntentId, s.amount);
    await receivePaymentEvent(db(), events.checkout("checkout.completed", s), webhookDeps(db(), provider));
  });

  it("50 concurrent refund requests make exactly one provider refund; the webhook finishes it", async () => {
    provider.refundDelayMs = 25;
    const results = await Promise.all(Array.from({ length: 50 }, () => refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })));
    expect(provider.calls.refundPayment).toEqual([{ idempotencyKey: `refund_${s.sessionId}`, paymentIntentId: s.paymentIntentId }]);
    expect(results.every((r) => r.kind === "SUCCESS")).toBe(true);
    expect(results.filter((r) => r.kind === "SUCCESS" && !r.alreadyRequested)).toHaveLength(1);
    const claimed = await request();
    expect(claimed).toMatchObject({ status: "pending", requestedBy: payee.uid, attempt: 1 });
    expect(claimed!.providerRefundId).toMatch(/^re_/);
    // A refund in flight does not change the payment's status; the provider's word does.
    expect(await status()).toBe("completed");
    await receivePaymentEvent(db(), events.refundUpdated(s, "succeeded", claimed!.providerRefundId!), webhookDeps(db(), provider));
    expect(await status()).toBe("refunded");
    expect(await request()).toMatchObject({ status: "succeeded" });
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })).toEqual({ kind: "SUCCESS", status: "succeeded", alreadyRequested: true });
    expect(provider.calls.refundPayment).toHaveLength(1);
  });

  it("only the owner, only a completed payment", async () => {
    const other = await seedPayee(db(), provider);
    expect(await refundSponsorship(db(), provider, { uid: other.uid, sessionId: s.sessionId })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: "ss_nothing" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    const unpaid = await seedSession(db(), payee);
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: unpaid.sessionId })).toMatchObject({
      kind: "ERROR",
      code: "aborted",
      message: "Only a completed payment can be refunded; this one is pending.",
    });
    expect(provider.calls.refundPayment).toHaveLength(0);
  });

  it("a provider that is down leaves the claim; only after the lease is the same refund asked again, with the same key", async () => {
    provider.failing.add("refundPayment");
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })).toMatchObject({ kind: "ERROR", code: "unavailable" });
    provider.failing.clear();
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })).toMatchObject({ kind: "SUCCESS", alreadyRequested: true });
    expect(provider.calls.refundPayment).toHaveLength(1);
    await db().update(refundRequests).set({ updatedAt: new Date(Date.now() - REFUND_CLAIM_LEASE_MS - 1000) }).where(eq(refundRequests.sessionId, s.sessionId));
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })).toMatchObject({ kind: "SUCCESS", alreadyRequested: false });
    expect(provider.calls.refundPayment.map((c) => c.idempotencyKey)).toEqual([`refund_${s.sessionId}`, `refund_${s.sessionId}`]);
  });

  it("after a refund the provider failed, a new try has a key of its own", async () => {
    await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId });
    const { providerRefundId } = (await request())!;
    await receivePaymentEvent(db(), events.refundUpdated(s, "failed", providerRefundId!), webhookDeps(db(), provider));
    expect(await request()).toMatchObject({ status: "failed" });
    expect(await status()).toBe("completed");
    await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId });
    expect(provider.calls.refundPayment.map((c) => c.idempotencyKey)).toEqual([`refund_${s.sessionId}`, `refund_${s.sessionId}_2`]);
    expect(await request()).toMatchObject({ status: "pending", attempt: 2 });
  });

  it("a webhook faster than the provider's answer is not overwritten by it", async () => {
    // The refund succeeds at the provider and its event is handled while refundPayment's answer is
    // still on its way: the answer is held until the webhook is in, whatever the machine's speed.
    const createRefund = provider.refundPayment.bind(provider);
    let created!: () => void;
    const refundCreated = new Promise<void>((resolve) => (created = resolve));
    let deliver!: () => void;
    const answerDelivered = new Promise<void>((resolve) => (deliver = resolve));
    provider.refundPayment = async (input) => {
      const refund = await createRefund(input);
      created();
      await answerDelivered;
      return refund;
    };
    const asking = refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId });
    await refundCreated;
    await receivePaymentEvent(db(), events.chargeRefunded(s), webhookDeps(db(), provider));
    deliver();
    expect((await asking).kind).toBe("SUCCESS");
    expect(await request()).toMatchObject({ status: "succeeded" });
    expect(await status()).toBe("refunded");
  });
});
