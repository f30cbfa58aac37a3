import { and, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { connectedAccounts, emailOutbox, ledgerEntries, notifications, refundRequests, sponsorSessions, type SponsorSessionStatus } from "#server/platform/db/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { propertyRuns } from "#tests/support/property-runs";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type SeededSession } from "#tests/support/payments";
import { setSandboxAccountState, testSandbox, withCallLog } from "#tests/support/test-sandbox";
import { stripeStandardFee } from "#server/providers/payments/sandbox/fees";
import { refundSponsorship } from "#server/domains/payments/refunds/refunds";
import { receivePaymentEvent } from "./intake";

/**
 * The property: whatever the order, the number of deliveries and
 * their concurrency, the ledger ends as a simple model says, with no refund
 * written twice and no notification sent twice. Each run is a few sessions, each
 * with a story; every event of every story is delivered 1–3 times, all
 * shuffled and all at once (Promise.all on one database). An event that came
 * before what it needs fails and is delivered again, as the provider would,
 * until all are handled.
 */
// 1,000 sequences per engine in `npm run test:deep` (about 70 s on PGlite and 90 s on PostgreSQL on an
// idle machine), a quick 150 with a new seed each run in `npm test` (tests/support/property-runs.ts).
const RUNS = propertyRuns({ quick: 50, deep: 1000 });

const STORIES = ["paid", "asyncPaid", "asyncFailed", "expired", "refunded", "disputed", "refundFailed", "clickedRefund"] as const;
type Story = (typeof STORIES)[number];

const expectedStatus: Record<Story, SponsorSessionStatus> = {
  paid: "completed",
  asyncPaid: "completed",
  asyncFailed: "failed",
  expired: "expired",
  refunded: "refunded",
  disputed: "disputed",
  refundFailed: "completed",
  clickedRefund: "refunded",
};
const paidStories = new Set<Story>(["paid", "asyncPaid", "refunded", "disputed", "refundFailed", "clickedRefund"]);
const refundedStories = new Set<Story>(["refunded", "clickedRefund"]);

function storyEvents(story: Story, s: SeededSession, refundVia: "both" | "charge" | "refund"): PaymentEvent[] {
  const paid = events.checkout("checkout.completed", s);
  switch (story) {
    case "paid":
    case "clickedRefund":
      return [paid];
    case "asyncPaid":
      return [events.checkout("checkout.completed", s, "unpaid"), events.checkout("checkout.async_payment_succeeded", s)];
    case "asyncFailed":
      return [events.checkout("checkout.completed", s, "unpaid"), events.checkout("checkout.async_payment_failed", s, "unpaid")];
    case "expired":
      return [events.checkout("checkout.expired", s, "unpaid")];
    case "refunded":
      return [
        paid,
        ...(refundVia !== "refund" ? [events.chargeRefunded(s)] : []),
        ...(refundVia !== "charge" ? [events.refundUpdated(s, "succeeded")] : []),
      ];
    case "disputed":
      return [paid, events.disputeChanged(s)];
    case "refundFailed":
      return [paid, events.refundUpdated(s, "failed")];
  }
}

const scenario = fc.record({
  sessions: fc.array(
    fc.record({
      story: fc.constantFrom(...STORIES),
      amount: fc.integer({ min: 50, max: 100_000 }),
      feePercent: fc.constantFrom(0, 5, 10),
      refundVia: fc.constantFrom("both" as const, "charge" as const, "refund" as const),
      clicks: fc.integer({ min: 1, max: 5 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  // A creator finishing onboarding meanwhile: the provider's final word, and how many reports of it arrive.
  accountFinal: fc.boolean(),
  accountReports: fc.integer({ min: 0, max: 3 }),
  copies: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 12, maxLength: 12 }),
  order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 36, maxLength: 36 }),
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

describe.each(ENGINES)("webhook intake property on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const timings: number[] = [];
  const counts = { runs: 0, deliveries: 0, retries: 0, refundsModel: 0, refundsLedger: 0, notifications: 0, clicks: 0, refundCalls: 0 };

  afterAll(() => {
    const sorted = [...timings].sort((a, b) => a - b);
    console.log(
      `[payments property, ${engine}] runs=${counts.runs} deliveries=${counts.deliveries} redeliveries=${counts.retries} ` +
        `refunds model=${counts.refundsModel} ledger=${counts.refundsLedger} refund clicks=${counts.clicks} provider refund calls=${counts.refundCalls} alerts=${counts.notifications} ` +
        `intake ms (all deliveries of a run at once, so queueing included) p50=${percentile(sorted, 50).toFixed(2)} p95=${percentile(sorted, 95).toFixed(2)} max=${(sorted.at(-1) ?? 0).toFixed(2)}`,
    );
  });

  it(`${RUNS} random event sequences leave the ledger as the model says`, { timeout: 30 * 60_000 }, async () => {
    const db = database.db;
    // The sandbox, with a log of the refunds asked of it.
    const log = withCallLog(sandbox.provider);
    const provider = log.provider;
    const refundCalls = () => log.callsOf("refundPayment");
    const deps = webhookDeps(db, provider);
    const deliver = async (event: PaymentEvent) => {
      const started = performance.now();
      const result = await receivePaymentEvent(db, event, deps);
      timings.push(performance.now() - started);
      counts.deliveries += 1;
      return { event, result };
    };

    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        counts.runs += 1;
        const payee = await seedPayee(db, sandbox.provider);
        const newcomer = await seedPayee(db, sandbox.provider, { complete: false });
        await setSandboxAccountState(db, newcomer.accountId, { chargesEnabled: sc.accountFinal });
        const sessions = [];
        for (const spec of sc.sessions) {
          const seeded = await seedSession(db, payee, { amount: spec.amount, platformFee: Math.round((spec.amount * spec.feePercent) / 100) });
          // The stories with a payment have it made at the sandbox with the test card; the others never pay.
          const s = paidStories.has(spec.story) ? await payAtSandbox(db, sandbox.provider, payee, seeded) : seeded;
          sessions.push({ ...spec, s });
        }
        const all: PaymentEvent[] = [
          ...sessions.flatMap(({ story, s, refundVia }) => storyEvents(story, s, refundVia)),
          ...Array.from({ length: sc.accountReports }, (_, i) => events.accountUpdated(newcomer.accountId, i % 2 === 0)),
        ];
        const deliveries = all.flatMap((event, i) => Array.from({ length: sc.copies[i % sc.copies.length]! }, () => event));
        const shuffled = deliveries
          .map((event, i) => ({ event, key: sc.order[i % sc.order.length]! + i * 1e-9 }))
          .sort((a, b) => a.key - b.key)
          .map((d) => d.event);

        const deliverAll = async (batch: PaymentEvent[], alongside: Promise<unknown>[] = []) => {
          let pending = batch;
          for (let round = 0; pending.length > 0; round += 1) {
            if (round > 20) throw new Error("events still unhandled after 20 rounds of retries");
            const [results] = await Promise.all([Promise.all(pending.map(deliver)), ...(round === 0 ? alongside : [])]);
            pending = results.filter((r) => r.result.kind === "ERROR").map((r) => r.event);
            counts.retries += pending.length;
          }
        };
        // The owner's clicks race the payment's own events: a click before the payment is recorded is refused.
        const clicked = sessions.filter((x) => x.story === "clickedRefund");
        counts.clicks += clicked.reduce((sum, x) => sum + x.clicks, 0);
        const clicks = clicked.flatMap(({ s, clicks: n }) => Array.from({ length: n }, () => refundSponsorship(db, provider, { uid: payee.uid, sessionId: s.sessionId })));
        await deliverAll(shuffled, clicks);
        // Then the provider reports each refund it made (twice each, both events, all at once).
        const refundEvents: PaymentEvent[] = [];
        for (const { s } of clicked) {
          if (!refundCalls().some((c) => c.paymentIntentId === s.paymentIntentId)) {
            expect(await refundSponsorship(db, provider, { uid: payee.uid, sessionId: s.sessionId })).toMatchObject({ kind: "SUCCESS", alreadyRequested: false });
          }
          const [claim] = await db.select().from(refundRequests).where(eq(refundRequests.sessionId, s.sessionId));
          const updated = events.refundUpdated(s, "succeeded", claim!.providerRefundId!);
          const charged = events.chargeRefunded(s);
          refundEvents.push(updated, charged, updated, charged);
        }
        await deliverAll(refundEvents);
        for (const { s } of clicked) expect(refundCalls().filter((c) => c.paymentIntentId === s.paymentIntentId)).toHaveLength(1);

        // The model.
        const ids = sessions.map(({ s }) => s.sessionId);
        const rows = await db.select().from(sponsorSessions).where(inArray(sponsorSessions.id, ids));
        for (const { story, s } of sessions) expect(rows.find((r) => r.id === s.sessionId)!.status).toBe(expectedStatus[story]);

        const entries = await db.select().from(ledgerEntries).where(inArray(ledgerEntries.sessionId, ids));
        const shape = (e: { sessionId: string | null; kind: string; gross: number; providerFee: number; platformFee: number; net: number }) =>
          `${e.sessionId} ${e.kind} ${e.gross} ${e.providerFee} ${e.platformFee} ${e.net}`;
        const expected = sessions.flatMap(({ story, s }) => {
          if (!paidStories.has(story)) return [];
          const payment = { sessionId: s.sessionId, kind: "payment", gross: s.amount, providerFee: stripeStandardFee(s.amount, "usd"), platformFee: s.platformFee, net: s.amount - s.platformFee };
          const back = { sessionId: s.sessionId, gross: -s.amount, providerFee: 0, platformFee: -s.platformFee, net: -(s.amount - s.platformFee) };
          if (refundedStories.has(story)) return [payment, { ...back, kind: "refund" }];
          // The dispute costs the platform the provider's dispute fee (events.disputeChanged carries Stripe's 1500).
          if (story === "disputed") return [payment, { ...back, kind: "dispute", providerFee: 1_500 }];
          return [payment];
        });
        expect(entries.map(shape).sort()).toEqual(expected.map(shape).sort());
        const refunds = entries.filter((e) => e.kind === "refund").length;
        counts.refundsLedger += refunds;
        counts.refundsModel += sessions.filter((x) => refundedStories.has(x.story)).length;
        counts.refundCalls += clicked.length;

        const requests = await db.select().from(refundRequests).where(inArray(refundRequests.sessionId, ids));
        expect(requests.map((r) => `${r.sessionId} ${r.status}`).sort()).toEqual(
          sessions.filter((x) => refundedStories.has(x.story)).map((x) => `${x.s.sessionId} succeeded`).sort(),
        );

        const notificationRows = await db.select({ uid: notifications.uid, kind: notifications.kind }).from(notifications).where(inArray(notifications.uid, [payee.uid, newcomer.uid]));
        counts.notifications += notificationRows.length;
        const tally = (kind: string) => notificationRows.filter((a) => a.kind === kind).length;
        expect(tally("payment-received")).toBe(sessions.filter((x) => paidStories.has(x.story)).length);
        expect(tally("refund-done")).toBe(sessions.filter((x) => refundedStories.has(x.story)).length);
        expect(tally("dispute-opened")).toBe(sessions.filter((x) => x.story === "disputed").length);
        expect(tally("payouts-enabled")).toBe(sc.accountReports > 0 && sc.accountFinal ? 1 : 0);
        const [account] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, newcomer.uid));
        expect(account!.completed).toBe(sc.accountReports > 0 && sc.accountFinal);

        // Two mails per payment (the sponsor's receipt, the owner's "Payment received"), never more; the owner's
        // other notifications are mailed by default too (ADR 0025), one mail each.
        const mails = await db.select({ meta: emailOutbox.meta }).from(emailOutbox).where(and(eq(emailOutbox.to, `${payee.uid}@pay.example`)));
        expect(mails.filter((m) => m.meta.kind === "notification:payment-received")).toHaveLength(tally("payment-received"));
        expect(mails).toHaveLength(tally("payment-received") + tally("refund-done") + tally("dispute-opened"));
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    // One provider refund per session whose owner clicked, however many clicks.
    expect(refundCalls()).toHaveLength(counts.refundCalls);
  });

  // What one event costs: printed, not asserted (bench/ measures speed); 200 of each in test:deep.
  const SAMPLES = propertyRuns({ quick: 20, deep: 200 });
  it("takes this long per event with nothing else running (paid checkouts, each a payment, an alert and two mails)", async () => {
    const db = database.db;
    const deps = webhookDeps(db, sandbox.provider);
    const payee = await seedPayee(db, sandbox.provider);
    const alone: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const s = await payAtSandbox(db, sandbox.provider, payee, await seedSession(db, payee));
      const started = performance.now();
      expect(await receivePaymentEvent(db, events.checkout("checkout.completed", s), deps)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
      alone.push(performance.now() - started);
    }
    alone.sort((a, b) => a - b);
    // An event without mail to render (a checkout that expired): the record-once machinery and one row lock.
    const plain: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const s = await seedSession(db, payee);
      const started = performance.now();
      expect(await receivePaymentEvent(db, events.checkout("checkout.expired", s, "unpaid"), deps)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
      plain.push(performance.now() - started);
    }
    plain.sort((a, b) => a - b);
    console.log(
      `[payments intake alone, ${engine}] paid checkouts=${SAMPLES} ms p50=${percentile(alone, 50).toFixed(2)} p95=${percentile(alone, 95).toFixed(2)}; ` +
        `expired checkouts=${SAMPLES} ms p50=${percentile(plain, 50).toFixed(2)} p95=${percentile(plain, 95).toFixed(2)}`,
    );
  });
});
