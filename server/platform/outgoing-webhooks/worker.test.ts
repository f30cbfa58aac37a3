import { eq, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { user, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "#server/platform/db/schema";
import { emailOutbox } from "#server/platform/db/schema/email";
import { createMailer } from "#server/platform/email/mailer";
import { createMetrics } from "#server/platform/metrics/metrics";
import { webhookAttemptObserver } from "#server/main/service-metrics";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { startWebhookReceiver, type ReceiverAnswer } from "#tests/support/webhook-receiver";
import { claimDue } from "./claim";
import { pruneWebhookHistory } from "./prune";
import { queueWebhookEvent } from "./queue";
import { generateSigningSecret, sealSecret } from "./secrets";
import { createWebhookWorker, type WebhookWorkerOptions } from "./worker";

const logger = pino({ level: "silent" });
const SESSION_SECRET = "worker-test-session-secret-0123456789";
const site = { appName: "Sponsorgrid", supportEmail: "support@sponsorgrid.example", publicOrigin: "https://sponsorgrid.example" };

describe.each(ENGINES)("the outgoing webhook worker on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let answers: ReceiverAnswer[] = [];
  // Answers for one event: deliveries of different objects go in parallel, so their order of arrival is not theirs to rely on.
  const answersById = new Map<string, ReceiverAnswer[]>();
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const workers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    // Each request takes the next queued answer; 200 once they ran out.
    receiver = await startWebhookReceiver((_path, headers) => answersById.get(headers["webhook-id"] ?? "")?.shift() ?? answers.shift() ?? { status: 200 });
  });
  afterAll(() => receiver.close());
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.close()));
    answers = [];
    answersById.clear();
    receiver.receipts.length = 0;
  });

  const worker = (extra: Partial<WebhookWorkerOptions> = {}) => {
    const made = createWebhookWorker({
      db: db(),
      sessionSecret: SESSION_SECRET,
      logger,
      targets: "anywhere",
      mail: { mailer: createMailer({ db: db(), from: "Sponsorgrid <no-reply@sponsorgrid.example>", logger }), site },
      concurrency: 3,
      pollMs: 20,
      // Long enough that a busy machine never turns a prompt 200 into a timeout and a retry; the
      // test of a receiver that hangs sets its own.
      timeoutMs: 5_000,
      retryScheduleMs: [1, 1, 1],
      ...extra,
    });
    workers.push(made);
    return made;
  };

  async function account(extra: Partial<typeof webhookEndpoints.$inferInsert> = {}) {
    const uid = `u-${nanoid(8)}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@hooks.example`, emailVerified: true });
    const secret = generateSigningSecret();
    const endpointId = `we_${nanoid(12)}`;
    await db()
      .insert(webhookEndpoints)
      .values({ id: endpointId, uid, url: `${receiver.origin}/in/${endpointId}`, events: ["payment.succeeded", "payment.refunded"], secretCiphertext: sealSecret(secret, SESSION_SECRET), ...extra });
    return { uid, endpointId, secret };
  }
  const queue = (uid: string, orderingKey = "payment:p1", data: unknown = { id: "p1" }) => db().transaction((tx) => queueWebhookEvent(tx, { uid, type: "payment.succeeded", orderingKey, data }));
  const deliveriesOf = (endpointId: string) => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.eventSequence);
  const endpointRow = async (id: string) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;

  it("posts the event's payload signed by Standard Webhooks and records the attempt", async () => {
    const { uid, endpointId, secret } = await account();
    const eventId = (await queue(uid, "payment:p1", { id: "p1", amount: 2500 }))!;
    const metrics = createMetrics();
    expect(await worker({ onAttempt: webhookAttemptObserver(metrics) }).deliverDue()).toBe(1);

    expect(receiver.receipts).toHaveLength(1);
    const [receipt] = receiver.receipts;
    expect(receipt!.path).toBe(`/in/${endpointId}`);
    expect(receipt!.headers["webhook-id"]).toBe(eventId);
    expect(receipt!.headers["content-type"]).toBe("application/json");
    expect(new Webhook(secret).verify(receipt!.body, receipt!.headers)).toMatchObject({ type: "payment.succeeded", data: { id: "p1", amount: 2500 } });
    const [event] = await db().select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
    expect(receipt!.body).toBe(JSON.stringify(event!.payload));

    const [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, leasedUntil: null });
    const attempts = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery!.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ responseStatus: 200, responseBody: "ok", error: null, requestBody: receipt!.body });
    expect(attempts[0]!.requestHeaders["webhook-signature"]).toBe(receipt!.headers["webhook-signature"]);
    expect(await metrics.registry.getSingleMetricAsString("sponsorgrid_webhook_deliveries_total")).toContain('outcome="delivered"} 1');
  });

  it("signs with both secrets during a rotation's overlap, and with the new one alone after it", async () => {
    const previous = generateSigningSecret();
    const { uid, secret } = await account({ previousSecretCiphertext: sealSecret(previous, SESSION_SECRET), previousSecretExpiresAt: new Date(Date.now() + 3_600_000) });
    await queue(uid);
    await worker().deliverDue();
    const [overlap] = receiver.receipts;
    expect(overlap!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(secret).verify(overlap!.body, overlap!.headers)).toBeTruthy();
    expect(new Webhook(previous).verify(overlap!.body, overlap!.headers)).toBeTruthy();

    const after = await account({ previousSecretCiphertext: sealSecret(previous, SESSION_SECRET), previousSecretExpiresAt: new Date(Date.now() - 1) });
    await queue(after.uid);
    await worker().deliverDue();
    const late = receiver.receipts[1]!;
    expect(late.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() => new Webhook(previous).verify(late.body, late.headers)).toThrow();
    expect(new Webhook(after.secret).verify(late.body, late.headers)).toBeTruthy();
  });

  it("sends nothing unsigned when the server's secret changed: the attempt fails with the reason, and a rotated secret delivers again", async () => {
    const { uid, endpointId } = await account({ secretCiphertext: sealSecret(generateSigningSecret(), "the-session-secret-before-the-operator-changed-it") });
    await queue(uid);
    await worker({ retryScheduleMs: [3_600_000] }).deliverDue();
    expect(receiver.receipts).toHaveLength(0);
    const [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
    const [attempt] = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery!.id));
    expect(attempt!.error).toMatch(/signing secret can no longer be read.*Rotate the signing secret/);
    expect(attempt!.requestHeaders["webhook-signature"]).toBeUndefined();

    // The owner rotates: the new secret signs; the unreadable one, now the previous, is left out.
    const fresh = generateSigningSecret();
    const unreadable = (await endpointRow(endpointId)).secretCiphertext;
    await db()
      .update(webhookEndpoints)
      .set({ secretCiphertext: sealSecret(fresh, SESSION_SECRET), previousSecretCiphertext: unreadable, previousSecretExpiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(webhookEndpoints.id, endpointId));
    await db().update(webhookDeliveries).set({ nextAttemptAt: new Date() }).where(eq(webhookDeliveries.id, delivery!.id));
    await worker().deliverDue();
    expect(receiver.receipts).toHaveLength(1);
    expect(receiver.receipts[0]!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(new Webhook(fresh).verify(receiver.receipts[0]!.body, receiver.receipts[0]!.headers)).toBeTruthy();
    expect((await deliveriesOf(endpointId))[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("claims a row stamped later within the same millisecond: the database keeps microseconds, a kick's clock does not", async () => {
    const { uid, endpointId } = await account();
    await queue(uid);
    const at = new Date();
    await db()
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`${at.toISOString()}::timestamptz + interval '900 microseconds'` })
      .where(eq(webhookDeliveries.endpointId, endpointId));
    const claimed = await claimDue(db(), { at, leaseMs: 60_000, limit: 10 });
    expect(claimed.map((row) => row.delivery.endpointId)).toContain(endpointId);
  });

  it("takes a redirect, a 500 and a timeout as failures, retries on schedule, cuts bodies at 4 KB, and gives up after the last retry", async () => {
    const { uid, endpointId } = await account();
    answers = [{ status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } }, { status: 500, body: "x".repeat(10_000) }, "hang", "reset"];
    await queue(uid);
    const w = worker({ timeoutMs: 200 });
    for (let round = 0; round < 4; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await w.deliverDue();
    }
    const [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({ status: "failed", attempts: 4 });
    expect(delivery!.finishedAt).not.toBeNull();
    const attempts = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery!.id)).orderBy(webhookAttempts.attemptedAt);
    expect(attempts.map((a) => [a.responseStatus, a.error === null])).toEqual([
      [302, true],
      [500, true],
      [null, false],
      [null, false],
    ]);
    expect(attempts[1]!.responseBody).toHaveLength(4096);
    expect(attempts[2]!.error).toBe("timed out after 200 ms");
    // Not followed: the receiver saw four requests, all to the endpoint.
    expect(receiver.receipts.map((r) => r.path)).toEqual(Array(4).fill(`/in/${endpointId}`));
    const health = await endpointRow(endpointId);
    expect(health.consecutiveFailures).toBe(4);
    expect(health.failingSince).not.toBeNull();
  });

  it("a success clears the endpoint's failures", async () => {
    const { uid, endpointId } = await account();
    answers = [{ status: 503 }, { status: 503 }];
    await queue(uid);
    const w = worker();
    for (let round = 0; round < 3; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await w.deliverDue();
    }
    expect((await deliveriesOf(endpointId))[0]).toMatchObject({ status: "delivered", attempts: 3 });
    expect(await endpointRow(endpointId)).toMatchObject({ consecutiveFailures: 0, failingSince: null });
  });

  it("keeps each object's events in order: a later one waits while an earlier one is pending", async () => {
    const { uid, endpointId } = await account();
    const first = await queue(uid, "payment:a", { n: 1 });
    const second = await queue(uid, "payment:a", { n: 2 });
    const other = await queue(uid, "payment:b", { n: 3 });
    answersById.set(first!, [{ status: 500 }]);
    const w = worker({ retryScheduleMs: [60_000] });
    await w.deliverDue();
    // The first failed and waits for its retry; the second waits behind it; another object's event went (in parallel: either may arrive first).
    expect(receiver.receipts.map((r) => r.headers["webhook-id"]).sort()).toEqual([first, other].sort());
    const rows = await deliveriesOf(endpointId);
    expect(rows.map((r) => [r.eventId, r.status])).toEqual([
      [first, "pending"],
      [second, "pending"],
      [other, "delivered"],
    ]);
    await db().update(webhookDeliveries).set({ nextAttemptAt: new Date() }).where(eq(webhookDeliveries.eventId, first!));
    await w.deliverDue();
    expect(receiver.receipts.slice(2).map((r) => r.headers["webhook-id"])).toEqual([first, second]);
  });

  it("finds a head behind a long backlog of another object whose head waits for a retry", async () => {
    const { uid, endpointId } = await account();
    // 70 events of one object (more than the quick pass looks at), then one of another.
    await db().transaction(async (tx) => {
      for (let n = 0; n < 70; n += 1) await queueWebhookEvent(tx, { uid, type: "payment.succeeded", orderingKey: "payment:busy", data: { n } });
    });
    const other = await queue(uid, "payment:quiet");
    const rows = await deliveriesOf(endpointId);
    await db().update(webhookDeliveries).set({ nextAttemptAt: new Date(Date.now() + 60_000) }).where(eq(webhookDeliveries.id, rows[0]!.id));
    expect(await worker().deliverDue()).toBe(1);
    expect(receiver.receipts.map((r) => r.headers["webhook-id"])).toEqual([other]);
  });

  it("leaves a delivery another process holds until its lease ran out", async () => {
    const { uid, endpointId } = await account();
    await queue(uid);
    await db().update(webhookDeliveries).set({ leasedUntil: new Date(Date.now() + 150), attempts: 1 }).where(eq(webhookDeliveries.endpointId, endpointId));
    const w = worker();
    expect(await w.deliverDue()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await w.deliverDue()).toBe(1);
    expect((await deliveriesOf(endpointId))[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("refuses a name that resolves to a private address when private targets are not allowed: no request is made", async () => {
    const { uid, endpointId } = await account({ url: "https://hooks.rebind.example/in" });
    await queue(uid);
    const resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    await worker({ targets: "public", resolve, retryScheduleMs: [60_000] }).deliverDue();
    expect(receiver.receipts).toHaveLength(0);
    const [delivery] = await deliveriesOf(endpointId);
    const [attempt] = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery!.id));
    expect(attempt).toMatchObject({ responseStatus: null, error: "refused address 127.0.0.1 (loopback)" });
  });

  it("an address refused as written fails at once, with no retry: it would be refused every time", async () => {
    const { uid, endpointId } = await account({ url: "https://169.254.169.254/latest/meta-data" });
    await queue(uid);
    await worker({ targets: "public", retryScheduleMs: [1, 1, 1] }).deliverDue();
    expect(receiver.receipts).toHaveLength(0);
    const [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("disables an endpoint that failed long enough, mails its owner in the same transaction, and holds its deliveries until it is enabled again", async () => {
    const { uid, endpointId } = await account();
    answers = Array(3).fill({ status: 500 });
    await queue(uid);
    // A day ago it began failing: three more failures reach the thresholds.
    await db().update(webhookEndpoints).set({ failingSince: new Date(Date.now() - 25 * 3_600_000) }).where(eq(webhookEndpoints.id, endpointId));
    const w = worker({ retryScheduleMs: Array(10).fill(1), disableAfter: { failures: 3, failingForMs: 24 * 3_600_000 } });
    for (let round = 0; round < 4; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await w.deliverDue();
    }
    const endpoint = await endpointRow(endpointId);
    expect(endpoint.disabledAt).not.toBeNull();
    expect(endpoint.disabledReason).toMatch(/^3 attempts in a row failed over 25 hours \(the last: HTTP 500\)\.$/);
    expect(receiver.receipts).toHaveLength(3);
    const [delivery] = await deliveriesOf(endpointId);
    expect(delivery).toMatchObject({ status: "pending", attempts: 3 });

    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.to, `${uid}@hooks.example`));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.meta).toEqual({ kind: "webhook-endpoint-disabled", url: "https://sponsorgrid.example/app/account/webhooks", endpointId });
    expect(mails[0]!.text).toContain(`${receiver.origin}/in/${endpointId}`);
    expect(mails[0]!.text).toContain("HTTP 500");

    // Disabled: not attempted, however due.
    await w.deliverDue();
    expect(receiver.receipts).toHaveLength(3);
    await db().update(webhookEndpoints).set({ disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null }).where(eq(webhookEndpoints.id, endpointId));
    await w.deliverDue();
    expect((await deliveriesOf(endpointId))[0]).toMatchObject({ status: "delivered", attempts: 4 });
  });

  it("a suspended account's deliveries wait without an attempt, and go once the suspension is lifted", async () => {
    const { uid, endpointId } = await account();
    await queue(uid);
    await db().update(user).set({ disabled: true }).where(eq(user.id, uid));
    const w = worker();
    expect(await w.deliverDue()).toBe(0);
    expect(receiver.receipts).toHaveLength(0);
    expect((await deliveriesOf(endpointId))[0]).toMatchObject({ status: "pending", attempts: 0 });

    await db().update(user).set({ disabled: false }).where(eq(user.id, uid));
    expect(await w.deliverDue()).toBe(1);
    expect(receiver.receipts).toHaveLength(1);
    expect((await deliveriesOf(endpointId))[0]).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("a resend is a new pending row for the same event: sent with the same webhook-id", async () => {
    const { uid, endpointId } = await account();
    const eventId = (await queue(uid))!;
    const w = worker();
    await w.deliverDue();
    const [original] = await deliveriesOf(endpointId);
    await db().insert(webhookDeliveries).values({ id: `wd_${nanoid(20)}`, endpointId, eventId, orderingKey: original!.orderingKey, eventSequence: original!.eventSequence });
    w.kick();
    const started = Date.now();
    while ((await deliveriesOf(endpointId)).some((d) => d.status === "pending") && Date.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(receiver.receipts.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);
  });

  it("prunes events older than the window, except those still pending", async () => {
    const { uid, endpointId } = await account();
    const old = (await queue(uid, "payment:old"))!;
    const waiting = (await queue(uid, "payment:waiting"))!;
    const recent = (await queue(uid, "payment:recent"))!;
    const longAgo = new Date(Date.now() - 31 * 24 * 3_600_000);
    await db().update(webhookEvents).set({ createdAt: longAgo }).where(eq(webhookEvents.id, old));
    await db().update(webhookEvents).set({ createdAt: longAgo }).where(eq(webhookEvents.id, waiting));
    await db().update(webhookDeliveries).set({ createdAt: longAgo, status: "delivered" }).where(eq(webhookDeliveries.eventId, old));
    await db().update(webhookDeliveries).set({ createdAt: longAgo }).where(eq(webhookDeliveries.eventId, waiting));
    expect(await pruneWebhookHistory(db(), new Date())).toBe(1);
    const left = await db().select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.uid, uid));
    expect(left.map((e) => e.id).sort()).toEqual([waiting, recent].sort());
    expect((await deliveriesOf(endpointId)).map((d) => d.eventId).sort()).toEqual([waiting, recent].sort());
  });
});
