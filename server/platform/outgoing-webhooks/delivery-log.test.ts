import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { user, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { getWebhookDelivery, listWebhookDeliveries, resendWebhookDelivery, sendTestWebhookEvent, TEST_EVENT_TYPE } from "./delivery-log";
import { createWebhookEndpoint, deleteWebhookEndpoint, disableWebhookEndpoint } from "./endpoints";
import { queueWebhookEvent } from "./queue";

const SESSION_SECRET = "delivery-log-test-session-secret-0123456789";

describe.each(ENGINES)("webhook delivery log on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let n = 0;
  let uid: string;
  let other: string;
  let endpointId: string;

  const newUser = async () => {
    n += 1;
    const id = `log_user_${engine}_${n}_${Date.now()}`;
    await db().insert(user).values({ id, name: id, email: `${id}@l.example`, emailVerified: true });
    return id;
  };
  const newEndpoint = async (who: string) => {
    const result = await createWebhookEndpoint(db(), { uid: who, sessionSecret: SESSION_SECRET, targets: "public" }, { url: "https://hooks.example.com/in", description: "", events: ["notification.created"] });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    return result.endpoint.id;
  };
  const event = async (who: string, at: Date, orderingKey = "notification:1") => {
    const id = await queueWebhookEvent(db(), { uid: who, type: "notification.created", orderingKey, data: { id: orderingKey }, now: at });
    const [delivery] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, id!));
    return delivery!;
  };
  /** What the delivery worker writes for one attempt. */
  const attempted = async (deliveryId: string, at: Date, status: number | null, finish?: "delivered" | "failed") => {
    await db()
      .insert(webhookAttempts)
      .values({
        id: `wa_${deliveryId}_${at.getTime()}`,
        deliveryId,
        attemptedAt: at,
        requestHeaders: { "webhook-id": "msg_x", "content-type": "application/json" },
        requestBody: '{"type":"notification.created"}',
        responseStatus: status,
        responseHeaders: status === null ? null : { "content-type": "text/plain" },
        responseBody: status === null ? null : `answer ${status}`,
        error: status === null ? "timed out after 10 s" : null,
        durationMs: 12,
      });
    await db()
      .update(webhookDeliveries)
      .set({ attempts: 1, ...(finish ? { status: finish, finishedAt: at } : {}) })
      .where(eq(webhookDeliveries.id, deliveryId));
  };

  beforeEach(async () => {
    uid = await newUser();
    other = await newUser();
    endpointId = await newEndpoint(uid);
  });

  it("lists deliveries newest first with every attempt's request and response, a page at a time", async () => {
    const deliveries = [];
    for (let i = 0; i < 5; i++) deliveries.push(await event(uid, new Date(Date.UTC(2026, 0, 1, 0, i)), `notification:${i}`));
    await attempted(deliveries[4]!.id, new Date("2026-01-01T00:04:01Z"), null);
    await attempted(deliveries[4]!.id, new Date("2026-01-01T00:05:01Z"), 200, "delivered");

    const first = await listWebhookDeliveries(db(), { uid, endpointId, pageSize: 2 });
    if (first.kind !== "SUCCESS") throw new Error(first.message);
    expect(first.deliveries.map((d) => d.id)).toEqual([deliveries[4]!.id, deliveries[3]!.id]);
    const [newest] = first.deliveries;
    expect(newest).toMatchObject({ eventType: "notification.created", status: "delivered", nextAttemptAt: null });
    expect(newest!.attempts.map((a) => [a.responseStatus, a.error])).toEqual([
      [null, "timed out after 10 s"],
      [200, null],
    ]);
    expect(newest!.attempts[1]).toMatchObject({ requestHeaders: { "webhook-id": "msg_x" }, requestBody: '{"type":"notification.created"}', responseHeaders: { "content-type": "text/plain" }, responseBody: "answer 200" });
    expect(first.deliveries[1]).toMatchObject({ status: "pending", attempts: [], nextAttemptAt: new Date("2026-01-01T00:03:00Z") });

    const second = await listWebhookDeliveries(db(), { uid, endpointId, pageSize: 2, cursor: first.nextCursor });
    const third = second.kind === "SUCCESS" ? await listWebhookDeliveries(db(), { uid, endpointId, pageSize: 2, cursor: second.nextCursor }) : second;
    expect(second.kind === "SUCCESS" && second.deliveries.map((d) => d.id)).toEqual([deliveries[2]!.id, deliveries[1]!.id]);
    expect(third.kind === "SUCCESS" && [third.deliveries.map((d) => d.id), third.nextCursor]).toEqual([[deliveries[0]!.id], null]);
  });

  it("shows one delivery with its attempts to its owner only", async () => {
    const delivery = await event(uid, new Date());
    await attempted(delivery.id, new Date(), 500, "failed");
    expect(await getWebhookDelivery(db(), { uid, deliveryId: delivery.id })).toMatchObject({ kind: "SUCCESS", endpointId, delivery: { id: delivery.id, status: "failed", attempts: [{ responseStatus: 500, responseBody: "answer 500" }] } });
    expect(await getWebhookDelivery(db(), { uid: other, deliveryId: delivery.id })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await listWebhookDeliveries(db(), { uid: other, endpointId })).toMatchObject({ kind: "ERROR", code: "not-found", reason: "ENDPOINT_NOT_FOUND" });
  });

  it("resends a finished delivery as a new pending one of the same event, and kicks the worker", async () => {
    const delivery = await event(uid, new Date("2026-01-01T00:00:00Z"));
    await attempted(delivery.id, new Date("2026-01-01T00:00:01Z"), 500, "failed");
    let kicked = 0;
    const now = new Date("2026-01-02T00:00:00Z");
    const resent = await resendWebhookDelivery(db(), { uid, deliveryId: delivery.id, now, kick: () => (kicked += 1) });
    if (resent.kind !== "SUCCESS") throw new Error(resent.message);
    expect(resent).toMatchObject({ outcome: "QUEUED", endpointId });
    expect(kicked).toBe(1);
    const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, resent.deliveryId));
    expect(row).toMatchObject({ eventId: delivery.eventId, endpointId, orderingKey: delivery.orderingKey, eventSequence: delivery.eventSequence, status: "pending", attempts: 0, nextAttemptAt: now });
    // The old one stays in the log as it was.
    expect((await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0]).toMatchObject({ status: "failed" });

    // Resent again while that one is still pending: the pending one is tried now, no third copy.
    const later = new Date("2026-01-02T00:00:05Z");
    await db().update(webhookDeliveries).set({ nextAttemptAt: new Date("2026-01-02T06:00:00Z") }).where(eq(webhookDeliveries.id, resent.deliveryId));
    expect(await resendWebhookDelivery(db(), { uid, deliveryId: delivery.id, now: later })).toMatchObject({ kind: "SUCCESS", outcome: "RETRYING_NOW", deliveryId: resent.deliveryId });
    const ofEvent = await db().select().from(webhookDeliveries).where(and(eq(webhookDeliveries.eventId, delivery.eventId), eq(webhookDeliveries.endpointId, endpointId)));
    expect(ofEvent).toHaveLength(2);
    expect(ofEvent.find((d) => d.id === resent.deliveryId)!.nextAttemptAt).toEqual(later);
  });

  it("resends nothing for another account or to an endpoint that is turned off", async () => {
    const delivery = await event(uid, new Date());
    await attempted(delivery.id, new Date(), 410, "failed");
    let kicked = 0;
    expect(await resendWebhookDelivery(db(), { uid: other, deliveryId: delivery.id, kick: () => (kicked += 1) })).toMatchObject({ kind: "ERROR", code: "not-found", reason: "DELIVERY_NOT_FOUND" });
    await disableWebhookEndpoint(db(), { uid, endpointId });
    expect(await resendWebhookDelivery(db(), { uid, deliveryId: delivery.id, kick: () => (kicked += 1) })).toMatchObject({ kind: "ERROR", code: "aborted", reason: "ENDPOINT_DISABLED" });
    expect(kicked).toBe(0);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, delivery.eventId))).toHaveLength(1);
  });

  it("sends a test event to one endpoint only, whatever events it lists", async () => {
    const second = await newEndpoint(uid);
    let kicked = 0;
    const sent = await sendTestWebhookEvent(db(), { uid, endpointId, kick: () => (kicked += 1) });
    if (sent.kind !== "SUCCESS") throw new Error(sent.message);
    expect(kicked).toBe(1);
    const [stored] = await db().select().from(webhookEvents).where(eq(webhookEvents.id, sent.eventId));
    expect(stored).toMatchObject({ uid, type: TEST_EVENT_TYPE, payload: { type: TEST_EVENT_TYPE, data: { endpointId } } });
    const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, sent.eventId));
    expect(deliveries.map((d) => d.endpointId)).toEqual([endpointId]);
    const log = await listWebhookDeliveries(db(), { uid, endpointId: second });
    expect(log.kind === "SUCCESS" && log.deliveries).toEqual([]);
    expect(await sendTestWebhookEvent(db(), { uid: other, endpointId })).toMatchObject({ kind: "ERROR", code: "not-found" });
  });

  it("deleting an endpoint deletes its log", async () => {
    const delivery = await event(uid, new Date());
    await attempted(delivery.id, new Date(), 200, "delivered");
    await deleteWebhookEndpoint(db(), { uid, endpointId });
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))).toEqual([]);
    expect(await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id))).toEqual([]);
    expect(await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId))).toEqual([]);
  });
});
