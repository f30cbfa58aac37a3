import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { paymentEvents } from "#server/platform/db/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { sandboxSignature, testSandbox } from "#tests/support/test-sandbox";
import { events, payAtSandbox, seedPayee, seedSession, silentLogger, TEST_SESSION_SECRET, webhookDeps, type SeededSession } from "#tests/support/payments";
import { handleWebhookRequest } from "./http";

describe.each(ENGINES)("webhook endpoint on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let s: SeededSession;
  const context = () => ({ db: database.db, payments: sandbox.provider, mailer: webhookDeps(database.db, sandbox.provider).mailer, config: loadConfig({}), logger: silentLogger, sessionSecret: TEST_SESSION_SECRET });
  const post = (body: string, signature: string | null, providerParam = "sandbox") =>
    handleWebhookRequest(
      new Request("http://app.test/api/payments/webhooks/sandbox", { method: "POST", body, headers: signature === null ? {} : { "Sandbox-Signature": signature } }),
      providerParam,
      context(),
    );
  const stored = async (event: PaymentEvent) => (await database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, event.eventId)))[0];

  beforeAll(async () => {
    const payee = await seedPayee(database.db, sandbox.provider);
    s = await payAtSandbox(database.db, sandbox.provider, payee, await seedSession(database.db, payee));
  });

  it("handles a signed delivery once: 200, then 200 'already handled'", async () => {
    const event = events.checkout("checkout.completed", s);
    const body = JSON.stringify(event);
    const first = await post(body, sandboxSignature(body));
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("Handled.\n");
    const again = await post(body, sandboxSignature(body));
    expect([again.status, await again.text()]).toEqual([200, "Already handled.\n"]);
    expect((await stored(event))!.handledAt).not.toBeNull();
  });

  it.each([
    ["a bad signature", (body: string) => sandboxSignature(body, { sessionSecret: "another-session-secret-of-at-least-32-characters" })],
    ["a stale signature", (body: string) => sandboxSignature(body, { secondsAgo: 600 })],
    ["a signature of other bytes", (body: string) => sandboxSignature(`${body} `)],
    ["no signature", () => null],
    ["a malformed signature header", () => "t=abc,v1=zz"],
  ])("answers 400 to %s and records nothing", async (_name, signature) => {
    const event = events.checkout("checkout.completed", s);
    const body = JSON.stringify(event);
    const response = await post(body, signature(body));
    expect(response.status).toBe(400);
    expect(await stored(event)).toBeUndefined();
  });

  it("tells the sender in words why it refused a delivery", async () => {
    const notJson = "{not json";
    const refusedBody = await post(notJson, sandboxSignature(notJson));
    expect([refusedBody.status, await refusedBody.text()]).toEqual([400, "The signed body is not JSON\n"]);
    const unsigned = await post(JSON.stringify(events.checkout("checkout.completed", s)), null);
    expect([unsigned.status, await unsigned.text()]).toEqual([400, "No Sandbox-Signature header\n"]);
  });

  it("answers 404 for another provider's endpoint, 200 for a type it does not act on", async () => {
    const event = events.checkout("checkout.completed", s);
    const body = JSON.stringify(event);
    expect((await post(body, sandboxSignature(body), "stripe")).status).toBe(404);
    expect(await stored(event)).toBeUndefined();
    const other = JSON.stringify({ provider: "sandbox", eventId: "evt_other", occurredAt: new Date(), type: "customer.created" });
    const response = await post(other, sandboxSignature(other));
    expect([response.status, await response.text()]).toEqual([200, "Ignored: not an event this endpoint acts on.\n"]);
  });

  it("answers 500 when the handler cannot apply the event yet, and keeps it for the retry", async () => {
    const fresh = await seedSession(database.db, (await seedPayee(database.db, sandbox.provider)));
    const refund = events.chargeRefunded(fresh);
    const body = JSON.stringify(refund);
    expect((await post(body, sandboxSignature(body))).status).toBe(500);
    expect(await stored(refund)).toMatchObject({ handledAt: null, type: "charge.refunded" });
  });

  it("answers 503 with Retry-After while the database cannot be reached, so the provider delivers it again", async () => {
    const cut = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    // Every query fails as a cut connection does; the signature is checked before any of them.
    const unreachable = new Proxy(database.db, { get: () => () => { throw cut; } });
    const event = events.checkout("checkout.completed", s);
    const body = JSON.stringify({ ...event, eventId: "evt_during_outage" });
    const response = await handleWebhookRequest(
      new Request("http://app.test/api/payments/webhooks/sandbox", { method: "POST", body, headers: { "Sandbox-Signature": sandboxSignature(body) } }),
      "sandbox",
      { ...context(), db: unreachable },
    );
    expect([response.status, response.headers.get("retry-after")]).toEqual([503, "30"]);
    expect(await response.text()).toBe("The database cannot be reached right now; deliver it again later.\n");
  });
});
