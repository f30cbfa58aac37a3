import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { deals, emailOutbox, ledgerEntries, queuedTasks } from "#server/platform/db/schema";
import { recordPayment } from "#server/domains/payments/ledger/ledger";
import { seedMembership, seedMembershipPeriod, seedTier } from "#tests/support/office-memberships";
import { moveDeal } from "#server/domains/deals/act";
import { refundCancelledDeal } from "#server/domains/deals/refunds";
import { releaseDeal } from "#server/domains/deals/release";
import { reviewDeliverable, submitDeliverable } from "#server/domains/deals/work";
import { agreedOfferInDb, fundedDeal } from "#tests/support/deals";
import { notificationDeps, seedPayee, seedSession } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { PaymentEvent } from "#server/providers/payments/events";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { openPglite, openPostgres } from "#server/platform/db/client";
import { webhookObserver } from "#server/features/payment-webhooks/metrics";
import { attachServiceMetrics, countingPayments } from "./service-metrics";
import { createMetrics } from "#server/platform/metrics/metrics";

const valueOf = async (metrics: ReturnType<typeof createMetrics>, name: string, labels: Record<string, string> = {}) => {
  const metric = await metrics.registry.getSingleMetric(name)!.get();
  return metric.values.find((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))?.value;
};

describe.each(ENGINES)("scrape-time gauges on %s", (engine) => {
  const database = migratedDatabase(engine);

  test("the mail queue's depth and oldest age, the sandbox's undelivered events, the open streams", async () => {
    const metrics = createMetrics();
    attachServiceMetrics(metrics, { database: { db: database.db }, sandbox: true, openStreams: () => 3 });
    expect(await valueOf(metrics, "sponsorgrid_outbox_depth", { queue: "mail" })).toBe(0);
    expect(await valueOf(metrics, "sponsorgrid_outbox_oldest_age_seconds", { queue: "mail" })).toBe(0);

    const mail = { from: "a@example.com", subject: "s", html: "h", text: "t", status: "queued" as const };
    await database.db.insert(emailOutbox).values([
      { ...mail, to: "one@example.com", createdAt: new Date(Date.now() - 120_000) },
      { ...mail, to: "two@example.com" },
      // Kept for /dev/mailbox, not waiting for delivery.
      { ...mail, to: "three@example.com", status: "stored" },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('sponsorgrid_outbox_depth{queue="mail"} 2');
    expect(text).toMatch(/sponsorgrid_outbox_depth\{queue="sandbox_events"\} \d+/);
    const age = await valueOf(metrics, "sponsorgrid_outbox_oldest_age_seconds", { queue: "mail" });
    expect(age).toBeGreaterThanOrEqual(119);
    expect(age).toBeLessThan(600);
    expect(text).toContain("sponsorgrid_notification_streams_open 3");
  });

  test("the queued tasks' depth and oldest age; given-up tasks are not waiting", async () => {
    const metrics = createMetrics();
    attachServiceMetrics(metrics, { database: { db: database.db }, sandbox: false, openStreams: () => 0 });
    await database.db.insert(queuedTasks).values([
      { id: "task_old", kind: "k", payload: {}, createdAt: new Date(Date.now() - 300_000) },
      { id: "task_new", kind: "k", payload: {} },
      { id: "task_failed", kind: "k", payload: {}, status: "failed", createdAt: new Date(Date.now() - 900_000) },
    ]);
    expect(await valueOf(metrics, "sponsorgrid_outbox_depth", { queue: "tasks" })).toBe(2);
    const age = await valueOf(metrics, "sponsorgrid_outbox_oldest_age_seconds", { queue: "tasks" });
    expect(age).toBeGreaterThanOrEqual(299);
    expect(age).toBeLessThan(600);
  });
});

describe.each(ENGINES)("the deal room's gauges on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const deps = () => notificationDeps(db());
  const sponsorOf = async (dealId: string) => (await db().select({ uid: deals.sponsorUid }).from(deals).where(eq(deals.id, dealId)))[0]!.uid!;
  const cancel = async (creator: string, dealId: string) => {
    expect(await moveDeal(db(), deps(), { uid: creator, dealId, move: { action: "request_cancel", reason: "Plans changed." }, network: "198.51.100.4" })).toMatchObject({ kind: "SUCCESS" });
    expect(await moveDeal(db(), deps(), { uid: await sponsorOf(dealId), dealId, move: { action: "agree_cancel" }, network: "198.51.100.4" })).toMatchObject({ kind: "SUCCESS" });
  };

  test("every state counted (0 when none), and the money held for deals not completed, per currency", async () => {
    const metrics = createMetrics();
    attachServiceMetrics(metrics, { database: { db: db() }, sandbox: true, openStreams: () => 0 });
    // Before any deal: every state is there at 0, and no currency is held.
    expect(await valueOf(metrics, "sponsorgrid_deals", { state: "funded" })).toBe(0);
    expect((await metrics.registry.getSingleMetric("sponsorgrid_deal_money_held_minor")!.get()).values).toEqual([]);

    const payee = await seedPayee(db(), sandbox.provider);
    await agreedOfferInDb(db(), payee.uid, { price: 5_000 });
    // Booked: held in full.
    await fundedDeal(db(), sandbox.provider, payee, 30_000);
    // Approved and released: the creator's share went out, the rest is the platform's fee, held no more.
    const done = await fundedDeal(db(), sandbox.provider, payee, 20_000);
    expect(await submitDeliverable(db(), deps(), { uid: payee.uid, dealId: done.dealId, deliverable: 0, liveUrl: "https://youtu.be/abc123", note: "" })).toMatchObject({ kind: "SUCCESS" });
    expect(await reviewDeliverable(db(), deps(), { uid: await sponsorOf(done.dealId), dealId: done.dealId, deliverable: 0, review: { verdict: "approve" } })).toMatchObject({ kind: "SUCCESS" });
    expect(await releaseDeal(db(), sandbox.provider, deps(), done.dealId)).toBe("RELEASED");
    // Cancelled and refunded: nothing held. Cancelled, its refund not made yet: still held.
    const refunded = await fundedDeal(db(), sandbox.provider, payee, 7_000);
    await cancel(payee.uid, refunded.dealId);
    expect(await refundCancelledDeal(db(), sandbox.provider, refunded.dealId)).toBe("REFUNDED");
    const refunding = await fundedDeal(db(), sandbox.provider, payee, 4_000);
    await cancel(payee.uid, refunding.dealId);

    const text = await metrics.registry.metrics();
    expect(text).toContain("# HELP sponsorgrid_deals Deals, by state");
    const counts = Object.fromEntries(
      await Promise.all(["proposed", "agreed", "funded", "completed", "cancelled", "declined", "withdrawn"].map(async (state) => [state, await valueOf(metrics, "sponsorgrid_deals", { state })])),
    );
    expect(counts).toEqual({ proposed: 0, agreed: 1, funded: 1, completed: 1, cancelled: 2, declined: 0, withdrawn: 0 });
    expect(await valueOf(metrics, "sponsorgrid_deal_money_held_minor", { currency: "usd" })).toBe(30_000 + 4_000);

    // The held refund goes back: the figure follows at the next scrape.
    expect(await refundCancelledDeal(db(), sandbox.provider, refunding.dealId)).toBe("REFUNDED");
    expect(await valueOf(metrics, "sponsorgrid_deal_money_held_minor", { currency: "usd" })).toBe(30_000);
  });
});

describe("database instrumentation", () => {
  test("PGlite: every statement is timed, inside transactions too", async () => {
    const timed: number[] = [];
    const handle = await openPglite(null, { onQuery: (seconds) => timed.push(seconds) });
    try {
      await handle.db.execute("select 1");
      expect(timed).toHaveLength(1);
      await handle.db.transaction(async (tx) => {
        await tx.execute("select 2");
        await tx.execute("select 3");
      });
      // begin, two statements, commit: at least the two of ours.
      expect(timed.length).toBeGreaterThanOrEqual(3);
      expect(timed.every((seconds) => seconds >= 0 && seconds < 10)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  test.runIf(process.env.DATABASE_URL)("PostgreSQL: statements are timed and the pool's use is read at scrape", async () => {
    const timed: number[] = [];
    // No tables needed: the server's own database will do.
    const handle = await openPostgres(process.env.DATABASE_URL!, { onQuery: (seconds) => timed.push(seconds) });
    try {
      await Promise.all([handle.db.execute("select pg_sleep(0.05)"), handle.db.execute("select 1")]);
      expect(timed.length).toBeGreaterThanOrEqual(2);
      expect(Math.max(...timed)).toBeGreaterThanOrEqual(0.04);
      const metrics = createMetrics();
      attachServiceMetrics(metrics, { database: handle, sandbox: false, openStreams: () => 0 });
      expect(await valueOf(metrics, "sponsorgrid_db_pool_connections", { state: "total" })).toBe(2);
      expect(await valueOf(metrics, "sponsorgrid_db_pool_connections", { state: "idle" })).toBe(2);
      expect(await valueOf(metrics, "sponsorgrid_db_pool_connections", { state: "waiting" })).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

describe("payments and webhooks", () => {
  test("checkouts opened and refunds asked for are counted by their answer", async () => {
    const metrics = createMetrics();
    let refundStatus: "pending" | "failed" = "pending";
    const provider = countingPayments(
      {
        name: "sandbox",
        createSponsorCheckout: async () => ({ sessionId: "cs_1", url: "https://pay.example/cs_1" }),
        refundPayment: async () => ({ refundId: "re_1", status: refundStatus }),
        paymentDetails: async () => {
          throw new Error("provider away");
        },
      } as unknown as PaymentProvider,
      metrics,
    );
    await provider.createSponsorCheckout({} as never);
    await provider.refundPayment({ idempotencyKey: "k", paymentIntentId: "pi" });
    refundStatus = "failed";
    await provider.refundPayment({ idempotencyKey: "k", paymentIntentId: "pi" });
    // Everything else is the provider's own, untouched.
    expect(provider.name).toBe("sandbox");
    await expect(provider.paymentDetails("pi")).rejects.toThrow("provider away");
    expect(await valueOf(metrics, "sponsorgrid_payments_total", { kind: "checkout", outcome: "started" })).toBe(1);
    expect(await valueOf(metrics, "sponsorgrid_payments_total", { kind: "refund", outcome: "requested" })).toBe(1);
    expect(await valueOf(metrics, "sponsorgrid_payments_total", { kind: "refund", outcome: "failed" })).toBe(1);
  });

  test("webhook stages by type, and what a processed event settles", async () => {
    const metrics = createMetrics();
    const observe = webhookObserver(metrics);
    const paid = { type: "checkout.completed", paymentStatus: "paid" } as PaymentEvent;
    observe(paid, "received");
    observe(paid, "processed");
    observe(paid, "received");
    observe(paid, "duplicate");
    const refunded = { type: "charge.refunded" } as PaymentEvent;
    observe(refunded, "received");
    observe(refunded, "failed");
    expect(await valueOf(metrics, "sponsorgrid_payment_webhook_events_total", { type: "checkout.completed", stage: "received" })).toBe(2);
    expect(await valueOf(metrics, "sponsorgrid_payment_webhook_events_total", { type: "checkout.completed", stage: "duplicate" })).toBe(1);
    expect(await valueOf(metrics, "sponsorgrid_payment_webhook_events_total", { type: "charge.refunded", stage: "failed" })).toBe(1);
    expect(await valueOf(metrics, "sponsorgrid_payments_total", { kind: "checkout", outcome: "succeeded" })).toBe(1);
    // A failed handling settles nothing yet: the provider delivers it again.
    expect(await valueOf(metrics, "sponsorgrid_payments_total", { kind: "refund", outcome: "succeeded" })).toBeUndefined();
  });
});


describe.each(ENGINES)("the memberships' gauges on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  test("every status counted (0 when none), and the periods the ledger recorded paid in the last 24 hours", async () => {
    const metrics = createMetrics();
    attachServiceMetrics(metrics, { database: { db: db() }, sandbox: true, openStreams: () => 0 });
    expect(await valueOf(metrics, "sponsorgrid_memberships", { status: "active" })).toBe(0);
    expect(await valueOf(metrics, "sponsorgrid_memberships", { status: "expired" })).toBe(0);
    expect(await valueOf(metrics, "sponsorgrid_membership_periods_paid_24h")).toBe(0);

    const payee = await seedPayee(db(), sandbox.provider);
    const tier = await seedTier(db(), payee);
    const active = await seedMembership(db(), payee, tier, { status: "active" });
    await seedMembership(db(), payee, tier, { status: "active" });
    await seedMembership(db(), payee, tier, { status: "past_due" });
    // Two periods paid now, one paid two days ago, one still pending, and a tip: only the first two count.
    const paid = async (at?: Date) => {
      const period = await seedMembershipPeriod(db(), payee, active);
      await recordPayment(db(), { sessionId: period.sessionId, paymentIntentId: period.paymentIntentId, gross: period.amount, providerFee: 30, platformFee: 0, currency: "usd" });
      if (at) await db().update(ledgerEntries).set({ created: at }).where(eq(ledgerEntries.sessionId, period.sessionId));
    };
    await paid();
    await paid();
    await paid(new Date(Date.now() - 2 * 86_400_000));
    await seedMembershipPeriod(db(), payee, active);
    const tip = await seedSession(db(), payee);
    await recordPayment(db(), { sessionId: tip.sessionId, paymentIntentId: tip.paymentIntentId, gross: 2500, providerFee: 103, platformFee: 0, currency: "usd" });

    const text = await metrics.registry.metrics();
    expect(text).toContain('sponsorgrid_memberships{status="active"} 2');
    expect(text).toContain('sponsorgrid_memberships{status="past_due"} 1');
    expect(text).toContain('sponsorgrid_memberships{status="pending"} 0');
    expect(text).toContain("sponsorgrid_membership_periods_paid_24h 2");
  });
});
