import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { sponsorSessions } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { refundSponsorship } from "#server/domains/payments/refunds/refunds";
import { listSponsorSessions, recentActivity, recentSponsors, sponsorPaymentInfo, statusFilterFrom } from "#server/domains/payments/records/sponsor-sessions";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";

describe("statusFilterFrom", () => {
  it("takes completed, pending and refunded; anything else is all (SPEC §2.4)", () => {
    expect(["completed", "pending", "refunded"].map(statusFilterFrom)).toEqual(["completed", "pending", "refunded"]);
    expect([null, "", "all", "COMPLETED", "disputed", "refunded "].map(statusFilterFrom)).toEqual(["all", "all", "all", "all", "all", "all"]);
  });
});

describe.each(ENGINES)("sponsor sessions on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  let payee: Payee;

  /** A session made `minutesAgo` ago, paid through the webhook unless `paid` is false. */
  async function session(minutesAgo: number, { paid = true, amount = 2500, platformFee = 0 } = {}): Promise<SeededSession> {
    const seeded = await seedSession(db(), payee, { amount, platformFee });
    await db().update(sponsorSessions).set({ created: new Date(Date.now() - minutesAgo * 60_000) }).where(eq(sponsorSessions.id, seeded.sessionId));
    if (!paid) return seeded;
    const s = await payAtSandbox(db(), sandbox.provider, payee, seeded);
    await receivePaymentEvent(db(), events.checkout("checkout.completed", s), webhookDeps(db(), sandbox.provider));
    return s;
  }
  const refundConfirmed = (s: SeededSession) => receivePaymentEvent(db(), events.chargeRefunded(s), webhookDeps(db(), sandbox.provider));

  beforeEach(async () => {
    payee = await seedPayee(db(), sandbox.provider);
  });

  it("lists the owner's sessions newest first, filtered by status, a page at a time", async () => {
    const oldest = await session(30);
    const refunded = await session(20);
    const pending = await session(10, { paid: false });
    const newest = await session(1);
    await refundConfirmed(refunded);
    // Someone else's payments never appear.
    const stranger = await seedPayee(db(), sandbox.provider);
    await seedSession(db(), stranger);

    const ids = (list: { sessions: { id: string }[] }) => list.sessions.map((s) => s.id);
    // The default view is money that arrived; checkouts never paid wait under Pending (ADR 0030).
    expect(ids(await listSponsorSessions(db(), payee.uid))).toEqual([newest, refunded, oldest].map((s) => s.sessionId));
    expect(ids(await listSponsorSessions(db(), payee.uid, { status: "completed" }))).toEqual([newest.sessionId, oldest.sessionId]);
    expect(ids(await listSponsorSessions(db(), payee.uid, { status: "pending" }))).toEqual([pending.sessionId]);
    expect(ids(await listSponsorSessions(db(), payee.uid, { status: "refunded" }))).toEqual([refunded.sessionId]);

    const first = await listSponsorSessions(db(), payee.uid, { pageSize: 2 });
    expect(first.hasMore).toBe(true);
    const second = await listSponsorSessions(db(), payee.uid, { pageSize: 2, page: 1 });
    expect(ids(second)).toEqual([oldest.sessionId]);
    expect(second.hasMore).toBe(false);
  });

  it("keeps unpaid checkouts (open, failed, expired) out of the default view and under Pending, disputed payments in it", async () => {
    const open = await session(40, { paid: false });
    const failed = await session(30, { paid: false });
    const expired = await session(20, { paid: false });
    const disputed = await session(10);
    await db().update(sponsorSessions).set({ status: "failed" }).where(eq(sponsorSessions.id, failed.sessionId));
    await db().update(sponsorSessions).set({ status: "expired" }).where(eq(sponsorSessions.id, expired.sessionId));
    await receivePaymentEvent(db(), events.disputeChanged(disputed), webhookDeps(db(), sandbox.provider));

    const ids = (list: { sessions: { id: string }[] }) => list.sessions.map((s) => s.id);
    expect(ids(await listSponsorSessions(db(), payee.uid))).toEqual([disputed.sessionId]);
    expect(ids(await listSponsorSessions(db(), payee.uid, { status: "pending" }))).toEqual([expired, failed, open].map((s) => s.sessionId));
  });

  it("says a refund is pending between the provider's answer and its webhook", async () => {
    const s = await session(5);
    expect((await listSponsorSessions(db(), payee.uid)).sessions[0]).toMatchObject({ status: "completed", refundPending: false, message: "Keep it up!" });
    await refundSponsorship(db(), sandbox.provider, { uid: payee.uid, sessionId: s.sessionId });
    expect((await listSponsorSessions(db(), payee.uid)).sessions[0]).toMatchObject({ status: "completed", refundPending: true });
    await refundConfirmed(s);
    expect((await listSponsorSessions(db(), payee.uid)).sessions[0]).toMatchObject({ status: "refunded", refundPending: false });
  });

  it("shows an empty sponsor email as not given", async () => {
    const s = await session(5);
    await db().update(sponsorSessions).set({ sponsorEmail: "  " }).where(eq(sponsorSessions.id, s.sessionId));
    expect((await listSponsorSessions(db(), payee.uid)).sessions[0]!.sponsorEmail).toBeNull();
  });

  it("the dashboard's recent sponsors are the sessions with money, and its activity the latest ledger movements", async () => {
    const paid = await session(20, { amount: 4000 });
    await session(10, { paid: false });
    const refunded = await session(5, { amount: 1500 });
    await refundConfirmed(refunded);

    expect((await recentSponsors(db(), payee.uid)).map((s) => s.id)).toEqual([refunded.sessionId, paid.sessionId]);
    const activity = await recentActivity(db(), payee.uid);
    expect(activity.map((a) => [a.sessionId, a.kind, a.gross])).toEqual([
      [refunded.sessionId, "refund", -1500],
      [refunded.sessionId, "payment", 1500],
      [paid.sessionId, "payment", 4000],
    ]);
    expect(await recentActivity(db(), (await seedPayee(db(), sandbox.provider)).uid)).toEqual([]);
  });

  it("one payment's info for its owner only, with its entries and totals", async () => {
    const s = await session(5, { amount: 10_000, platformFee: 500 });
    await refundConfirmed(s);
    const found = await sponsorPaymentInfo(db(), payee.uid, s.sessionId);
    if (found.kind !== "SUCCESS") throw new Error(found.message);
    expect(found.info.session).toMatchObject({ id: s.sessionId, status: "refunded", amount: 10_000, paymentIntentId: s.paymentIntentId });
    expect(found.info.entries.map((e) => [e.kind, e.gross, e.platformFee, e.net])).toEqual([
      ["payment", 10_000, 500, 9_500],
      ["refund", -10_000, -500, -9_500],
    ]);
    expect(found.info.entries[0]!.providerFee).toBeGreaterThan(0);
    expect(found.info.totals).toEqual([expect.objectContaining({ currency: "usd", gross: 0, platformFee: 0, net: 0 })]);

    const stranger = await seedPayee(db(), sandbox.provider);
    expect(await sponsorPaymentInfo(db(), stranger.uid, s.sessionId)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await sponsorPaymentInfo(db(), payee.uid, "ss_nothing")).toMatchObject({ kind: "ERROR", code: "not-found" });
  });
});
