import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { refundRequests, sponsorSessions } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, seedSession, type Payee } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { seedMembership, seedMembershipPeriod, seedTier } from "#tests/support/office-memberships";
import { listPayments, NO_FILTERS, paymentTotals, readPaymentFilters, type MoneySums, type PaymentFilters } from "#server/domains/payments/records/all-payments";
import { recordDispute, recordPayment, recordRefund, refreshSessionStatus } from "#server/domains/payments/ledger/ledger";

/** A payment of `amount` at `created`, settled with a processor fee of 3% + 30 unless `settle` is false; refunded or disputed when asked. */
async function payment(db: Db, payee: Payee, o: { amount: number; platformFee?: number; created: Date; settle?: boolean; refund?: boolean; dispute?: boolean }) {
  const s = await seedSession(db, payee, { amount: o.amount, platformFee: o.platformFee ?? 0 });
  await db.update(sponsorSessions).set({ created: o.created, paymentIntentId: s.paymentIntentId }).where(eq(sponsorSessions.id, s.sessionId));
  if (o.settle === false) return s;
  const pay = { gross: o.amount, platformFee: o.platformFee ?? 0 };
  await recordPayment(db, { sessionId: s.sessionId, paymentIntentId: s.paymentIntentId, gross: o.amount, providerFee: Math.floor(o.amount * 0.03) + 30, platformFee: pay.platformFee, currency: "usd" });
  if (o.refund) {
    await recordRefund(db, { sessionId: s.sessionId, paymentIntentId: s.paymentIntentId, amount: o.amount, currency: "usd", payment: pay });
    await db.insert(refundRequests).values({ sessionId: s.sessionId, status: "succeeded", providerRefundId: `re_${s.sessionId}` });
  }
  if (o.dispute) await recordDispute(db, { sessionId: s.sessionId, disputeId: `dp_${s.sessionId}`, amount: o.amount, providerFee: 1500, currency: "usd", payment: pay });
  await refreshSessionStatus(db, s.sessionId, "pending");
  return s;
}

const creatorOf = (payee: Payee) => `${payee.uid}@pay.example`;
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

async function everyPage(db: Db, filters: PaymentFilters, pageSize: number) {
  const rows = [];
  let cursor: string | null = null;
  for (let n = 0; n < 100; n++) {
    const page = await listPayments(db, filters, { cursor, pageSize });
    rows.push(...page.rows);
    cursor = page.nextCursor;
    if (!cursor) return rows;
  }
  throw new Error("the pages never ended");
}

function summed(rows: { money: MoneySums[] }[]): MoneySums[] {
  const by = new Map<string, MoneySums>();
  for (const m of rows.flatMap((r) => r.money)) {
    const t = by.get(m.currency) ?? { currency: m.currency, gross: 0, providerFee: 0, platformFee: 0, net: 0 };
    by.set(m.currency, { currency: m.currency, gross: t.gross + m.gross, providerFee: t.providerFee + m.providerFee, platformFee: t.platformFee + m.platformFee, net: t.net + m.net });
  }
  return [...by.values()];
}

describe("reading the filters from the address", () => {
  it("keeps what reads, names what does not, and turns typed amounts into minor units", () => {
    const read = readPaymentFilters(new URLSearchParams({ status: "refunded", creator: " Ana@X.example ", from: "2026-02-30", to: "2026-03-01", min: "12.50", max: "ten", id: "pi_1" }));
    expect(read.filters).toEqual({ ...NO_FILTERS, status: "refunded", creator: "ana@x.example", to: "2026-03-01", minAmount: 1250, providerId: "pi_1" });
    expect(read.problems).toEqual(["From must be a date (YYYY-MM-DD).", "Maximum amount must be an amount like 25 or 25.50."]);
    expect(readPaymentFilters(new URLSearchParams({ status: "everything" })).filters.status).toBeNull();
    expect(readPaymentFilters(new URLSearchParams({ kind: "membership" })).filters.kind).toBe("membership");
    expect(readPaymentFilters(new URLSearchParams({ kind: "gift" })).filters.kind).toBeNull();
  });
});

describe.each(ENGINES)("every payment on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  it("filters by status, creator, page ending, dates, amounts and any provider id", async () => {
    const ana = await seedPayee(db(), sandbox.provider);
    const bo = await seedPayee(db(), sandbox.provider);
    const small = await payment(db(), ana, { amount: 500, created: day("2026-03-01") });
    const refunded = await payment(db(), ana, { amount: 2500, platformFee: 250, created: day("2026-03-05"), refund: true });
    const disputed = await payment(db(), ana, { amount: 9000, created: day("2026-03-09"), dispute: true });
    const pending = await payment(db(), ana, { amount: 1000, created: day("2026-03-10"), settle: false });
    const bos = await payment(db(), bo, { amount: 700, created: day("2026-03-05") });
    const ids = async (f: Partial<PaymentFilters>) => (await listPayments(db(), { ...NO_FILTERS, creator: creatorOf(ana), ...f })).rows.map((r) => r.id);

    expect(await ids({})).toEqual([pending.sessionId, disputed.sessionId, refunded.sessionId, small.sessionId]);
    expect(await ids({ creator: ana.ending })).toEqual(await ids({}));
    expect(await ids({ creator: bo.ending })).toEqual([bos.sessionId]);
    expect(await ids({ status: "refunded" })).toEqual([refunded.sessionId]);
    expect(await ids({ status: "disputed" })).toEqual([disputed.sessionId]);
    expect(await ids({ status: "pending" })).toEqual([pending.sessionId]);
    expect(await ids({ from: "2026-03-05", to: "2026-03-09" })).toEqual([disputed.sessionId, refunded.sessionId]);
    expect(await ids({ minAmount: 1000, maxAmount: 2500 })).toEqual([pending.sessionId, refunded.sessionId]);
    // Every id we hold finds its payment, whoever's it is.
    for (const id of [refunded.sessionId, refunded.checkoutId, refunded.paymentIntentId, `re_${refunded.sessionId}`]) expect(await ids({ creator: null, providerId: id })).toEqual([refunded.sessionId]);
    expect(await ids({ creator: null, providerId: `dp_${disputed.sessionId}` })).toEqual([disputed.sessionId]);
    expect(await ids({ providerId: "pi_nobody" })).toEqual([]);
  });

  it("lists a membership's paid periods with kind membership, filters by kind, and totals them from the ledger", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const tip = await payment(db(), payee, { amount: 2500, created: day("2026-03-20") });
    const membership = await seedMembership(db(), payee, await seedTier(db(), payee), { amount: 700 });
    const periods = [];
    for (const created of [day("2026-03-21"), day("2026-04-21")]) {
      const period = await seedMembershipPeriod(db(), payee, membership, { platformFee: 70 });
      await db().update(sponsorSessions).set({ created }).where(eq(sponsorSessions.id, period.sessionId));
      await recordPayment(db(), { sessionId: period.sessionId, paymentIntentId: period.paymentIntentId, gross: 700, providerFee: 51, platformFee: 70, currency: "usd" });
      await refreshSessionStatus(db(), period.sessionId, "pending");
      periods.push(period);
    }
    const all = await listPayments(db(), { ...NO_FILTERS, creator: creatorOf(payee) });
    expect(all.rows.map((r) => [r.id, r.kind, r.status])).toEqual([
      [periods[1]!.sessionId, "membership", "completed"],
      [periods[0]!.sessionId, "membership", "completed"],
      [tip.sessionId, "tip", "completed"],
    ]);
    const only = { ...NO_FILTERS, creator: creatorOf(payee), kind: "membership" as const };
    expect((await listPayments(db(), only)).rows.map((r) => r.id)).toEqual([periods[1]!.sessionId, periods[0]!.sessionId]);
    expect((await listPayments(db(), { ...only, kind: "tip" })).rows.map((r) => r.id)).toEqual([tip.sessionId]);
    expect(await paymentTotals(db(), only)).toEqual([{ currency: "usd", gross: 1400, providerFee: 102, platformFee: 140, net: 1400 - 140 }]);
  });

  it("totals per currency are the ledger's, to the cent, refunds and disputes taken off", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    await payment(db(), payee, { amount: 2500, platformFee: 250, created: day("2026-04-01") });
    await payment(db(), payee, { amount: 1001, platformFee: 101, created: day("2026-04-02"), refund: true });
    await payment(db(), payee, { amount: 333, platformFee: 33, created: day("2026-04-03"), dispute: true });
    await payment(db(), payee, { amount: 999, created: day("2026-04-04"), settle: false });
    const totals = await paymentTotals(db(), { ...NO_FILTERS, creator: creatorOf(payee) });
    // Paid 2500+1001+333, returned 1001+333; fees 105+60+39 and the dispute fee 1500 stay with the processor; platform keeps 250.
    expect(totals).toEqual([{ currency: "usd", gross: 2500, providerFee: 105 + 60 + 39 + 1500, platformFee: 250, net: 2250 }]);
    expect(await paymentTotals(db(), { ...NO_FILTERS, creator: creatorOf(payee), status: "completed" })).toEqual([{ currency: "usd", gross: 2500, providerFee: 105, platformFee: 250, net: 2250 }]);
    expect(await paymentTotals(db(), { ...NO_FILTERS, creator: creatorOf(payee), status: "pending" })).toEqual([]);
  });

  it("pages by keyset, newest first, with rows created in the same instant kept apart by id", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const same = new Date("2026-05-01T10:00:00.123456Z");
    const made = [];
    for (let n = 0; n < 5; n++) made.push(await payment(db(), payee, { amount: 100 + n, created: same }));
    const later = await payment(db(), payee, { amount: 900, created: day("2026-05-02") });
    const rows = await everyPage(db(), { ...NO_FILTERS, creator: creatorOf(payee) }, 2);
    expect(rows.map((r) => r.id)).toEqual([later.sessionId, ...made.map((m) => m.sessionId).sort().reverse()]);
  });

  it("the totals equal the sum of the rows shown across all pages, whatever the payments and the filter", async () => {
    const payment$ = fc.record({
      amount: fc.integer({ min: 1, max: 500_000 }),
      feePercent: fc.integer({ min: 0, max: 30 }),
      dayOfMonth: fc.integer({ min: 1, max: 28 }),
      fate: fc.constantFrom("paid", "refunded", "disputed", "unpaid"),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(payment$, { minLength: 0, maxLength: 12 }), fc.integer({ min: 1, max: 5 }), fc.constantFrom(null, "completed", "refunded", "disputed"), fc.integer({ min: 0, max: 300_000 }), async (payments, pageSize, status, minAmount) => {
        const payee = await seedPayee(db(), sandbox.provider);
        for (const p of payments) {
          await payment(db(), payee, {
            amount: p.amount,
            platformFee: Math.floor((p.amount * p.feePercent) / 100),
            created: new Date(Date.UTC(2026, 5, p.dayOfMonth, 9)),
            settle: p.fate !== "unpaid",
            refund: p.fate === "refunded",
            dispute: p.fate === "disputed",
          });
        }
        const filters = { ...NO_FILTERS, creator: creatorOf(payee), status: status as PaymentFilters["status"], minAmount };
        const rows = await everyPage(db(), filters, pageSize);
        expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
        expect(rows.length).toBe(payments.filter((p) => p.amount >= minAmount && (status === null || { paid: "completed", refunded: "refunded", disputed: "disputed", unpaid: "pending" }[p.fate] === status)).length);
        expect(await paymentTotals(db(), filters)).toEqual(summed(rows));
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
