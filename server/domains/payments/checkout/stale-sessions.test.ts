import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { sponsorSessions, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, seedSession, type Payee } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { paymentsMadeBy } from "#server/domains/payments/records/payments-overview";
import { listSponsorSessions, sponsorPaymentInfo } from "#server/domains/payments/records/sponsor-sessions";
import { expireAllStalePendingSessions, expireStalePendingSessions, LONGEST_CHECKOUT_LIFETIME_MS } from "#server/domains/payments/checkout/stale-sessions";

/** A pending session whose checkout has closed reads as expired, event or not. */
describe.each(ENGINES)("stale pending sponsor sessions on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let payee: Payee;
  const HOUR = 3_600_000;

  const pending = async (set: Partial<typeof sponsorSessions.$inferInsert>) => {
    const s = await seedSession(db(), payee);
    await db().update(sponsorSessions).set(set).where(eq(sponsorSessions.id, s.sessionId));
    return s.sessionId;
  };
  const statusOf = async (id: string) => (await db().select({ status: sponsorSessions.status }).from(sponsorSessions).where(eq(sponsorSessions.id, id)))[0]!.status;

  beforeEach(async () => {
    payee = await seedPayee(db(), sandbox.provider);
  });

  it("expires only unfinished pending checkouts past their expiry (or past the longest lifetime when it is unknown)", async () => {
    const now = new Date();
    const closed = await pending({ expiresAt: new Date(now.getTime() - 1000) });
    const open = await pending({ expiresAt: new Date(now.getTime() + HOUR) });
    const unknownOld = await pending({ expiresAt: null, created: new Date(now.getTime() - LONGEST_CHECKOUT_LIFETIME_MS - 1000) });
    const unknownRecent = await pending({ expiresAt: null, created: new Date(now.getTime() - HOUR) });
    // Completed with a delayed method: its own events settle it.
    const delayed = await pending({ expiresAt: new Date(now.getTime() - 1000), paymentIntentId: `pi_delayed_${engine}_${Date.now()}` });
    const paid = await pending({ expiresAt: new Date(now.getTime() - 1000), status: "completed" });
    expect(await expireStalePendingSessions(db(), { posterUid: payee.uid }, now)).toBe(2);
    expect(await Promise.all([closed, open, unknownOld, unknownRecent, delayed, paid].map(statusOf))).toEqual([
      "expired", "pending", "expired", "pending", "pending", "completed",
    ]);
    expect(await expireStalePendingSessions(db(), { posterUid: payee.uid }, now)).toBe(0);
  });

  it("the owner's list and payment info, and the sponsor's My Payments, never show a closed checkout as pending", async () => {
    const past = new Date(Date.now() - 1000);
    const listed = await pending({ expiresAt: past });
    // Unpaid checkouts wait under the Pending filter (ADR 0030), and a closed one reads as expired there.
    expect((await listSponsorSessions(db(), payee.uid, { status: "pending" })).sessions.find((s) => s.id === listed)?.status).toBe("expired");
    expect((await listSponsorSessions(db(), payee.uid)).sessions.find((s) => s.id === listed)).toBeUndefined();

    const info = await pending({ expiresAt: past });
    expect(await sponsorPaymentInfo(db(), payee.uid, info)).toMatchObject({ kind: "SUCCESS", info: { session: { status: "expired" } } });

    const sponsorUid = `sponsor_${payee.uid}`;
    await db().insert(user).values({ id: sponsorUid, name: "S", email: `${sponsorUid}@s.example` });
    const made = await pending({ expiresAt: past, sponsorUid });
    expect((await paymentsMadeBy(db(), sponsorUid)).find((p) => p.id === made)?.status).toBe("expired");
  });

  it("the background job expires everyone's closed checkouts in batches, and only those", async () => {
    const other = await seedPayee(db(), sandbox.provider);
    const now = new Date();
    const closedHere = await pending({ expiresAt: new Date(now.getTime() - 1000) });
    const open = await pending({ expiresAt: new Date(now.getTime() + HOUR) });
    const s = await seedSession(db(), other);
    await db().update(sponsorSessions).set({ expiresAt: new Date(now.getTime() - 1000) }).where(eq(sponsorSessions.id, s.sessionId));
    const moreClosed = await Promise.all([1, 2, 3].map(() => pending({ expiresAt: new Date(now.getTime() - 1000) })));
    // A batch of 2 takes three rounds for five rows; a second run finds nothing left.
    expect(await expireAllStalePendingSessions(db(), now, 2)).toBe(5);
    expect(await Promise.all([closedHere, s.sessionId, ...moreClosed, open].map(statusOf))).toEqual(["expired", "expired", "expired", "expired", "expired", "pending"]);
    expect(await expireAllStalePendingSessions(db(), now, 2)).toBe(0);
  });
});
