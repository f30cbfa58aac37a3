import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { refundRequests, sponsorSessions } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { failSandboxRefund, testSandbox, withCallLog, withHeldAnswers, withOutage } from "#tests/support/test-sandbox";
import type { PaymentProvider } from "#server/providers/payments/port";
import { refundSponsorship, REFUND_CLAIM_LEASE_MS } from "#server/domains/payments/refunds/refunds";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";

describe.each(ENGINES)("refunds on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  /** The sandbox as the domain reaches it: its refunds logged (refused ones too), and unreachable when a test says so. */
  let provider: PaymentProvider;
  let outage: ReturnType<typeof withOutage>["down"];
  let refundCalls: () => { idempotencyKey: string; paymentIntentId: string }[];
  let payee: Payee;
  let s: SeededSession;
  const db = () => database.db;
  const request = async () => (await db().select().from(refundRequests).where(eq(refundRequests.sessionId, s.sessionId)))[0];
  const status = async () => (await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, s.sessionId)))[0]!.status;

  beforeEach(async () => {
    const reachable = withOutage(sandbox.provider);
    const log = withCallLog(reachable.provider);
    ({ provider } = log);
    outage = reachable.down;
    refundCalls = () => log.callsOf("refundPayment");
    payee = await seedPayee(db(), sandbox.provider);
    s = await payAtSandbox(db(), sandbox.provider, payee, await seedSession(db(), payee, { amount: 4000 }));
    await receivePaymentEvent(db(), events.checkout("checkout.completed", s), webhookDeps(db(), provider));
  });

  it("50 concurrent refund requests make exactly one provider refund; the webhook finishes it", async () => {
    // The provider's answer is held until the other 49 requests have been answered, so all 50 overlap.
    const held = withHeldAnswers(provider, "refundPayment");
    let othersAnswered!: () => void;
    const others = new Promise<void>((resolve) => (othersAnswered = resolve));
    let answered = 0;
    const asking = Array.from({ length: 50 }, () =>
      refundSponsorship(db(), held.provider, { uid: payee.uid, sessionId: s.sessionId }).then((result) => {
        answered += 1;
        if (answered === 49) othersAnswered();
        return result;
      }),
    );
    await Promise.all([held.answered, others]);
    held.release();
    const results = await Promise.all(asking);
    expect(refundCalls()).toEqual([{ idempotencyKey: `refund_${s.sessionId}`, paymentIntentId: s.paymentIntentId }]);
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
    expect(refundCalls()).toHaveLength(1);
  });

  it("only the owner, only a completed payment", async () => {
    const other = await seedPayee(db(), sandbox.provider);
    expect(await refundSponsorship(db(), provider, { uid: other.uid, sessionId: s.sessionId })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: "ss_nothing" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    const unpaid = await seedSession(db(), payee);
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: unpaid.sessionId })).toMatchObject({
      kind: "ERROR",
      code: "aborted",
      message: "Only a completed payment can be refunded; this one is pending.",
    });
    expect(refundCalls()).toHaveLength(0);
  });

  it("a provider that is down leaves the claim; only after the lease is the same refund asked again, with the same key", async () => {
    outage.add("refundPayment");
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })).toMatchObject({ kind: "ERROR", code: "unavailable" });
    outage.clear();
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })).toMatchObject({ kind: "SUCCESS", alreadyRequested: true });
    expect(refundCalls()).toHaveLength(1);
    await db().update(refundRequests).set({ updatedAt: new Date(Date.now() - REFUND_CLAIM_LEASE_MS - 1000) }).where(eq(refundRequests.sessionId, s.sessionId));
    expect(await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId })).toMatchObject({ kind: "SUCCESS", alreadyRequested: false });
    expect(refundCalls().map((c) => c.idempotencyKey)).toEqual([`refund_${s.sessionId}`, `refund_${s.sessionId}`]);
  });

  it("after a refund the provider failed, a new try has a key of its own", async () => {
    await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId });
    const { providerRefundId } = (await request())!;
    await failSandboxRefund(db(), providerRefundId!);
    await receivePaymentEvent(db(), events.refundUpdated(s, "failed", providerRefundId!), webhookDeps(db(), provider));
    expect(await request()).toMatchObject({ status: "failed" });
    expect(await status()).toBe("completed");
    await refundSponsorship(db(), provider, { uid: payee.uid, sessionId: s.sessionId });
    expect(refundCalls().map((c) => c.idempotencyKey)).toEqual([`refund_${s.sessionId}`, `refund_${s.sessionId}_2`]);
    expect(await request()).toMatchObject({ status: "pending", attempt: 2 });
  });

  it("a webhook faster than the provider's answer is not overwritten by it", async () => {
    // The refund succeeds and its event is handled while refundPayment's answer is still on its way back.
    const held = withHeldAnswers(provider, "refundPayment");
    const asking = refundSponsorship(db(), held.provider, { uid: payee.uid, sessionId: s.sessionId });
    await held.answered;
    await receivePaymentEvent(db(), events.chargeRefunded(s), webhookDeps(db(), provider));
    held.release();
    expect((await asking).kind).toBe("SUCCESS");
    expect(await request()).toMatchObject({ status: "succeeded" });
    expect(await status()).toBe("refunded");
  });
});
