import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contentReports, deals, disputes, ledgerEntries, opportunityPosts, sponsorSessions } from "#server/platform/db/schema";
import { recordDealRelease } from "#server/domains/payments/ledger/deal-ledger";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { fundedDeal } from "#tests/support/deals";
import { seedOption, seedPayee, seedSession } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { accountMoney } from "./account-money";
import { accountOverview } from "./account-overview";
import { openReportsOnAccount } from "./account-reports";

describe.each(ENGINES)("the back office's account page readers on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  it("has no money, no disputes and no reports for a new account", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    expect(await accountOverview(db(), payee.uid, new Date())).toEqual({
      money: [],
      disputes: { windowDays: 90, disputes: 0, payments: 0, ratio: 0, flagged: false },
      reports: [],
      memberships: { asCreator: { counts: { pending: 0, active: 0, past_due: 0, cancelled: 0, ended: 0, expired: 0 }, mrr: [] }, asMember: [] },
    });
  });

  it("sums tips received, refunded and disputed, deals held and released, fees and what was paid out, per currency", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const other = await seedPayee(db(), sandbox.provider);
    // Three tips of 25.00 with a 2.50 fee: one kept, one refunded, one disputed and lost.
    const tips = [await seedSession(db(), payee), await seedSession(db(), payee), await seedSession(db(), payee)];
    const row = (sessionId: string, kind: "payment" | "refund" | "dispute", sign: 1 | -1, n: number) => ({
      sessionId,
      kind,
      gross: sign * 2500,
      providerFee: 100,
      platformFee: sign * 250,
      net: sign * 2250,
      currency: "usd",
      providerReference: `ref_${kind}_${sessionId}_${n}`,
    });
    await db().insert(ledgerEntries).values([
      ...tips.map((tip, n) => row(tip.sessionId, "payment", 1, n)),
      row(tips[1]!.sessionId, "refund", -1, 1),
      row(tips[2]!.sessionId, "dispute", -1, 2),
    ]);
    // Another creator's tip is not theirs.
    const theirs = await seedSession(db(), other);
    await db().insert(ledgerEntries).values(row(theirs.sessionId, "payment", 1, 9));

    // A deal of 300.00 still booked (held), and one of 100.00 released: 90.00 to them, 10.00 kept.
    await fundedDeal(db(), sandbox.provider, payee, 30_000);
    const released = await fundedDeal(db(), sandbox.provider, payee, 10_000);
    await recordDealRelease(db(), { fundingId: released.fundingId, transferId: `tr_${released.fundingId}`, amount: 9_000, currency: "usd" });
    await db().update(deals).set({ state: "completed" }).where(eq(deals.id, released.dealId));

    expect(await accountMoney(db(), payee.uid)).toEqual([
      { currency: "usd", received: 7_500 + 40_000, refunded: 5_000, net: 2_500 + 40_000, heldInDeals: 30_000, platformFees: 250 + 1_000, paidOut: 2_250 + 9_000 },
    ]);
    expect(await accountMoney(db(), other.uid)).toEqual([{ currency: "usd", received: 2_500, refunded: 0, net: 2_500, heldInDeals: 0, platformFees: 250, paidOut: 2_250 }]);
  });

  it("says the dispute ratio over the last 90 days with its counts", async () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const payee = await seedPayee(db(), sandbox.provider);
    const sessions = [await seedSession(db(), payee), await seedSession(db(), payee), await seedSession(db(), payee), await seedSession(db(), payee)];
    await db().update(sponsorSessions).set({ status: "completed", created: new Date("2026-11-01T00:00:00Z") }).where(inArray(sponsorSessions.id, sessions.map((s) => s.sessionId)));
    await db().insert(disputes).values({
      id: `du_${sessions[0]!.sessionId}`,
      provider: "sandbox",
      sessionId: sessions[0]!.sessionId,
      amount: 2500,
      currency: "usd",
      reason: "fraudulent",
      status: "needs_response",
      evidenceDueBy: new Date("2026-12-01T00:00:00Z"),
      providerFee: 1500,
      openedAt: new Date("2026-11-20T00:00:00Z"),
      lastEventAt: new Date("2026-11-20T00:00:00Z"),
    });
    expect((await accountOverview(db(), payee.uid, now)).disputes).toEqual({ windowDays: 90, disputes: 1, payments: 4, ratio: 0.25, flagged: false });
  });

  it("lists the account's items with open reports, oldest first, and none of another's or resolved ones", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const other = await seedPayee(db(), sandbox.provider);
    const postId = await seedOption(db(), payee, 100);
    await db().update(opportunityPosts).set({ title: "Reported post" }).where(eq(opportunityPosts.id, postId));
    await db().insert(contentReports).values([
      { targetType: "bio_page", targetId: payee.pageId, reason: "Spam", reporterKey: "a", createdAt: new Date("2026-11-21T08:00:00Z") },
      { targetType: "bio_page", targetId: payee.pageId, reason: "Scams", reporterKey: "b", createdAt: new Date("2026-11-22T08:00:00Z") },
      { targetType: "bio_page", targetId: payee.pageId, reason: "Hate", reporterKey: "c", status: "dismissed", createdAt: new Date("2026-11-01T08:00:00Z") },
      { targetType: "opportunity", targetId: postId, reason: "Spam", reporterKey: "a", createdAt: new Date("2026-11-20T08:00:00Z") },
      { targetType: "bio_page", targetId: other.pageId, reason: "Spam", reporterKey: "a", createdAt: new Date("2026-11-19T08:00:00Z") },
    ]);
    expect(await openReportsOnAccount(db(), payee.uid)).toEqual([
      { type: "opportunity", id: postId, title: "Reported post", reports: 1, reasons: ["Spam"], oldest: new Date("2026-11-20T08:00:00Z") },
      { type: "bio_page", id: payee.pageId, title: `Page of ${payee.uid}`, reports: 2, reasons: ["Scams", "Spam"], oldest: new Date("2026-11-21T08:00:00Z") },
    ]);
  });
});
