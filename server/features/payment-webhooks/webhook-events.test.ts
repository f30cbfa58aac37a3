import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEvents } from "#server/platform/db/schema";
import { createWebhookEndpoint } from "#server/platform/outgoing-webhooks/endpoints";
import type { PaymentEvent } from "#server/providers/payments/events";
import { webhookContract } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, payAtSandbox, seedPayee, seedSession, TEST_SESSION_SECRET, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { receivePaymentEvent } from "./intake";
import { prefetchPayment, settlePayment } from "./settle-payment";

/** The payment events the payment provider's webhooks produce for the creator's own webhook endpoints. */
describe.each(ENGINES)("payment.* webhook events on %s", (engine) => {
  const database = migratedDatabase(engine);
  const contract = webhookContract();
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let payee: Payee;
  let s: SeededSession;
  const deliver = (event: PaymentEvent) => receivePaymentEvent(db(), event, webhookDeps(db(), sandbox.provider));
  const subscribe = async (events: string[]) => {
    const made = await createWebhookEndpoint(db(), { uid: payee.uid, sessionSecret: TEST_SESSION_SECRET, targets: "public" }, { url: "https://hooks.example.com/in", description: "", events });
    if (made.kind !== "SUCCESS") throw new Error(made.message);
    return made.endpoint.id;
  };
  const paymentEvents = async () =>
    (
      await db()
        .select()
        .from(webhookEvents)
        .where(and(eq(webhookEvents.uid, payee.uid), eq(webhookEvents.orderingKey, `payment:${s.sessionId}`)))
        .orderBy(asc(webhookEvents.sequence))
    ).map((e) => {
      // What is sent is what the OpenAPI document's webhooks say: the Payment the API answers.
      contract.checkWebhook(e.payload);
      return { id: e.id, type: e.type, data: (e.payload as { data: Record<string, unknown> }).data };
    });
  const deliveriesOf = (eventId: string) => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));

  beforeEach(async () => {
    payee = await seedPayee(db(), sandbox.provider);
    s = await payAtSandbox(db(), sandbox.provider, payee, await seedSession(db(), payee, { amount: 2500, platformFee: 250 }));
  });

  it("payment.succeeded once per payment, with the payment's amounts, to each endpoint that wants it", async () => {
    const wants = await subscribe(["payment.succeeded", "payment.refunded"]);
    const also = await subscribe(["payment.succeeded"]);
    await subscribe(["notification.created"]);
    const paid = events.checkout("checkout.completed", s);
    await deliver(paid);
    await deliver(paid);
    await deliver(events.checkout("checkout.async_payment_succeeded", s));
    const [event, ...more] = await paymentEvents();
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: "payment.succeeded", data: { id: s.sessionId, kind: "tip", status: "completed", amount: 2500, currency: "usd", figures: { gross: 2500, fee: 250, net: 2250 } } });
    expect((await deliveriesOf(event!.id)).map((d) => d.endpointId).sort()).toEqual([wants, also].sort());
  });

  it("payment.refunded and payment.disputed follow it, in order, each once", async () => {
    await subscribe(["payment.succeeded", "payment.refunded", "payment.disputed"]);
    await deliver(events.checkout("checkout.completed", s));
    const dispute = events.disputeChanged(s);
    await deliver(dispute);
    await deliver({ ...dispute, eventId: `${dispute.eventId}_again` }); // the same report again: nothing new
    await deliver(events.disputeChanged(s, "won", undefined, new Date(Date.now() + 60_000)));
    await deliver(events.refundUpdated(s, "succeeded"));
    await deliver(events.chargeRefunded(s));
    const sent = await paymentEvents();
    expect(sent.map((e) => e.type)).toEqual(["payment.succeeded", "payment.disputed", "payment.disputed", "payment.refunded"]);
    expect(sent[1]!.data).toMatchObject({ status: "disputed", dispute: { status: "needs_response", reason: "fraudulent", evidenceDueBy: "2026-12-03T23:59:59.000Z" } });
    expect(sent[2]!.data).toMatchObject({ status: "completed", dispute: { status: "won" } });
    expect(sent[3]!.data).toMatchObject({ status: "refunded", refundStatus: "succeeded", figures: { gross: 2500, net: 0 } });
  });

  it("nothing when no endpoint wants the event", async () => {
    await subscribe(["payment.refunded"]);
    await deliver(events.checkout("checkout.completed", s));
    expect(await paymentEvents()).toEqual([]);
  });

  it("nothing when the change rolls back", async () => {
    await subscribe(["payment.succeeded"]);
    const paid = events.checkout("checkout.completed", s) as Parameters<typeof settlePayment>[1];
    // The provider is asked before the transaction, as the intake does (the sandbox answers from the same database).
    const prefetched = await prefetchPayment(db(), paid, webhookDeps(db(), sandbox.provider));
    let queued: unknown;
    await expect(
      db().transaction(async (tx) => {
        await settlePayment(tx, paid, prefetched, webhookDeps(tx, sandbox.provider));
        queued = await tx.select().from(webhookEvents).where(eq(webhookEvents.orderingKey, `payment:${s.sessionId}`));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(queued).toHaveLength(1);
    expect(await paymentEvents()).toEqual([]);
    expect(await db().select().from(webhookEvents).where(eq(webhookEvents.uid, payee.uid))).toEqual([]);
  });
});
