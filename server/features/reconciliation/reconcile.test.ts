import { eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { auditLog, ledgerEntries, reconciliationRuns } from "#server/platform/db/schema";
import type { Db } from "#server/platform/db/client";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { paymentEventSchema, type PaymentEvent } from "#server/providers/payments/events";
import { sandboxEvents } from "#server/providers/payments/sandbox/schema";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { propertyRuns } from "#tests/support/property-runs";
import { payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { testSandbox, type TestClock } from "#tests/support/test-sandbox";
import { recordDealRelease } from "#server/domains/payments/ledger/deal-ledger";
import { fundedDeal, storedSandboxEvents } from "#tests/support/deals";
import { reconcileYesterday } from "./daily";
import { reconcile } from "./run";

/**
 * Reconciliation against the sandbox, whose balance transactions come from
 * its own tables: what it charged, refunded and had disputed. The webhook
 * events delivered are the very ones the sandbox stored for those changes,
 * duplicated, shuffled and delivered all at once through the real intake; the
 * ledger they leave must reconcile to zero differences, and a ledger row
 * altered, removed or added behind the app's back must be reported as exactly
 * that difference.
 */
// 1,000 sequences per engine in `npm run test:deep` (about 4 min per 1,000 on an idle machine), a
// quick 60 with a new seed each run in `npm test` (tests/support/property-runs.ts).
const RUNS = propertyRuns({ quick: 25, deep: 1000 });
const ACTOR = { kind: "command-line" } as const;
const STORIES = ["paid", "refunded", "disputed", "unpaid"] as const;
type Story = (typeof STORIES)[number];

async function makeStory(db: Db, sandbox: SandboxProvider, payee: Payee, story: Story, amount: number, platformFee: number): Promise<SeededSession> {
  const seeded = await seedSession(db, payee, { amount, platformFee });
  if (story === "unpaid") return seeded;
  const s = await payAtSandbox(db, sandbox, payee, seeded);
  if (story === "refunded") await sandbox.refundPayment({ idempotencyKey: `refund_${s.sessionId}`, paymentIntentId: s.paymentIntentId });
  if (story === "disputed") await sandbox.openDispute({ paymentIntentId: s.paymentIntentId });
  return s;
}

/** The events the sandbox stored for these payments, as its outbox would send them. */
async function storedEvents(db: Db, intents: string[]): Promise<PaymentEvent[]> {
  if (intents.length === 0) return [];
  const rows = await db
    .select({ payload: sandboxEvents.payload })
    .from(sandboxEvents)
    .where(inArray(sql`${sandboxEvents.payload}->>'paymentIntentId'`, intents));
  return rows.map((row) => paymentEventSchema.parse(row.payload));
}

/** Every delivery at once; one that came before what it needs fails and is delivered again, as the provider would. */
async function deliverAll(db: Db, sandbox: SandboxProvider, deliveries: PaymentEvent[]): Promise<void> {
  const deps = webhookDeps(db, sandbox);
  let pending = deliveries;
  for (let round = 0; pending.length > 0; round += 1) {
    if (round > 20) throw new Error("events still unhandled after 20 rounds");
    const results = await Promise.all(pending.map(async (event) => ({ event, result: await receivePaymentEvent(db, event, deps) })));
    pending = results.filter((r) => r.result.kind === "ERROR").map((r) => r.event);
  }
}

const scenario = fc.record({
  sessions: fc.array(
    fc.record({ story: fc.constantFrom(...STORIES), amount: fc.integer({ min: 50, max: 100_000 }), feePercent: fc.constantFrom(0, 5, 10) }),
    { minLength: 1, maxLength: 3 },
  ),
  copies: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 8, maxLength: 8 }),
  order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 24, maxLength: 24 }),
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

describe.each(ENGINES)("reconciliation on %s", (engine) => {
  const database = migratedDatabase(engine);
  const clock: TestClock = { now: new Date() };
  const sandbox = testSandbox(database, clock);

  it(`${RUNS} shuffled, duplicated, concurrent event sequences each reconcile to 0 differences`, { timeout: 30 * 60_000 }, async () => {
    const db = database.db;
    const testStart = new Date();
    const totals = { runs: 0, compared: 0 };
    let payee: Payee | undefined;
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        await tick();
        const from = new Date();
        clock.now = from;
        payee ??= await seedPayee(db, sandbox.provider);
        const intents: string[] = [];
        for (const spec of sc.sessions) {
          const s = await makeStory(db, sandbox.provider, payee, spec.story, spec.amount, Math.round((spec.amount * spec.feePercent) / 100));
          if (spec.story !== "unpaid") intents.push(s.paymentIntentId);
        }
        const all = await storedEvents(db, intents);
        const deliveries = all
          .flatMap((event, i) => Array.from({ length: sc.copies[i % sc.copies.length]! }, () => event))
          .map((event, i) => ({ event, key: sc.order[i % sc.order.length]! + i * 1e-9 }))
          .sort((a, b) => a.key - b.key)
          .map((d) => d.event);
        await deliverAll(db, sandbox.provider, deliveries);
        await tick();
        // This run's own period, back to back with the last: each run's movements are compared once.
        const result = await reconcile(db, sandbox.provider, { period: { from, to: new Date() }, actor: ACTOR, slackMs: 0 });
        expect(result.kind).toBe("SUCCESS");
        if (result.kind !== "SUCCESS") return;
        expect(result.run.differences).toEqual([]);
        const paid = sc.sessions.filter((x) => x.story !== "unpaid").length;
        const backs = sc.sessions.filter((x) => x.story === "refunded" || x.story === "disputed").length;
        expect(result.run.movementsCompared).toBe(paid + backs);
        totals.runs += 1;
        totals.compared += result.run.movementsCompared;
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    // And the whole test's span at once, as the daily job reads a day: still nothing to look into.
    const whole = await reconcile(db, sandbox.provider, { period: { from: testStart, to: new Date(Date.now() + 1) }, actor: ACTOR });
    expect(whole.kind === "SUCCESS" && whole.run.differenceCount).toBe(0);
    expect(whole.kind === "SUCCESS" && whole.run.movementsCompared).toBe(totals.compared);
    console.log(`[reconciliation property, ${engine}] runs=${totals.runs} movements compared=${totals.compared}`);
  });

  it("reports a ledger row altered, removed or added behind the app's back as exactly that difference", async () => {
    const db = database.db;
    await tick();
    const from = new Date();
    clock.now = from;
    const payee = await seedPayee(db, sandbox.provider);
    const paid = await makeStory(db, sandbox.provider, payee, "paid", 2_500, 250);
    const refunded = await makeStory(db, sandbox.provider, payee, "refunded", 4_000, 400);
    const disputed = await makeStory(db, sandbox.provider, payee, "disputed", 1_000, 0);
    const intents = [paid, refunded, disputed].map((s) => s.paymentIntentId);
    await deliverAll(db, sandbox.provider, await storedEvents(db, intents));
    await tick();
    const period = () => ({ from, to: new Date(Date.now() + 1) });
    const run = async () => {
      const result = await reconcile(db, sandbox.provider, { period: period(), actor: ACTOR, slackMs: 0 });
      if (result.kind !== "SUCCESS") throw new Error(result.message);
      return result.run;
    };
    expect((await run()).differences).toEqual([]);

    // Altered: the payment's provider fee changed by raw SQL (the ledger is append-only by the app, not by the database).
    const [payment] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.providerReference, paid.paymentIntentId));
    await db.execute(sql`update ledger_entries set provider_fee = provider_fee + 7 where id = ${payment!.id}`);
    expect((await run()).differences).toEqual([
      expect.objectContaining({
        problem: "amounts-differ",
        kind: "payment",
        reference: paid.paymentIntentId,
        sessionId: paid.sessionId,
        ledgerEntryId: payment!.id,
        fields: [{ field: "providerFee", provider: payment!.providerFee, ledger: payment!.providerFee + 7 }],
      }),
    ]);
    await db.execute(sql`update ledger_entries set provider_fee = provider_fee - 7 where id = ${payment!.id}`);

    // Missing: the refund's row deleted; the provider still has the refund and its application fee refund.
    const [refund] = await db.select().from(ledgerEntries).where(sql`${ledgerEntries.kind} = 'refund' and ${ledgerEntries.providerReference} = ${refunded.paymentIntentId}`);
    await db.execute(sql`delete from ledger_entries where id = ${refund!.id}`);
    const missing = (await run()).differences;
    expect(missing).toEqual([
      expect.objectContaining({
        problem: "missing-in-ledger",
        kind: "refund",
        reference: refunded.paymentIntentId,
        sessionId: refunded.sessionId,
        ledgerEntryId: null,
        fields: [
          { field: "gross", provider: -4_000, ledger: 0 },
          { field: "providerFee", provider: 0, ledger: 0 },
          { field: "platformFee", provider: -400, ledger: 0 },
          { field: "currency", provider: "usd", ledger: "" },
        ],
      }),
    ]);
    expect(missing[0]!.transactionIds).toHaveLength(2);
    await db.insert(ledgerEntries).values({ ...refund!, id: undefined });

    // Extra: a refund the provider never made, written straight into the ledger.
    await db.execute(
      sql`insert into ledger_entries (session_id, kind, gross, provider_fee, platform_fee, net, currency, provider_reference) values (${paid.sessionId}, 'refund', -2500, 0, -250, -2250, 'usd', ${paid.paymentIntentId})`,
    );
    expect((await run()).differences).toEqual([
      expect.objectContaining({
        problem: "missing-at-provider",
        kind: "refund",
        reference: paid.paymentIntentId,
        sessionId: paid.sessionId,
        transactionIds: [],
        fields: [
          { field: "gross", provider: 0, ledger: -2_500 },
          { field: "providerFee", provider: 0, ledger: 0 },
          { field: "platformFee", provider: 0, ledger: -250 },
          { field: "currency", provider: "", ledger: "usd" },
        ],
      }),
    ]);
    await db.execute(sql`delete from ledger_entries where kind = 'refund' and provider_reference = ${paid.paymentIntentId}`);
    expect((await run()).differences).toEqual([]);
  });

  it("reconciles a deal's held payment, a part refunded and a transfer to the creator to 0 differences, and reports a row missing or changed", async () => {
    const db = database.db;
    await tick();
    const from = new Date();
    clock.now = from;
    const payee = await seedPayee(db, sandbox.provider);
    const deal = await fundedDeal(db, sandbox.provider, payee, 10_000);
    const refund = await sandbox.provider.refundHeldPayment({ idempotencyKey: `deal_refund_${deal.fundingId}`, paymentIntentId: deal.paymentIntentId, amount: 2_500 });
    await deliverAll(db, sandbox.provider, [
      ...(await storedSandboxEvents(db, "charge.refunded", "paymentIntentId", deal.paymentIntentId)),
      ...(await storedSandboxEvents(db, "refund.updated", "refundId", refund.refundId)),
    ]);
    // The release as the deal will make it: the transfer at the provider, then its row.
    const { transferId } = await sandbox.provider.createTransfer({
      idempotencyKey: `deal_release_${deal.fundingId}`,
      destinationAccountId: payee.accountId,
      amount: 6_000,
      currency: "usd",
      sourceChargeId: deal.chargeId,
      transferGroup: deal.transferGroup,
    });
    await recordDealRelease(db, { fundingId: deal.fundingId, transferId, amount: 6_000, currency: "usd" });
    await tick();
    const run = async () => {
      const result = await reconcile(db, sandbox.provider, { period: { from, to: new Date(Date.now() + 1) }, actor: ACTOR, slackMs: 0 });
      if (result.kind !== "SUCCESS") throw new Error(result.message);
      return result.run;
    };
    const clean = await run();
    expect(clean.differences).toEqual([]);
    expect(clean.movementsCompared).toBe(3);

    // Missing: the held payment's row deleted; the provider's charge names the funding.
    const [payment] = await db.select().from(ledgerEntries).where(sql`${ledgerEntries.kind} = 'deal_payment' and ${ledgerEntries.fundingId} = ${deal.fundingId}`);
    await db.execute(sql`delete from ledger_entries where id = ${payment!.id}`);
    expect((await run()).differences).toEqual([
      expect.objectContaining({
        problem: "missing-in-ledger",
        kind: "deal_payment",
        reference: deal.paymentIntentId,
        sessionId: null,
        fundingId: deal.fundingId,
        ledgerEntryId: null,
        fields: [
          { field: "gross", provider: 10_000, ledger: 0 },
          { field: "providerFee", provider: payment!.providerFee, ledger: 0 },
          { field: "platformFee", provider: 10_000, ledger: 0 },
          { field: "currency", provider: "usd", ledger: "" },
        ],
      }),
    ]);
    await db.insert(ledgerEntries).values({ ...payment!, id: undefined });
    expect((await run()).differences).toEqual([]);

    // Changed: the release row says less left the platform than the transfer took, and the refund more.
    await db.execute(sql`update ledger_entries set platform_fee = platform_fee + 100, net = net - 100 where kind = 'deal_release' and provider_reference = ${transferId}`);
    await db.execute(sql`update ledger_entries set gross = gross - 1, platform_fee = platform_fee - 1 where kind = 'deal_refund' and provider_reference = ${refund.refundId}`);
    const changed = (await run()).differences;
    expect(changed).toHaveLength(2);
    expect(changed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ problem: "amounts-differ", kind: "deal_release", reference: transferId, fundingId: deal.fundingId, fields: [{ field: "platformFee", provider: -6_000, ledger: -5_900 }] }),
        expect.objectContaining({
          problem: "amounts-differ",
          kind: "deal_refund",
          reference: refund.refundId,
          fundingId: deal.fundingId,
          fields: [
            { field: "gross", provider: -2_500, ledger: -2_501 },
            { field: "platformFee", provider: -2_500, ledger: -2_501 },
          ],
        }),
      ]),
    );
    await db.execute(sql`update ledger_entries set platform_fee = platform_fee - 100, net = net + 100 where kind = 'deal_release' and provider_reference = ${transferId}`);
    await db.execute(sql`update ledger_entries set gross = gross + 1, platform_fee = platform_fee + 1 where kind = 'deal_refund' and provider_reference = ${refund.refundId}`);
    expect((await run()).differences).toEqual([]);
  });

  it("stores each run with one audit row, and the daily job reconciles yesterday once", async () => {
    const db = database.db;
    const provider = { name: "sandbox" as const, listBalanceTransactions: async () => [] };
    const now = new Date("2031-05-04T03:10:00Z");
    const first = await reconcileYesterday(db, provider, now);
    expect(first).toMatchObject({ periodStart: new Date("2031-05-03T00:00:00Z"), periodEnd: new Date("2031-05-04T00:00:00Z"), triggeredBy: "scheduled job reconcile-ledger", differenceCount: 0 });
    // A second tick the same day finds the run stored and does nothing.
    expect(await reconcileYesterday(db, provider, new Date("2031-05-04T09:00:00Z"))).toBeNull();
    const runs = await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.periodStart, new Date("2031-05-03T00:00:00Z")));
    expect(runs).toHaveLength(1);
    const audits = await db.select().from(auditLog).where(eq(auditLog.subjectId, first!.id));
    expect(audits.map((a) => [a.action, a.actorLabel])).toEqual([["reconciliation.run", "scheduled job reconcile-ledger"]]);
  });

  it("refuses a period that ends before it starts or is longer than 31 days", async () => {
    const provider = { name: "sandbox" as const, listBalanceTransactions: async () => [] };
    const at = (d: string) => new Date(`${d}T00:00:00Z`);
    expect(await reconcile(database.db, provider, { period: { from: at("2031-01-02"), to: at("2031-01-01") }, actor: ACTOR })).toMatchObject({ kind: "ERROR", reason: "BAD_PERIOD" });
    expect(await reconcile(database.db, provider, { period: { from: at("2031-01-01"), to: at("2031-02-02") }, actor: ACTOR })).toMatchObject({ kind: "ERROR", reason: "BAD_PERIOD" });
  });
});
