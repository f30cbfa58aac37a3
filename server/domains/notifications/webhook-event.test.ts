import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { user, webhookDeliveries, webhookEvents } from "#server/platform/db/schema";
import { createWebhookEndpoint, disableWebhookEndpoint } from "#server/platform/outgoing-webhooks/endpoints";
import { webhookContract } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps, TEST_SESSION_SECRET } from "#tests/support/payments";
import { sendNotification } from "./send";
import { welcomeOnce } from "./welcome";

describe.each(ENGINES)("notification.created webhook events on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let n = 0;
  const person = async () => {
    n += 1;
    const id = `notif_hook_${engine}_${n}`;
    await db().insert(user).values({ id, name: id, email: `${id}@w.example`, emailVerified: true });
    return id;
  };
  const subscribe = async (uid: string, events: string[]) => {
    const made = await createWebhookEndpoint(db(), { uid, sessionSecret: TEST_SESSION_SECRET, targets: "public" }, { url: "https://hooks.example.com/in", description: "", events });
    if (made.kind !== "SUCCESS") throw new Error(made.message);
    return made.endpoint.id;
  };
  const eventsOf = (uid: string) => db().select().from(webhookEvents).where(and(eq(webhookEvents.uid, uid), eq(webhookEvents.type, "notification.created")));
  const note = (uid: string) => ({ uid, kind: "general" as const, title: "Hello", message: "Something happened.", buttonText: "Look", buttonDestination: "/app" });

  it("queues the notification as the API shows it, with a delivery per endpoint that wants it, in the same transaction", async () => {
    const uid = await person();
    const wants = await subscribe(uid, ["notification.created"]);
    await subscribe(uid, ["payment.succeeded"]);
    const off = await subscribe(uid, ["notification.created"]);
    await disableWebhookEndpoint(db(), { uid, endpointId: off });
    await db().transaction((tx) => sendNotification(tx, note(uid), notificationDeps(tx)));
    const [event, ...more] = await eventsOf(uid);
    expect(more).toEqual([]);
    const data = (event!.payload as { type: string; data: Record<string, unknown> }).data;
    expect(event!.payload).toMatchObject({ type: "notification.created" });
    expect(data).toMatchObject({ kind: "general", title: "Hello", message: "Something happened.", unread: true, readAt: null });
    expect((data.action as { text: string; url: string }).text).toBe("Look");
    expect(new URL((data.action as { url: string }).url).pathname).toBe("/app");
    // What the OpenAPI document's webhooks say: the Notification GET /api/v1/notifications answers.
    webhookContract().checkWebhook(event!.payload);
    expect(event!.orderingKey).toBe(`notification:${data.id as string}`);
    expect(new Date(data.createdAt as string).toISOString()).toBe(data.createdAt);
    expect((await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id))).map((d) => d.endpointId)).toEqual([wants]);
  });

  it("nothing without an endpoint for it, for a notification that already existed, or when the change rolls back", async () => {
    const [plain, welcomed, rolled] = [await person(), await person(), await person()];
    await subscribe(plain, ["pro.started"]);
    await sendNotification(db(), note(plain), notificationDeps(db()));
    expect(await eventsOf(plain)).toEqual([]);

    await subscribe(welcomed, ["notification.created"]);
    await welcomeOnce(db(), welcomed, notificationDeps(db()));
    await welcomeOnce(db(), welcomed, notificationDeps(db()));
    expect(await eventsOf(welcomed)).toHaveLength(1);

    await subscribe(rolled, ["notification.created"]);
    await expect(
      db().transaction(async (tx) => {
        await sendNotification(tx, note(rolled), notificationDeps(tx));
        expect(await tx.select().from(webhookEvents).where(eq(webhookEvents.uid, rolled))).toHaveLength(1);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await eventsOf(rolled)).toEqual([]);
  });
});
