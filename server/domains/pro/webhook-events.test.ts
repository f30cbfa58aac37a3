import { and, asc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { billingCustomers, user, webhookDeliveries, webhookEvents } from "#server/platform/db/schema";
import { createWebhookEndpoint } from "#server/platform/outgoing-webhooks/endpoints";
import type { ProviderProState, ProviderSubscription } from "#server/providers/payments/port";
import { webhookContract } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps, TEST_SESSION_SECRET } from "#tests/support/payments";
import { syncProMembership } from "./sync";

const NOW = new Date("2026-11-22T12:00:00Z");
const LATER = new Date("2026-12-22T12:00:00Z");

describe.each(ENGINES)("pro.started / pro.ended webhook events on %s", (engine) => {
  const database = migratedDatabase(engine);
  const contract = webhookContract();
  const db = () => database.db;
  let n = 0;
  const member = async () => {
    n += 1;
    const uid = `pro_hook_${engine}_${n}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@p.example`, emailVerified: true });
    await db().insert(billingCustomers).values({ uid, provider: "sandbox", customerId: `cus_${uid}` });
    return uid;
  };
  const state = (uid: string, status: ProviderSubscription["status"] | null): ProviderProState => ({
    customerId: `cus_${uid}`,
    subscriptions: status ? [{ subscriptionId: `sub_${uid}`, plan: "launchpad", status, currentPeriodEnd: LATER, cancelAtPeriodEnd: false, created: NOW }] : [],
    lifetimePurchase: null,
  });
  const subscribe = async (uid: string, events: string[]) => {
    const made = await createWebhookEndpoint(db(), { uid, sessionSecret: TEST_SESSION_SECRET, targets: "public" }, { url: "https://hooks.example.com/in", description: "", events });
    if (made.kind !== "SUCCESS") throw new Error(made.message);
    return made.endpoint.id;
  };
  const sync = (uid: string, status: ProviderSubscription["status"] | null) => db().transaction((tx) => syncProMembership(tx, uid, state(uid, status), NOW, notificationDeps(tx)));
  const eventsOf = async (uid: string) =>
    (await db().select().from(webhookEvents).where(and(eq(webhookEvents.uid, uid), like(webhookEvents.type, "pro.%"))).orderBy(asc(webhookEvents.sequence))).map((e) => {
      contract.checkWebhook(e.payload); // what is sent is what the OpenAPI document says
      return { id: e.id, type: e.type, orderingKey: e.orderingKey, data: (e.payload as { data: unknown }).data };
    });

  it("one pro.started when the membership starts and one pro.ended when it ends, none for changes within", async () => {
    const uid = await member();
    const endpointId = await subscribe(uid, ["pro.started", "pro.ended"]);
    await sync(uid, "active");
    await sync(uid, "active"); // a replay: no change
    await sync(uid, "past_due"); // still Pro: renewal failed is a notification, not a webhook event
    await sync(uid, "canceled");
    const sent = await eventsOf(uid);
    expect(sent.map((e) => [e.type, e.orderingKey])).toEqual([
      ["pro.started", `pro:${uid}`],
      ["pro.ended", `pro:${uid}`],
    ]);
    expect(sent[0]!.data).toEqual({ plan: "launchpad", planName: "Launchpad", status: "active", currentPeriodEnd: LATER.toISOString(), cancelAtPeriodEnd: false });
    expect(sent[1]!.data).toMatchObject({ plan: "launchpad", status: "canceled" });
    for (const event of sent) expect((await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id))).map((d) => d.endpointId)).toEqual([endpointId]);
  });

  it("nothing for an endpoint that wants other events, or when the sync rolls back", async () => {
    const [other, rolled] = [await member(), await member()];
    await subscribe(other, ["pro.ended"]);
    await sync(other, "active");
    expect(await eventsOf(other)).toEqual([]);

    await subscribe(rolled, ["pro.started"]);
    await expect(
      db().transaction(async (tx) => {
        await syncProMembership(tx, rolled, state(rolled, "active"), NOW, notificationDeps(tx));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await eventsOf(rolled)).toEqual([]);
  });
});
