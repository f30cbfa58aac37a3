import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "#server/platform/db/schema";
import { runOperation, type Caller } from "#server/features/operations/operation";
import { changeWebhookEndpoint } from "#server/features/operations/webhook-endpoints/change-endpoint";
import { listWebhookDeliveries, resendWebhookDelivery, sendTestWebhookEvent } from "#server/features/operations/webhook-endpoints/deliveries";
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, readWebhookEndpoint, rotateWebhookSecret } from "#server/features/operations/webhook-endpoints/endpoints";
import type { WebhookDeps } from "#server/features/operations/webhook-endpoints/webhook-operation";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { apiHarness, TEST_API_CONFIG } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { TEST_SESSION_SECRET } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { pageStatus } from "#tests/support/page-stop";

const NO_SUCH_ENDPOINT = "There is no such webhook endpoint on your account.";
const NO_SUCH_DELIVERY = "There is no such delivery on your account.";

/**
 * What the webhook endpoint operations guarantee whichever door they are reached by (My Account's
 * Webhooks pages, /api/v1): another account's endpoint or delivery is no one's (not-found, with the
 * same words, and nothing of it changes); a setting is refused with the same message, field by
 * field; and the same callers are admitted.
 */
describe.each(ENGINES)("webhook endpoint operations through every door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider });
  // The page's context holds these (server/main/context.ts); the API's router is given the same.
  let kicks = 0;
  const context = (): WebhookDeps => ({ db: db(), sessionSecret: TEST_SESSION_SECRET, webhooks: { kick: () => void kicks++ }, config: TEST_API_CONFIG });
  const person = (uid: string, emailVerified = true) => pageCaller({ id: uid, email: `${uid}@api.example`, name: "x", emailVerified, image: null });

  let owner: string;
  let stranger: string;
  let endpointId: string;
  let deliveryId: string;
  beforeEach(async () => {
    owner = await api.newAccount("Owner");
    stranger = await api.newAccount("Stranger");
    const made = await api.call("POST", "/webhook-endpoints", { key: await api.keyFor(owner), body: { url: "https://hooks.example.com/owner", events: ["payment.succeeded"] } });
    endpointId = made.body.id;
    deliveryId = (await api.call("POST", `/webhook-endpoints/${endpointId}/test`, { key: await api.keyFor(owner) })).body.deliveryId;
  });
  const storedEndpoint = async () => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)))[0];
  const deliveryCount = async () => (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))).length;

  it("answers a stranger's endpoint as not-found, in the same words, through the page and the API, and changes nothing of it", async () => {
    const before = await storedEndpoint();
    const input = { endpointId };
    // The endpoint's page: its loader's reads are the 404 page; its buttons say it beside the forms.
    expect(await pageStatus(() => runForPage(readWebhookEndpoint, { caller: person(stranger), input, context: context() }))).toBe(404);
    expect(await pageStatus(() => runForPage(listWebhookDeliveries, { caller: person(stranger), input: { ...input, cursor: null }, context: context() }))).toBe(404);
    const asked = { caller: person(stranger), context: context(), notFound: "answer" } as const;
    const settings = { url: "https://hooks.example.com/stolen", description: "", events: ["payment.succeeded"] };
    for (const answer of [
      await runForPage(changeWebhookEndpoint, { ...asked, input: { ...input, ...settings } }),
      await runForPage(rotateWebhookSecret, { ...asked, input }),
      await runForPage(sendTestWebhookEvent, { ...asked, input }),
      await runForPage(deleteWebhookEndpoint, { ...asked, input }),
    ]) {
      expect(answer).toMatchObject({ kind: "ERROR", code: "not-found", message: NO_SUCH_ENDPOINT });
    }

    const key = await api.keyFor(stranger);
    const viaApi = [
      await api.call("GET", `/webhook-endpoints/${endpointId}`, { key }),
      await api.call("GET", `/webhook-endpoints/${endpointId}/deliveries`, { key }),
      await api.call("PATCH", `/webhook-endpoints/${endpointId}`, { key, body: { url: settings.url, enabled: false } }),
      await api.call("POST", `/webhook-endpoints/${endpointId}/rotate-secret`, { key }),
      await api.call("POST", `/webhook-endpoints/${endpointId}/test`, { key }),
      await api.call("DELETE", `/webhook-endpoints/${endpointId}`, { key }),
    ];
    for (const answer of viaApi) expect({ status: answer.status, code: answer.body.error.code, message: answer.body.error.message }).toEqual({ status: 404, code: "not_found", message: NO_SUCH_ENDPOINT });

    expect(await storedEndpoint()).toEqual(before);
    expect(await deliveryCount()).toBe(1);
  });

  it("answers a stranger's delivery as not-found through the Resend button and the API, and sends nothing again", async () => {
    const kicked = kicks;
    expect(await runForPage(resendWebhookDelivery, { caller: person(stranger), input: { deliveryId }, context: context(), notFound: "answer" })).toMatchObject({
      kind: "ERROR",
      code: "not-found",
      message: NO_SUCH_DELIVERY,
    });
    const viaApi = await api.call("POST", `/webhook-deliveries/${deliveryId}/resend`, { key: await api.keyFor(stranger) });
    expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 404, code: "not_found", message: NO_SUCH_DELIVERY });
    expect(await deliveryCount()).toBe(1);
    expect(kicks).toBe(kicked);
  });

  it("gives the owner the same endpoints and the same log through the page and the API, and a stranger none", async () => {
    const listed = await runForPage(listWebhookEndpoints, { caller: person(owner), input: null, context: context() });
    const viaApi = await api.call("GET", "/webhook-endpoints", { key: await api.keyFor(owner) });
    expect(listed.endpoints.map((endpoint) => endpoint.id)).toEqual([endpointId]);
    expect(viaApi.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([endpointId]);
    expect((await runForPage(listWebhookEndpoints, { caller: person(stranger), input: null, context: context() })).endpoints).toEqual([]);

    const log = await runForPage(listWebhookDeliveries, { caller: person(owner), input: { endpointId, cursor: null }, context: context() });
    const logViaApi = await api.call("GET", `/webhook-endpoints/${endpointId}/deliveries`, { key: await api.keyFor(owner) });
    expect(log.deliveries.map((delivery) => delivery.id)).toEqual([deliveryId]);
    expect(logViaApi.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([deliveryId]);
  });

  it("refuses a setting with the same message, field by field, through the page's forms and the API", async () => {
    const plain = "http://hooks.example.com/in";
    const added = await runForPage(createWebhookEndpoint, { caller: person(owner), input: { url: plain, description: "", events: ["pro.started"] }, context: context() });
    const addedViaApi = await api.call("POST", "/webhook-endpoints", { key: await api.keyFor(owner), body: { url: plain, events: ["pro.started"] } });
    expect(added).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    const message = (added as { fieldErrors: { url: string } }).fieldErrors.url;
    expect(message).toBe("Use an https:// address: events are sent only over an encrypted connection.");
    expect(addedViaApi.body.error.fields).toEqual({ "body.url": message });

    const saved = await runForPage(changeWebhookEndpoint, { caller: person(owner), input: { endpointId, url: plain, description: "", events: ["pro.started"] }, context: context(), notFound: "answer" });
    const patched = await api.call("PATCH", `/webhook-endpoints/${endpointId}`, { key: await api.keyFor(owner), body: { url: plain } });
    expect(saved).toMatchObject({ kind: "ERROR", fieldErrors: { url: message } });
    expect({ status: patched.status, fields: patched.body.error.fields }).toEqual({ status: 400, fields: { "body.url": message } });
    expect((await storedEndpoint())!.url).toBe("https://hooks.example.com/owner");
  });

  it("admits the same callers whichever door asks: a guest must sign in, an unverified person verify", async () => {
    const guest: Caller = { kind: "guest" };
    const unverified: Caller = { kind: "person", uid: owner, emailVerified: false };
    const refused = { guest: { kind: "ERROR", code: "unauthenticated", message: "Sign in first." }, unverified: { kind: "ERROR", code: "permission-denied", message: "Verify your email address first." } };
    const input = { endpointId };
    const asks = [
      (caller: Caller) => runOperation(listWebhookEndpoints, { caller, input: null, deps: context() }),
      (caller: Caller) => runOperation(readWebhookEndpoint, { caller, input, deps: context() }),
      (caller: Caller) => runOperation(changeWebhookEndpoint, { caller, input: { ...input, enabled: false }, deps: context() }),
      (caller: Caller) => runOperation(rotateWebhookSecret, { caller, input, deps: context() }),
      (caller: Caller) => runOperation(sendTestWebhookEvent, { caller, input, deps: context() }),
      (caller: Caller) => runOperation(deleteWebhookEndpoint, { caller, input, deps: context() }),
      (caller: Caller) => runOperation(resendWebhookDelivery, { caller, input: { deliveryId }, deps: context() }),
    ];
    for (const ask of asks) {
      expect(await ask(guest)).toEqual(refused.guest);
      expect(await ask(unverified)).toEqual(refused.unverified);
    }
    // The page door answers an unverified person's ask with the same refusal's status, whatever its notFound.
    expect(await pageStatus(() => runForPage(deleteWebhookEndpoint, { caller: person(owner, false), input, context: context(), notFound: "answer" }))).toBe(403);
    expect(await storedEndpoint()).toMatchObject({ id: endpointId, disabledAt: null });
    expect(await deliveryCount()).toBe(1);
  });
});
