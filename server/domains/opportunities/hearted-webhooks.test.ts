import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hearts, opportunityPosts, user, webhookDeliveries, webhookEvents } from "#server/platform/db/schema";
import { createWebhookEndpoint, disableWebhookEndpoint } from "#server/platform/outgoing-webhooks/endpoints";
import { webhookContract } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { newOpportunityId } from "./ids";
import { queueHeartedEvents } from "./hearted-webhooks";

const T0 = new Date("2026-11-22T10:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe.each(ENGINES)("batched opportunity.hearted events on %s", (engine) => {
  const database = migratedDatabase(engine);
  const contract = webhookContract();
  const db = () => database.db;
  let n = 0;
  const person = async () => {
    n += 1;
    const id = `hearted_${engine}_${n}`;
    await db().insert(user).values({ id, name: id, email: `${id}@h.example`, emailVerified: true });
    return id;
  };
  const post = async (poster: string, totalHearts = 0) => {
    const id = newOpportunityId(new Date());
    await db().insert(opportunityPosts).values({ id, posterUid: poster, posterName: poster, title: `Post of ${poster}`, description: "A post.", datePosted: new Date(), totalHearts });
    return id;
  };
  const heart = (postId: string, uid: string, when: Date) => db().insert(hearts).values({ id: `${postId}_${uid}`, postId, uid, createdAt: when });
  const subscribe = async (uid: string, events: string[], when: Date) => {
    const made = await createWebhookEndpoint(db(), { uid, sessionSecret: "s".repeat(40), targets: "public", now: when }, { url: "https://hooks.example.com/in", description: "", events });
    if (made.kind !== "SUCCESS") throw new Error(made.message);
    return made.endpoint.id;
  };
  const eventsOf = async (uid: string) =>
    (await db().select().from(webhookEvents).where(and(eq(webhookEvents.uid, uid), eq(webhookEvents.type, "opportunity.hearted"))).orderBy(asc(webhookEvents.sequence))).map((e) => {
      contract.checkWebhook(e.payload); // what is sent is what the OpenAPI document says
      return { orderingKey: e.orderingKey, data: (e.payload as { data: unknown }).data };
    });

  it("sends one event per hearted opportunity since the last batch, from subscription on, without gaps or repeats", async () => {
    const [alice, fans] = [await person(), await Promise.all([person(), person(), person()])];
    const [a1, a2] = [await post(alice, 7), await post(alice, 2)];
    await heart(a1, fans[0]!, at(-30)); // before Alice subscribed: not news to her endpoint
    const endpointId = await subscribe(alice, ["opportunity.hearted"], at(-20));
    await heart(a1, fans[1]!, at(-10));
    await heart(a1, fans[2]!, at(-5));
    await heart(a2, fans[0]!, at(-3));
    await heart(a2, alice, at(-2)); // her own: not news
    await heart(a2, fans[1]!, at(0)); // after this batch's cut (30 s before the run): the next batch's

    expect(await queueHeartedEvents(db(), at(0))).toBe(2);
    const cut = new Date(at(0).getTime() - 30_000).toISOString();
    const byKey = (a: { orderingKey: string }, b: { orderingKey: string }) => a.orderingKey.localeCompare(b.orderingKey);
    expect((await eventsOf(alice)).sort(byKey)).toEqual([
      { orderingKey: `opportunity:${a1}`, data: { opportunity: { id: a1, title: `Post of ${alice}` }, newHearts: 2, totalHearts: 7, from: at(-20).toISOString(), to: cut } },
      { orderingKey: `opportunity:${a2}`, data: { opportunity: { id: a2, title: `Post of ${alice}` }, newHearts: 1, totalHearts: 2, from: at(-20).toISOString(), to: cut } },
    ].sort(byKey));
    const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    expect(deliveries).toHaveLength(2);

    // Run again at once (a run cut short, or a second process): the batch starts where the last ended.
    expect(await queueHeartedEvents(db(), at(0))).toBe(0);
    // The job missed two rounds: the next batch still starts at the last one's end.
    expect(await queueHeartedEvents(db(), at(15))).toBe(1);
    const latest = (await eventsOf(alice)).at(-1)!;
    expect(latest).toEqual({ orderingKey: `opportunity:${a2}`, data: expect.objectContaining({ newHearts: 1, from: cut, to: new Date(at(15).getTime() - 30_000).toISOString() }) });
  });

  it("sends nothing to people without an endpoint for it, or whose endpoint is turned off", async () => {
    const [bob, carol, dave, fan] = [await person(), await person(), await person(), await person()];
    const [b1, c1, d1] = [await post(bob), await post(carol), await post(dave)];
    await subscribe(carol, ["notification.created"], at(-60));
    const daves = await subscribe(dave, ["opportunity.hearted"], at(-60));
    await disableWebhookEndpoint(db(), { uid: dave, endpointId: daves });
    for (const id of [b1, c1, d1]) await heart(id, fan, at(-10));
    await queueHeartedEvents(db(), at(0));
    expect([...(await eventsOf(bob)), ...(await eventsOf(carol)), ...(await eventsOf(dave))]).toEqual([]);
  });

  it("writes a person's batch in one transaction: a failure leaves no event behind", async () => {
    const [erin, fan] = [await person(), await person()];
    const e1 = await post(erin);
    await subscribe(erin, ["opportunity.hearted"], at(-60));
    await heart(e1, fan, at(-10));
    await expect(
      db().transaction(async (tx) => {
        expect(await queueHeartedEvents(tx, at(0))).toBeGreaterThan(0);
        throw new Error("the run died");
      }),
    ).rejects.toThrow("the run died");
    expect(await eventsOf(erin)).toEqual([]);
    expect(await queueHeartedEvents(db(), at(0))).toBeGreaterThan(0);
    expect(await eventsOf(erin)).toHaveLength(1);
  });
});
