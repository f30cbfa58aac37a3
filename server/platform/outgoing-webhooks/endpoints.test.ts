import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { user, webhookEndpoints } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT } from "#isomorphic/webhook-events";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  SECRET_OVERLAP_MS,
  updateWebhookEndpoint,
} from "./endpoints";
import { openSecret } from "./secrets";
import { webhookUrlProblem } from "./targets";

const SESSION_SECRET = "endpoints-test-session-secret-0123456789";
const PUBLIC = "public" as const;

describe("webhook endpoint addresses", () => {
  it("takes absolute https addresses, and http only where private targets are allowed", () => {
    expect(webhookUrlProblem("https://hooks.example.com/sponsorgrid?x=1", PUBLIC)).toBeNull();
    expect(webhookUrlProblem("http://hooks.example.com/in", PUBLIC)).toMatch(/https/);
    expect(webhookUrlProblem("http://127.0.0.1:4000/in", "anywhere")).toBeNull();
    expect(webhookUrlProblem("", PUBLIC)).toMatch(/Enter the address/);
    expect(webhookUrlProblem("hooks.example.com/in", PUBLIC)).toMatch(/full address/);
    expect(webhookUrlProblem("/relative/path", PUBLIC)).toMatch(/full address/);
    expect(webhookUrlProblem("ftp://hooks.example.com/in", "anywhere")).toMatch(/web address/);
    expect(webhookUrlProblem("javascript:alert(1)", "anywhere")).toMatch(/web address/);
    expect(webhookUrlProblem("https://me:pw@hooks.example.com/in", PUBLIC)).toMatch(/user name and password/);
    expect(webhookUrlProblem("https://me@hooks.example.com/in", PUBLIC)).toMatch(/user name and password/);
    expect(webhookUrlProblem(`https://hooks.example.com/${"a".repeat(2000)}`, PUBLIC)).toMatch(/2000 characters/);
  });
});

describe.each(ENGINES)("webhook endpoints on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let n = 0;
  let uid: string;
  let other: string;

  const newUser = async () => {
    n += 1;
    const id = `ep_user_${engine}_${n}_${Date.now()}`;
    await db().insert(user).values({ id, name: id, email: `${id}@e.example`, emailVerified: true });
    return id;
  };
  const create = (who: string, input: Partial<{ url: string; description: string; events: string[] }> = {}, now?: Date) =>
    createWebhookEndpoint(db(), { uid: who, sessionSecret: SESSION_SECRET, targets: "public", now }, { url: "https://hooks.example.com/in", description: "", events: ["payment.succeeded"], ...input });
  const created = async (who: string, input: Parameters<typeof create>[1] = {}, now?: Date) => {
    const result = await create(who, input, now);
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    return result;
  };
  const stored = async (id: string) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;

  beforeEach(async () => {
    uid = await newUser();
    other = await newUser();
  });

  it("creates an endpoint with its events in the list's order and a secret shown once, stored sealed", async () => {
    const { endpoint, secret } = await created(uid, { url: "  https://hooks.example.com/in  ", description: " Zapier ", events: ["notification.created", "payment.succeeded", "payment.succeeded"] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(endpoint).toMatchObject({ url: "https://hooks.example.com/in", description: "Zapier", events: ["payment.succeeded", "notification.created"], enabled: true, consecutiveFailures: 0, previousSecretExpiresAt: null });
    expect(endpoint.id).toMatch(/^ep_/);
    expect(JSON.stringify(endpoint)).not.toContain(secret);
    const row = await stored(endpoint.id);
    expect(row.secretCiphertext).not.toContain(secret);
    expect(openSecret(row.secretCiphertext, SESSION_SECRET)).toBe(secret);
  });

  it("refuses field by field: the address, a long description, no events or unknown ones", async () => {
    const refused = await create(uid, { url: "http://hooks.example.com/in", description: "x".repeat(201), events: [] });
    expect(refused).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_FIELDS" });
    expect(refused.kind === "ERROR" && "fieldErrors" in refused ? Object.keys(refused.fieldErrors).sort() : []).toEqual(["description", "events", "url"]);
    const unknown = await create(uid, { events: ["payment.succeeded", "account.deleted"] });
    expect(unknown.kind === "ERROR" && "fieldErrors" in unknown ? unknown.fieldErrors : null).toEqual({ events: "Choose events from the list." });
    expect(await listWebhookEndpoints(db(), uid)).toEqual([]);
    // Where private targets are allowed (development, the end-to-end suite), http to loopback is taken.
    const local = await createWebhookEndpoint(db(), { uid, sessionSecret: SESSION_SECRET, targets: "anywhere" }, { url: "http://127.0.0.1:9/in", description: "", events: ["pro.started"] });
    expect(local.kind).toBe("SUCCESS");
  });

  it("refuses, when saved and when edited, an address delivery would refuse: loopback, private, link-local and metadata in any spelling", async () => {
    for (const url of ["https://127.0.0.1/in", "https://[::1]/in", "https://169.254.169.254/latest", "https://10.2.3.4/in", "https://[::ffff:127.0.0.1]/in", "https://2130706433/in", "https://0177.0.0.1/in", "https://localhost/in"]) {
      const refused = await create(uid, { url });
      expect(refused.kind === "ERROR" && "fieldErrors" in refused ? refused.fieldErrors.url : null, url).toMatch(/^Webhooks cannot be sent to (this address|a local host name)/);
    }
    expect(await listWebhookEndpoints(db(), uid)).toEqual([]);
    const { endpoint } = await created(uid);
    const edited = await updateWebhookEndpoint(db(), { uid, endpointId: endpoint.id, targets: "public" }, { url: "https://169.254.169.254/", description: "", events: ["pro.ended"] });
    expect(edited).toMatchObject({ kind: "ERROR", fieldErrors: { url: expect.stringMatching(/link-local/) } });
    expect((await stored(endpoint.id)).url).toBe("https://hooks.example.com/in");
    // A sandbox site on this machine: the developer's own receiver over http.
    const local = await createWebhookEndpoint(db(), { uid, sessionSecret: SESSION_SECRET, targets: "loopback" }, { url: "http://localhost:4000/webhooks", description: "", events: ["pro.started"] });
    expect(local.kind).toBe("SUCCESS");
  });

  it(`allows ${MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT} endpoints per account, counting only the account's own`, async () => {
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT; i++) await created(uid, { url: `https://hooks.example.com/${i}` });
    expect(await create(uid)).toMatchObject({ kind: "ERROR", code: "resource-exhausted", reason: "TOO_MANY_ENDPOINTS" });
    expect(await create(other)).toMatchObject({ kind: "SUCCESS" });
    const [newest] = await listWebhookEndpoints(db(), uid);
    await deleteWebhookEndpoint(db(), { uid, endpointId: newest!.id });
    expect(await create(uid)).toMatchObject({ kind: "SUCCESS" });
  });

  it("lists newest first, and another account's endpoint is not found for any read or write", async () => {
    const first = await created(uid, { url: "https://hooks.example.com/1" }, new Date("2026-01-01T00:00:00Z"));
    const second = await created(uid, { url: "https://hooks.example.com/2" }, new Date("2026-01-02T00:00:00Z"));
    const theirs = await created(other);
    expect((await listWebhookEndpoints(db(), uid)).map((e) => e.id)).toEqual([second.endpoint.id, first.endpoint.id]);

    const endpointId = theirs.endpoint.id;
    const notFound = { kind: "ERROR", code: "not-found", reason: "ENDPOINT_NOT_FOUND" };
    expect(await getWebhookEndpoint(db(), { uid, endpointId })).toMatchObject(notFound);
    expect(await updateWebhookEndpoint(db(), { uid, endpointId, targets: "public" }, { url: "https://evil.example/in", description: "", events: ["pro.ended"] })).toMatchObject(notFound);
    expect(await enableWebhookEndpoint(db(), { uid, endpointId })).toMatchObject(notFound);
    expect(await disableWebhookEndpoint(db(), { uid, endpointId })).toMatchObject(notFound);
    expect(await rotateWebhookSecret(db(), { uid, endpointId, sessionSecret: SESSION_SECRET })).toMatchObject(notFound);
    expect(await deleteWebhookEndpoint(db(), { uid, endpointId })).toMatchObject(notFound);
    const untouched = await stored(endpointId);
    expect(untouched).toMatchObject({ url: "https://hooks.example.com/in", disabledAt: null, previousSecretCiphertext: null });
    expect(untouched.secretCiphertext).toBe((await stored(endpointId)).secretCiphertext);
    expect(openSecret(untouched.secretCiphertext, SESSION_SECRET)).toBe(theirs.secret);
  });

  it("edits the address, description and events, keeping the secret", async () => {
    const { endpoint, secret } = await created(uid);
    const edited = await updateWebhookEndpoint(db(), { uid, endpointId: endpoint.id, targets: "public" }, { url: "https://other.example.com/hook", description: "CRM", events: ["pro.ended", "pro.started"] });
    expect(edited).toMatchObject({ kind: "SUCCESS", endpoint: { url: "https://other.example.com/hook", description: "CRM", events: ["pro.started", "pro.ended"] } });
    expect(openSecret((await stored(endpoint.id)).secretCiphertext, SESSION_SECRET)).toBe(secret);
    const refused = await updateWebhookEndpoint(db(), { uid, endpointId: endpoint.id, targets: "public" }, { url: "https://a:b@other.example.com/", description: "", events: ["pro.ended"] });
    expect(refused).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS" });
    expect((await stored(endpoint.id)).url).toBe("https://other.example.com/hook");
  });

  it("turns an endpoint off, and on again with its failures forgotten", async () => {
    const { endpoint } = await created(uid);
    const off = await disableWebhookEndpoint(db(), { uid, endpointId: endpoint.id });
    expect(off).toMatchObject({ kind: "SUCCESS", endpoint: { enabled: false, disabledReason: "Turned off by you." } });
    // As the delivery worker leaves an endpoint it gave up on.
    await db()
      .update(webhookEndpoints)
      .set({ consecutiveFailures: 37, failingSince: new Date("2026-01-01T00:00:00Z"), disabledAt: new Date("2026-01-04T00:00:00Z"), disabledReason: "Every delivery failed for 3 days." })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const on = await enableWebhookEndpoint(db(), { uid, endpointId: endpoint.id });
    expect(on).toMatchObject({ kind: "SUCCESS", endpoint: { enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null } });
    expect(await stored(endpoint.id)).toMatchObject({ disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null });
  });

  it("rotates the secret: the new one shown once, the previous one kept for 24 hours, the oldest dropped on a second rotation", async () => {
    const { endpoint, secret: first } = await created(uid);
    const now = new Date("2026-03-01T10:00:00Z");
    const rotated = await rotateWebhookSecret(db(), { uid, endpointId: endpoint.id, sessionSecret: SESSION_SECRET, now });
    if (rotated.kind !== "SUCCESS") throw new Error(rotated.message);
    expect(rotated.secret).not.toBe(first);
    expect(rotated.endpoint.previousSecretExpiresAt).toEqual(new Date(now.getTime() + SECRET_OVERLAP_MS));
    let row = await stored(endpoint.id);
    expect(openSecret(row.secretCiphertext, SESSION_SECRET)).toBe(rotated.secret);
    expect(openSecret(row.previousSecretCiphertext!, SESSION_SECRET)).toBe(first);
    expect(row.previousSecretExpiresAt).toEqual(new Date("2026-03-02T10:00:00Z"));

    const later = new Date("2026-03-01T12:00:00Z");
    const again = await rotateWebhookSecret(db(), { uid, endpointId: endpoint.id, sessionSecret: SESSION_SECRET, now: later });
    if (again.kind !== "SUCCESS") throw new Error(again.message);
    row = await stored(endpoint.id);
    expect(openSecret(row.secretCiphertext, SESSION_SECRET)).toBe(again.secret);
    expect(openSecret(row.previousSecretCiphertext!, SESSION_SECRET)).toBe(rotated.secret);
    // The view says the overlap ends, and once it has, that there is none.
    expect((await getWebhookEndpoint(db(), { uid, endpointId: endpoint.id, now: later })).kind === "SUCCESS").toBe(true);
    const afterOverlap = await getWebhookEndpoint(db(), { uid, endpointId: endpoint.id, now: new Date("2026-03-02T12:00:01Z") });
    expect(afterOverlap).toMatchObject({ kind: "SUCCESS", endpoint: { previousSecretExpiresAt: null } });
  });

  it("deletes an endpoint", async () => {
    const { endpoint } = await created(uid);
    expect(await deleteWebhookEndpoint(db(), { uid, endpointId: endpoint.id })).toMatchObject({ kind: "SUCCESS", deleted: endpoint.id });
    expect(await getWebhookEndpoint(db(), { uid, endpointId: endpoint.id })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await deleteWebhookEndpoint(db(), { uid, endpointId: endpoint.id })).toMatchObject({ kind: "ERROR", code: "not-found" });
  });
});
