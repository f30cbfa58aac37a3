import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiIdempotencyKeys, webhookEndpoints } from "#server/platform/db/schema";
import { openSecret } from "#server/platform/outgoing-webhooks/secrets";
import { MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT } from "#isomorphic/webhook-events";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { TEST_SESSION_SECRET } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";

/** Webhook endpoints managed through `/api/v1`: the same rules, messages and secrets as My Account → Webhooks. */
describe.each(ENGINES)("webhook endpoints through the API on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider });
  const storedSecret = async (id: string) => {
    const [row] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return openSecret(row!.secretCiphertext, TEST_SESSION_SECRET);
  };

  it("adds an endpoint with its secret shown once, lists and reads it without the secret", async () => {
    const key = await api.keyFor(await api.newAccount());
    const made = await api.call("POST", "/webhook-endpoints", { key, body: { url: "https://hooks.example.com/sponsorgrid", events: ["notification.created", "payment.succeeded"] } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ url: "https://hooks.example.com/sponsorgrid", description: "", enabled: true, consecutiveFailures: 0 });
    // In the list's order, whatever order they were sent in.
    expect(made.body.events).toEqual(["payment.succeeded", "notification.created"]);
    expect(made.body.secret).toMatch(/^whsec_/);
    expect(await storedSecret(made.body.id)).toBe(made.body.secret);

    const listed = await api.call("GET", "/webhook-endpoints", { key });
    expect(listed.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([made.body.id]);
    const read = await api.call("GET", `/webhook-endpoints/${made.body.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("secret");
    expect(JSON.stringify(listed.body)).not.toContain(made.body.secret);
  });

  it("refuses what the form refuses, with its messages, field by field; and an account's eleventh endpoint", async () => {
    const key = await api.keyFor(await api.newAccount());
    const plain = await api.call("POST", "/webhook-endpoints", { key, body: { url: "http://hooks.example.com/in", events: ["pro.started"] } });
    expect(plain.status).toBe(400);
    expect(plain.body.error.fields).toEqual({ "body.url": "Use an https:// address: events are sent only over an encrypted connection." });
    const unknown = await api.call("POST", "/webhook-endpoints", { key, body: { url: "https://hooks.example.com/in", events: ["pro.paused"] } });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.error.fields)).toEqual(["body.events.0"]);
    const none = await api.call("POST", "/webhook-endpoints", { key, body: { url: "https://hooks.example.com/in", events: [] } });
    expect(Object.keys(none.body.error.fields)).toEqual(["body.events"]);

    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT; i++) {
      expect((await api.call("POST", "/webhook-endpoints", { key, body: { url: `https://hooks.example.com/${i}`, events: ["pro.started"] } })).status).toBe(201);
    }
    const over = await api.call("POST", "/webhook-endpoints", { key, body: { url: "https://hooks.example.com/one-more", events: ["pro.started"] } });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: "too_many_endpoints", message: expect.stringContaining("Delete one you no longer use first.") });
  });

  it("keeps a signing secret only sealed: not in the answers kept for Idempotency-Key replays, even when one is sent", async () => {
    const key = await api.keyFor(await api.newAccount());
    const made = await api.call("POST", "/webhook-endpoints", { key, body: { url: "https://hooks.example.com/once", events: ["pro.ended"] }, headers: { "Idempotency-Key": "create-once-1" } });
    const rotated = await api.call("POST", `/webhook-endpoints/${made.body.id}/rotate-secret`, { key, headers: { "Idempotency-Key": "rotate-once-1" } });
    const kept = JSON.stringify(await database.db.select().from(apiIdempotencyKeys));
    for (const secret of [made.body.secret, rotated.body.secret]) expect(kept).not.toContain(secret);
    const [row] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, made.body.id));
    expect(JSON.stringify(row)).not.toContain(rotated.body.secret);
  });

  it("changes only what is sent, turns it off and on, rotates its secret with a day's overlap, and deletes it", async () => {
    const key = await api.keyFor(await api.newAccount());
    const { body: made } = await api.call("POST", "/webhook-endpoints", { key, body: { url: "https://hooks.example.com/a", description: "Discord bot", events: ["payment.succeeded"] } });

    const changed = await api.call("PATCH", `/webhook-endpoints/${made.id}`, { key, body: { events: ["payment.succeeded", "payment.refunded"] } });
    expect(changed.body).toMatchObject({ url: "https://hooks.example.com/a", description: "Discord bot", events: ["payment.succeeded", "payment.refunded"] });
    const off = await api.call("PATCH", `/webhook-endpoints/${made.id}`, { key, body: { enabled: false } });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: "Turned off by you." });
    const bad = await api.call("PATCH", `/webhook-endpoints/${made.id}`, { key, body: { url: "ftp://hooks.example.com", enabled: true } });
    expect(bad.status).toBe(400);
    expect((await api.call("GET", `/webhook-endpoints/${made.id}`, { key })).body.enabled).toBe(false); // nothing of a refused change is applied
    expect((await api.call("PATCH", `/webhook-endpoints/${made.id}`, { key, body: { enabled: true } })).body).toMatchObject({ enabled: true, disabledAt: null });

    const rotated = await api.call("POST", `/webhook-endpoints/${made.id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.secret);
    expect(await storedSecret(made.id)).toBe(rotated.body.secret);
    const overlap = new Date(rotated.body.previousSecretExpiresAt).getTime() - Date.now();
    expect(overlap).toBeGreaterThan(23 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);

    expect((await api.call("DELETE", `/webhook-endpoints/${made.id}`, { key })).status).toBe(204);
    expect((await api.call("GET", `/webhook-endpoints/${made.id}`, { key })).status).toBe(404);
  });

  it("sends a test event into the delivery log, and resending a delivery still on its way tries it now", async () => {
    const key = await api.keyFor(await api.newAccount());
    const { body: made } = await api.call("POST", "/webhook-endpoints", { key, body: { url: "https://hooks.example.com/t", events: ["pro.started"] } });
    const sent = await api.call("POST", `/webhook-endpoints/${made.id}/test`, { key });
    expect(sent.body.eventId).toMatch(/^msg_/);

    const log = await api.call("GET", `/webhook-endpoints/${made.id}/deliveries?limit=5`, { key });
    expect(log.body).toMatchObject({ data: [{ id: sent.body.deliveryId, eventId: sent.body.eventId, eventType: "webhook.test", status: "pending", attemptCount: 0, attempts: [] }], nextCursor: null });

    const resent = await api.call("POST", `/webhook-deliveries/${sent.body.deliveryId}/resend`, { key });
    expect(resent.body).toEqual({ deliveryId: sent.body.deliveryId, outcome: "retrying_now" });

    await api.call("PATCH", `/webhook-endpoints/${made.id}`, { key, body: { enabled: false } });
    const refused = await api.call("POST", `/webhook-endpoints/${made.id}/test`, { key });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("endpoint_disabled");
    const badCursor = await api.call("GET", `/webhook-endpoints/${made.id}/deliveries?cursor=nonsense`, { key });
    expect(badCursor.body.error.code).toBe("invalid_cursor");
  });
});
