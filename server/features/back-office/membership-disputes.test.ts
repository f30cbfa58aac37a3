import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledgerEntries, sponsorSessions } from "#server/platform/db/schema";
import { recordPayment, refreshSessionStatus } from "#server/domains/payments/ledger/ledger";
import { disputeQueue } from "#server/domains/payments/disputes/dispute-queue";
import { listPayments, NO_FILTERS } from "#server/domains/payments/records/all-payments";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, seedPayee, webhookDeps } from "#tests/support/payments";
import { seedMembership, seedMembershipPeriod, seedTier } from "#tests/support/office-memberships";
import { testSandbox } from "#tests/support/test-sandbox";

/**
 * A chargeback on a membership's paid period reaches staff as one on a tip does: the period is a
 * sponsor session with its own payment intent, so the provider's dispute event finds it, the
 * ledger takes the money back, and the disputes queue lists it with its creator.
 */
describe.each(ENGINES)("a dispute on a membership's paid period on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  it("is in the disputes queue with its creator, and its period is disputed in every payment", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const membership = await seedMembership(db(), payee, await seedTier(db(), payee), { amount: 800 });
    const period = await seedMembershipPeriod(db(), payee, membership, { platformFee: 80 });
    await recordPayment(db(), { sessionId: period.sessionId, paymentIntentId: period.paymentIntentId, gross: 800, providerFee: 53, platformFee: 80, currency: "usd" });
    await refreshSessionStatus(db(), period.sessionId, "pending");

    const opened = events.disputeChanged({ paymentIntentId: period.paymentIntentId, amount: 800 });
    expect(await receivePaymentEvent(db(), opened, webhookDeps(db(), sandbox.provider))).toMatchObject({ kind: "SUCCESS" });

    const queued = (await disputeQueue(db())).find((d) => d.sessionId === period.sessionId);
    expect(queued).toMatchObject({ status: "needs_response", amount: 800, currency: "usd", reason: "fraudulent", creator: { uid: payee.uid } });
    const [session] = await db().select({ status: sponsorSessions.status, kind: sponsorSessions.kind }).from(sponsorSessions).where(eq(sponsorSessions.id, period.sessionId));
    expect(session).toEqual({ status: "disputed", kind: "membership" });
    const rows = await db().select({ kind: ledgerEntries.kind, gross: ledgerEntries.gross }).from(ledgerEntries).where(eq(ledgerEntries.sessionId, period.sessionId));
    expect(rows.map((r) => [r.kind, r.gross]).sort()).toEqual([
      ["dispute", -800],
      ["payment", 800],
    ]);
    const listed = await listPayments(db(), { ...NO_FILTERS, kind: "membership", status: "disputed", providerId: opened.type === "dispute.changed" ? opened.disputeId : null });
    expect(listed.rows.map((r) => r.id)).toEqual([period.sessionId]);
  });
});
