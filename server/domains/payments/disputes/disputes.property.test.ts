import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { disputes, ledgerEntries, notifications, sponsorSessions } from "#server/platform/db/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { propertyRuns } from "#tests/support/property-runs";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { mergeDispute, nextStatus } from "#server/domains/payments/disputes/disputes";

/**
 * A dispute's reports (created, updated, closed won or lost) in any order,
 * any of them delivered again (the same event, or another event with the
 * same dispute as Stripe's funds_withdrawn repeats it), sequentially or all
 * at once: the disputes row and the ledger end the same as the model says.
 */
const OUTCOMES = ["open", "won", "lost"] as const;
type Outcome = (typeof OUTCOMES)[number];
const RUNS = propertyRuns({ quick: 20, deep: 200 });

const scenario = fc.record({
  outcome: fc.constantFrom(...OUTCOMES),
  // Extra deliveries: which report, and whether the same event again or a new event with the same dispute.
  extra: fc.array(fc.record({ of: fc.nat(2), sameEvent: fc.boolean() }), { maxLength: 3 }),
  order: fc.array(fc.nat(1_000), { minLength: 6, maxLength: 6 }),
  concurrent: fc.boolean(),
});

describe("nextStatus", () => {
  it("moves forward only and never out of won or lost", () => {
    expect(nextStatus("under_review", "needs_response")).toBe("under_review");
    expect(nextStatus("needs_response", "lost")).toBe("lost");
    expect(nextStatus("won", "lost")).toBe("won");
    expect(nextStatus("lost", "under_review")).toBe("lost");
  });
});

describe.each(ENGINES)("disputes converge on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  async function run(outcome: Outcome, extra: { of: number; sameEvent: boolean }[], order: number[], concurrent: boolean) {
    const payee = await seedPayee(db(), sandbox.provider);
    const s = await payAtSandbox(db(), sandbox.provider, payee, await seedSession(db(), payee, { amount: 2500, platformFee: 250 }));
    const deps = webhookDeps(db(), sandbox.provider);
    await receivePaymentEvent(db(), events.checkout("checkout.completed", s), deps);
    const t0 = Date.parse("2026-11-26T10:00:00Z");
    const reports: PaymentEvent[] = [
      events.disputeChanged(s, "needs_response", undefined, new Date(t0)),
      events.disputeChanged(s, "under_review", undefined, new Date(t0 + 60_000)),
    ];
    if (outcome !== "open") reports.push(events.disputeChanged(s, outcome, undefined, new Date(t0 + 120_000)));
    const deliveries = [
      ...reports,
      ...extra.filter((e) => e.of < reports.length).map((e, i) => (e.sameEvent ? reports[e.of]! : { ...reports[e.of]!, eventId: `${reports[e.of]!.eventId}_again${i}` })),
    ];
    const shuffled = deliveries.map((event, i) => ({ event, key: order[i] ?? i })).sort((a, b) => a.key - b.key).map((d) => d.event);
    if (concurrent) await Promise.all(shuffled.map((event) => receivePaymentEvent(db(), event, deps)));
    else for (const event of shuffled) await receivePaymentEvent(db(), event, deps);

    const [row] = await db().select().from(disputes).where(eq(disputes.sessionId, s.sessionId));
    expect(row).toMatchObject({
      status: outcome === "open" ? "under_review" : outcome,
      amount: 2500,
      currency: "usd",
      providerFee: 1500,
      reason: "fraudulent",
      evidenceDueBy: new Date("2026-12-03T23:59:59Z"),
      openedAt: new Date(t0),
      closedAt: outcome === "open" ? null : new Date(t0 + 120_000),
    });
    const ledger = await db()
      .select({ kind: ledgerEntries.kind, gross: ledgerEntries.gross, providerFee: ledgerEntries.providerFee, platformFee: ledgerEntries.platformFee, net: ledgerEntries.net, ref: ledgerEntries.providerReference })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.sessionId, s.sessionId));
    const disputeId = row!.id;
    const expected = [{ kind: "dispute", gross: -2500, providerFee: 1500, platformFee: -250, net: -2250, ref: disputeId }];
    if (outcome === "won") expected.push({ kind: "dispute_reversal", gross: 2500, providerFee: 0, platformFee: 250, net: 2250, ref: disputeId });
    expect(ledger.filter((e) => e.kind !== "payment").sort((a, b) => a.kind.localeCompare(b.kind))).toEqual(expected);
    const [session] = await db().select({ status: sponsorSessions.status }).from(sponsorSessions).where(eq(sponsorSessions.id, s.sessionId));
    expect(session!.status).toBe(outcome === "won" ? "completed" : "disputed");
    const told = (kind: string) => db().select().from(notifications).where(and(eq(notifications.uid, payee.uid), eq(notifications.kind, kind)));
    // Opened is told when the dispute is first heard of open (not when the first report is already the outcome); the outcome once.
    const firstHeardClosed = shuffled[0]!.type === "dispute.changed" && (shuffled[0]!.status === "won" || shuffled[0]!.status === "lost");
    if (!concurrent) expect(await told("dispute-opened")).toHaveLength(firstHeardClosed ? 0 : 1);
    else expect((await told("dispute-opened")).length).toBeLessThanOrEqual(1);
    expect(await told("dispute-closed")).toHaveLength(outcome === "open" ? 0 : 1);
  }

  it("every order and duplication of created/updated/closed ends in the same row, ledger and notices", { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ outcome, extra, order, concurrent }) => run(outcome, extra, order, concurrent)),
      { numRuns: RUNS },
    );
  });

  it("the merge alone is order-independent", () => {
    const row = { status: "needs_response" as const, amount: 1, currency: "usd", reason: "general", evidenceDueBy: null, providerFee: 0, openedAt: new Date(5), closedAt: null, lastEventAt: new Date(5) };
    const merged = mergeDispute({ ...row, id: "du", provider: "sandbox", sessionId: "s", created: new Date(), updatedAt: new Date() }, {
      provider: "sandbox", eventId: "e", occurredAt: new Date(3), type: "dispute.changed", disputeId: "du", paymentIntentId: "pi", chargeId: "ch", reason: "fraudulent", status: "lost", evidenceDueBy: new Date(9), fee: 1500, amount: 2, currency: "usd",
    });
    // An older report still closes it and brings the fee and the deadline; its amount and reason are older than what we have.
    expect(merged).toMatchObject({ status: "lost", amount: 1, reason: "general", providerFee: 1500, evidenceDueBy: new Date(9), openedAt: new Date(3), closedAt: new Date(3) });
  });
});
