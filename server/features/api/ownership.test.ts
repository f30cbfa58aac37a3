import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bioPages, membershipTiers, memberships, notifications, opportunityPosts, refundRequests, sponsorSessions, webhookDeliveries, webhookEndpoints, webhookEvents } from "#server/platform/db/schema";
import { createWebhookEndpoint } from "#server/platform/outgoing-webhooks/endpoints";
import { queueWebhookEvent } from "#server/platform/outgoing-webhooks/queue";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { sendNotification } from "#server/domains/notifications/send";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, notificationDeps, payAtSandbox, seedPayee, seedSession, TEST_SESSION_SECRET, webhookDeps } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { API_OPERATIONS } from "./operations/index";

/**
 * Every operation that names one object, called with another account's key that has every
 * scope: the object does not exist for them (404, the same answer as a made-up id), and nothing
 * about it changes. The one exception is reading an opportunity, which is public on the site too.
 */
const PUBLIC_READS = new Set(["GET /opportunities/{id}"]);
/** A body the owner could send to a create under someone's object: only whose object it is can refuse it. */
const POST_BODIES: Record<string, object> = { "POST /bio-pages/{id}/membership-tiers": { name: "Mine now", monthlyPrice: 500 } };
const objectOperations = API_OPERATIONS.filter((operation) => operation.path.includes("{id}"));

describe.each(ENGINES)("another account's objects through the API on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider });
  const db = () => database.db;

  /** One object of each kind, owned by a fresh creator; the id to put in the path. */
  async function ownedObject(kind: string): Promise<{ owner: string; id: string; snapshot: () => Promise<unknown> }> {
    const payee = await seedPayee(db(), sandbox.provider);
    if (kind === "opportunities") {
      const created = await api.call("POST", "/opportunities", {
        key: await api.keyFor(payee.uid),
        body: { title: "Their post", description: "Only theirs to change.", minContribution: { amount: 100, currency: "usd" } },
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      return { owner: payee.uid, id, snapshot: async () => (await db().select().from(opportunityPosts).where(eq(opportunityPosts.id, id)))[0] };
    }
    if (kind === "bio-pages") {
      return { owner: payee.uid, id: payee.pageId, snapshot: async () => (await db().select().from(bioPages).where(eq(bioPages.id, payee.pageId)))[0] };
    }
    if (kind === "payments") {
      const s = await payAtSandbox(db(), sandbox.provider, payee, await seedSession(db(), payee, { amount: 3000 }));
      await receivePaymentEvent(db(), events.checkout("checkout.completed", s), webhookDeps(db(), sandbox.provider));
      const snapshot = async () => ({
        session: (await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, s.sessionId)))[0],
        refunds: await db().select().from(refundRequests).where(eq(refundRequests.sessionId, s.sessionId)),
      });
      return { owner: payee.uid, id: s.sessionId, snapshot };
    }
    if (kind === "notifications") {
      await sendNotification(db(), { uid: payee.uid, kind: "general", title: "Theirs", message: "Only theirs to read." }, notificationDeps(db()));
      const [row] = await db().select().from(notifications).where(eq(notifications.uid, payee.uid)).orderBy(desc(notifications.created));
      return { owner: payee.uid, id: row!.id, snapshot: async () => (await db().select().from(notifications).where(eq(notifications.id, row!.id)))[0] };
    }
    if (kind === "webhook-endpoints" || kind === "webhook-deliveries") {
      const made = await createWebhookEndpoint(db(), { uid: payee.uid, sessionSecret: TEST_SESSION_SECRET, targets: "public" }, { url: "https://hooks.example.com/theirs", description: "Theirs", events: ["notification.created"] });
      if (made.kind === "ERROR") throw new Error(made.message);
      const endpointId = made.endpoint.id;
      await queueWebhookEvent(db(), { uid: payee.uid, type: "notification.created", orderingKey: "notification:theirs", data: { id: "theirs" } });
      const snapshot = async () => ({
        endpoint: (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)))[0],
        deliveries: await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)),
        events: await db().select().from(webhookEvents).where(eq(webhookEvents.uid, payee.uid)),
      });
      if (kind === "webhook-endpoints") return { owner: payee.uid, id: endpointId, snapshot };
      const [delivery] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
      return { owner: payee.uid, id: delivery!.id, snapshot };
    }
    if (kind === "membership-tiers") {
      const tierId = `tier_${payee.uid.slice(-12)}`;
      await db().insert(membershipTiers).values({ id: tierId, bioPageId: payee.pageId, name: "Gold", monthlyPrice: 500 });
      return { owner: payee.uid, id: tierId, snapshot: async () => (await db().select().from(membershipTiers).where(eq(membershipTiers.id, tierId)))[0] };
    }
    if (kind === "members") {
      // A membership row as the one writer leaves it once paid: no domain function of this test's reach makes one.
      const tierId = `tier_${payee.uid}`;
      await db().insert(membershipTiers).values({ id: tierId, bioPageId: payee.pageId, name: "Gold", monthlyPrice: 500 });
      const id = `mem_${payee.uid}`;
      await db().insert(memberships).values({ id, tierId, bioPageId: payee.pageId, creatorUid: payee.uid, provider: "sandbox", destinationAccountId: payee.accountId, amount: 500, status: "active", startedAt: new Date() });
      return { owner: payee.uid, id, snapshot: async () => (await db().select().from(memberships).where(eq(memberships.id, id)))[0] };
    }
    throw new Error(`no object of kind ${kind}`);
  }

  it.each(objectOperations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))("%s", async (name, operation) => {
    const kind = operation.path.split("/")[1]!;
    const object = await ownedObject(kind);
    const before = await object.snapshot();
    const stranger = await api.keyFor(await api.newAccount("Stranger"));
    // A body the owner could send: only whose object it is can refuse it.
    const body =
      operation.method === "patch"
        ? ({ opportunities: { title: "Mine now" }, "webhook-endpoints": { description: "Mine now" } }[kind] ?? { name: "Mine now" })
        : operation.body
          ? (POST_BODIES[name] ?? {})
          : undefined;
    const answer = await api.call(operation.method.toUpperCase(), operation.path.replace("{id}", object.id), { key: stranger, body });
    if (PUBLIC_READS.has(name)) {
      expect(answer.status).toBe(200);
    } else {
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("not_found");
      // The same answer as an id that names nothing at all: a stranger learns nothing from it.
      const madeUp = await api.call(operation.method.toUpperCase(), operation.path.replace("{id}", `${object.id.slice(0, -2)}zz`), { key: stranger, body });
      expect(madeUp.status).toBe(404);
    }
    expect(await object.snapshot()).toEqual(before);
  });
});
