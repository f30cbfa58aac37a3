import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { disputes, sponsorSessions, type DisputeStatus } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, seedSession, type Payee } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { disputeQueue, disputeRatioOf, flaggedCreators } from "#server/domains/payments/disputes/dispute-queue";

describe.each(ENGINES)("the dispute queue and the creator flag on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const now = new Date("2026-11-26T12:00:00Z");
  const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);

  /** `payments` paid sessions of the creator, `disputed` of them disputed (opened `openedDaysAgo`). */
  async function creatorWith(payments: number, disputed: number, { openedDaysAgo = 3, status = "needs_response" as DisputeStatus, dueInDays = 5 } = {}): Promise<Payee> {
    const payee = await seedPayee(db(), sandbox.provider);
    const ids: string[] = [];
    for (let i = 0; i < payments; i++) ids.push((await seedSession(db(), payee)).sessionId);
    await db().update(sponsorSessions).set({ status: "completed", created: daysAgo(10) }).where(inArray(sponsorSessions.id, ids));
    for (const sessionId of ids.slice(0, disputed)) {
      await db().insert(disputes).values({
        id: `du_${sessionId}`,
        provider: "sandbox",
        sessionId,
        amount: 2500,
        currency: "usd",
        reason: "fraudulent",
        status,
        evidenceDueBy: new Date(now.getTime() + dueInDays * 86_400_000 + ids.indexOf(sessionId) * 60_000),
        providerFee: 1500,
        openedAt: daysAgo(openedDaysAgo),
        lastEventAt: daysAgo(openedDaysAgo),
      });
    }
    return payee;
  }

  it("flags a creator whose disputes exceed 0.4 % of their payments in 90 days, with at least two disputes", async () => {
    const flagged = await creatorWith(3, 2);
    const single = await creatorWith(2, 1);
    const old = await creatorWith(3, 2, { openedDaysAgo: 120 });
    const clean = await creatorWith(2, 0);
    expect(await disputeRatioOf(db(), flagged.uid, now)).toEqual({ uid: flagged.uid, disputes: 2, payments: 3, ratio: 2 / 3, flagged: true });
    // One dispute is 50 % of two payments, but one chargeback alone does not flag anyone.
    expect(await disputeRatioOf(db(), single.uid, now)).toMatchObject({ disputes: 1, payments: 2, flagged: false });
    // Disputes opened before the window do not count.
    expect(await disputeRatioOf(db(), old.uid, now)).toMatchObject({ disputes: 0, flagged: false });
    expect(await disputeRatioOf(db(), clean.uid, now)).toMatchObject({ disputes: 0, payments: 2, ratio: 0, flagged: false });
    const flags = (await flaggedCreators(db(), now)).map((f) => f.uid);
    expect(flags).toContain(flagged.uid);
    expect(flags).not.toContain(single.uid);
    expect(flags).not.toContain(old.uid);
  });

  it("lists open disputes first by nearest deadline, then closed ones, with the creator and their flag", async () => {
    const later = await creatorWith(1, 1, { dueInDays: 9 });
    const sooner = await creatorWith(3, 2, { dueInDays: 2 });
    const closed = await creatorWith(1, 1, { status: "lost", dueInDays: 1 });
    const queue = (await disputeQueue(db(), now)).filter((d) => [later.uid, sooner.uid, closed.uid].includes(d.creator?.uid ?? ""));
    expect(queue.map((d) => [d.creator!.uid, d.status])).toEqual([
      [sooner.uid, "needs_response"],
      [sooner.uid, "needs_response"],
      [later.uid, "needs_response"],
      [closed.uid, "lost"],
    ]);
    expect(queue[0]!.creatorFlag).toMatchObject({ flagged: true, disputes: 2 });
    expect(queue[2]!.creatorFlag).toBeNull();
    const [row] = await db().select().from(disputes).where(eq(disputes.id, queue[0]!.id));
    expect(queue[0]).toMatchObject({ sessionId: row!.sessionId, amount: 2500, providerFee: 1500 });
  });
});
