import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { recordDealRelease } from "#server/domains/payments/ledger/deal-ledger";
import { deals, disputes, ledgerEntries, paymentEvents, refundRequests, sponsorSessions } from "#server/platform/db/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { fundedDeal, storedSandboxEvents, type FundedDeal } from "#tests/support/deals";
import { events, seedPayee, webhookDeps, type Payee } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { receivePaymentEvent } from "./intake";

/** What was logged at error level, as objects. */
function errorLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: "error" }, stream) };
}

describe.each(ENGINES)("refunds and disputes of a deal's held charge on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let payee: Payee;
  let deal: FundedDeal;
  let log: ReturnType<typeof errorLog>;
  const deliver = (event: PaymentEvent) => receivePaymentEvent(db(), event, { ...webhookDeps(db(), sandbox.provider), logger: log.logger });
  const dealRows = async () =>
    (await db().select().from(ledgerEntries).where(eq(ledgerEntries.fundingId, deal.fundingId))).map((e) => [e.kind, e.gross, e.providerFee, e.platformFee, e.net, e.providerReference]);
  const refundRows = async () => (await dealRows()).filter(([kind]) => kind === "deal_refund");
  /** The two events the sandbox stored for one refund of the held charge, which brought the charge's refunds to `refundedSoFar`. */
  const eventsOfRefund = async (refundId: string, refundedSoFar: number) => {
    const [updated] = await storedSandboxEvents(db(), "refund.updated", "refundId", refundId);
    const refunded = (await storedSandboxEvents(db(), "charge.refunded", "paymentIntentId", deal.paymentIntentId)).find((e) => e.type === "charge.refunded" && e.amountRefunded === refundedSoFar);
    return { refunded: refunded!, updated: updated! };
  };
  const nothingForTips = async () => {
    expect(await db().select().from(sponsorSessions).where(eq(sponsorSessions.paymentIntentId, deal.paymentIntentId))).toEqual([]);
    expect(await db().select().from(refundRequests)).toEqual([]);
    expect(await db().select().from(disputes)).toEqual([]);
    expect(await db().select().from(ledgerEntries).where(eq(ledgerEntries.providerReference, deal.paymentIntentId))).toEqual([expect.objectContaining({ kind: "deal_payment" })]);
  };

  beforeEach(async () => {
    log = errorLog();
    payee = await seedPayee(db(), sandbox.provider);
    deal = await fundedDeal(db(), sandbox.provider, payee, 10_000);
  });

  it("writes one deal_refund per refund id, whichever event comes first and however often, a partial refund being one of several", async () => {
    const first = await sandbox.provider.refundHeldPayment({ idempotencyKey: `deal_refund_1_${deal.fundingId}`, paymentIntentId: deal.paymentIntentId, amount: 3_000 });
    const one = await eventsOfRefund(first.refundId, 3_000);
    // charge.refunded first (it names no refund: the provider's refunds are read), then refund.updated, each twice.
    for (const event of [one.refunded, one.refunded, one.updated, one.updated]) expect(await deliver(event)).toMatchObject({ kind: "SUCCESS" });
    expect(await refundRows()).toEqual([["deal_refund", -3_000, 0, -3_000, 0, first.refundId]]);

    const second = await sandbox.provider.refundHeldPayment({ idempotencyKey: `deal_refund_2_${deal.fundingId}`, paymentIntentId: deal.paymentIntentId, amount: 2_000 });
    const two = await eventsOfRefund(second.refundId, 5_000);
    expect(two.refunded).toMatchObject({ type: "charge.refunded", amountRefunded: 5_000 });
    // This time refund.updated first, then charge.refunded, each twice, and the first refund's events again.
    for (const event of [two.updated, two.updated, two.refunded, two.refunded, one.refunded, one.updated]) expect(await deliver(event)).toMatchObject({ kind: "SUCCESS" });
    // A fresh report of the whole charge (a new event id) finds both written.
    expect(await deliver({ ...two.refunded, eventId: `${two.refunded.eventId}_again` })).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect((await refundRows()).sort()).toEqual(
      [
        ["deal_refund", -3_000, 0, -3_000, 0, first.refundId],
        ["deal_refund", -2_000, 0, -2_000, 0, second.refundId],
      ].sort(),
    );
    const stored = await db().select().from(paymentEvents).where(eq(paymentEvents.eventId, two.refunded.eventId));
    expect(stored[0]!.handledAt).not.toBeNull();
    expect(log.lines).toEqual([]);
    await nothingForTips();
  });

  it("a refund or dispute reported before the deal's payment waits for the provider's retry, then goes to the deal", async () => {
    const early = await fundedDeal(db(), sandbox.provider, payee, 4_000, { settle: false });
    const { refundId } = await sandbox.provider.refundHeldPayment({ idempotencyKey: `deal_refund_${early.fundingId}`, paymentIntentId: early.paymentIntentId, amount: 4_000 });
    const [refunded] = await storedSandboxEvents(db(), "charge.refunded", "paymentIntentId", early.paymentIntentId);
    const [updated] = await storedSandboxEvents(db(), "refund.updated", "refundId", refundId);
    const dispute = events.disputeChanged({ paymentIntentId: early.paymentIntentId, amount: 4_000 }, "needs_response", `dp_${early.fundingId}`);
    // Nothing names this payment intent yet (no funding paid, no session): not handled, so delivered again.
    for (const event of [refunded!, updated!, dispute]) expect(await deliver(event)).toMatchObject({ kind: "ERROR", reason: "NOT_HANDLED_YET" });
    expect(await deliver(early.completed)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    for (const event of [updated!, refunded!, dispute]) expect(await deliver(event)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    const rows = await db().select().from(ledgerEntries).where(eq(ledgerEntries.fundingId, early.fundingId));
    expect(rows.map((e) => [e.kind, e.gross, e.platformFee, e.providerReference]).sort()).toEqual(
      [
        ["deal_payment", 4_000, 4_000, early.paymentIntentId],
        ["deal_refund", -4_000, -4_000, refundId],
      ].sort(),
    );
    expect(log.lines).toEqual([expect.objectContaining({ dealId: early.dealId, disputeId: `dp_${early.fundingId}` })]);
  });

  it("writes nothing for a pending or failed refund, nor more refunded and released than was paid", async () => {
    const refund = (status: "pending" | "failed" | "succeeded", refundId: string, amount: number): PaymentEvent => ({
      ...events.refundUpdated({ sessionId: "", checkoutId: "", paymentIntentId: deal.paymentIntentId, amount, platformFee: 0 }, status, refundId),
    });
    expect(await deliver(refund("pending", "re_pending", 4_000))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await deliver(refund("failed", "re_pending", 4_000))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await refundRows()).toEqual([]);

    // Half released to the creator: what is left to refund is the other half.
    await recordDealRelease(db(), { fundingId: deal.fundingId, transferId: `tr_${deal.fundingId}`, amount: 5_000, currency: "usd" });
    expect(await deliver(refund("succeeded", "re_too_much", 5_001))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await refundRows()).toEqual([]);
    expect(log.lines).toEqual([expect.objectContaining({ dealId: deal.dealId, fundingId: deal.fundingId, refundId: "re_too_much", outcome: "MORE_THAN_PAID" })]);
    expect(await deliver(refund("succeeded", "re_rest", 5_000))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await refundRows()).toEqual([["deal_refund", -5_000, 0, -5_000, 0, "re_rest"]]);
    await nothingForTips();
  });

  it("freezes the deal on a card dispute of its held charge, logs it with the deal for staff, and writes no money", async () => {
    const s = { paymentIntentId: deal.paymentIntentId, amount: deal.amount };
    for (const status of ["needs_response", "lost"] as const) {
      const dispute = events.disputeChanged(s, status, `dp_${deal.fundingId}`);
      expect(await deliver(dispute)).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
      expect(await deliver(dispute)).toMatchObject({ kind: "SUCCESS", outcome: "ALREADY_HANDLED" });
    }
    expect(log.lines).toEqual([
      expect.objectContaining({ level: 50, dealId: deal.dealId, fundingId: deal.fundingId, disputeId: `dp_${deal.fundingId}`, status: "needs_response", frozen: true }),
      // Frozen once: the bank's later word changes nothing staff have not decided.
      expect.objectContaining({ level: 50, dealId: deal.dealId, status: "lost", frozen: false }),
    ]);
    const [frozen] = await db().select({ state: deals.state }).from(deals).where(eq(deals.id, deal.dealId));
    expect(frozen!.state).toBe("disputed");
    expect(await dealRows()).toEqual([["deal_payment", 10_000, expect.any(Number), 10_000, 0, deal.paymentIntentId]]);
    await nothingForTips();
  });
});
