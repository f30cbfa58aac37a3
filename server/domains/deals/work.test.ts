import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agreedDeal, payForDeal } from "#tests/support/deals";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { testSandbox, withOutage } from "#tests/support/test-sandbox";
import { connectedAccounts, dealActivity, ledgerEntries, notifications, opportunityPosts } from "#server/platform/db/schema";
import { sandboxTransfers } from "#server/providers/payments/sandbox/schema";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { readDeal } from "./read";
import { releaseDeal, releaseDueDeals } from "./release";
import { autoApproveDue, reviewDeliverable, submitDeliverable } from "./work";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;
const DAY = 86_400_000;

describe.each(ENGINES)("the work on a booked deal, and paying the creator, on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const deps = () => notificationDeps(db());
  let briefs: string[];
  const people = (brief: number) => ({ creator, sponsor, brief: briefs[brief]! });
  const submit = (uid: string, dealId: string, deliverable: number, liveUrl = "https://youtu.be/abc123", now = new Date()) =>
    submitDeliverable(db(), deps(), { uid, dealId, deliverable, liveUrl, note: "" }, now);
  const changes = (dealId: string, deliverable: number, note: string) => reviewDeliverable(db(), deps(), { uid: sponsor, dealId, deliverable, review: { verdict: "changes", note } });
  const approve = (dealId: string, deliverable: number) => reviewDeliverable(db(), deps(), { uid: sponsor, dealId, deliverable, review: { verdict: "approve" } });
  const moneyOf = async (fundingId: string) =>
    (await db().select().from(ledgerEntries).where(eq(ledgerEntries.fundingId, fundingId)).orderBy(asc(ledgerEntries.created))).map((e) => [e.kind, e.gross, e.platformFee, e.net]);

  beforeAll(async () => {
    // The demo creator with a complete payout account at the sandbox: what a release transfers to.
    await seedDatabase(db(), { payoutAccount: sandboxDemoPayoutAccount });
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
    expect(briefs.length).toBeGreaterThanOrEqual(3);
  });

  it("takes each deliverable through review rounds and the approval window, then pays the creator's share once", async () => {
    const dealId = await agreedDeal(db(), people(0), {
      price: "1000",
      deliverableChannel: ["YouTube", "Instagram"],
      deliverableFormat: ["A review", "A story"],
      deliverableDue: ["2099-03-01", "2099-03-08"],
    });
    expect(await submit(creator, dealId, 0)).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
    const { fundingId } = await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);

    expect(await submit(creator, dealId, 0, "youtu.be/abc")).toMatchObject({ kind: "ERROR", fieldErrors: { liveUrl: "Enter the address where it is live, starting with https://" } });
    expect(await submit(sponsor, dealId, 0)).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await submit(stranger, dealId, 0)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await submit(creator, dealId, 2)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await submit(creator, dealId, 0)).toMatchObject({ kind: "SUCCESS", round: 1, state: "submitted" });
    expect(await submit(creator, dealId, 0)).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });

    // Two rounds of changes, then only approval is left.
    expect(await changes(dealId, 0, "  ")).toMatchObject({ kind: "ERROR", fieldErrors: { note: "Say what should change" } });
    expect(await reviewDeliverable(db(), deps(), { uid: creator, dealId, deliverable: 0, review: { verdict: "approve" } })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await changes(dealId, 0, "Please show the logo in the first minute.")).toMatchObject({ kind: "SUCCESS" });
    expect(await submit(creator, dealId, 0, "https://youtu.be/v2")).toMatchObject({ kind: "SUCCESS", round: 2 });
    expect(await changes(dealId, 0, "And say the discount code.")).toMatchObject({ kind: "SUCCESS" });
    expect(await submit(creator, dealId, 0, "https://youtu.be/v3")).toMatchObject({ kind: "SUCCESS", round: 3 });
    expect(await changes(dealId, 0, "One more thing.")).toMatchObject({ kind: "ERROR", reason: "NO_ROUNDS_LEFT" });
    expect(await approve(dealId, 0)).toMatchObject({ kind: "SUCCESS" });
    const told = await db().select().from(notifications).where(and(eq(notifications.uid, creator), eq(notifications.title, "Changes asked")));
    expect(told).toHaveLength(2);

    // One deliverable still to do: nothing is paid.
    expect(await releaseDeal(db(), sandbox.provider, deps(), dealId)).toBe("NOT_DUE");
    const handedIn = new Date();
    expect(await submit(creator, dealId, 1, "https://instagram.com/s/1", handedIn)).toMatchObject({ kind: "SUCCESS", state: "submitted" });
    const waiting = (await readDeal(db(), sponsor, dealId))!.view.work!;
    expect(waiting.map((w) => [w.format, w.submissions.at(-1)?.state, w.changeRoundsLeft])).toEqual([
      ["A review", "approved", 0],
      ["A story", "submitted", 2],
    ]);
    expect(waiting[1]!.submissions[0]!.autoApproveAt).toBe(new Date(handedIn.getTime() + 3 * DAY).toISOString());

    // The sponsor says nothing: the window approves it, and the sweep pays the creator.
    expect(await autoApproveDue(db(), deps(), new Date(handedIn.getTime() + 2 * DAY))).toEqual([]);
    expect(await autoApproveDue(db(), deps(), new Date(handedIn.getTime() + 3 * DAY + 1000))).toEqual([dealId]);
    expect(await releaseDueDeals(db(), sandbox.provider, deps())).toMatchObject({ released: 1, failed: 0 });
    expect(await releaseDueDeals(db(), sandbox.provider, deps())).toMatchObject({ released: 0, failed: 0 });
    expect(await releaseDeal(db(), sandbox.provider, deps(), dealId)).toBe("NOT_DUE");

    const [account] = await db().select().from(connectedAccounts).where(eq(connectedAccounts.uid, creator));
    const transfers = await db().select().from(sandboxTransfers).where(eq(sandboxTransfers.transferGroup, `deal_${dealId}`));
    expect(transfers.map((t) => [t.accountId, t.amount, t.currency])).toEqual([[account!.providerAccountId, 90_000, "usd"]]);
    // Held, then released: summed, the rows read as a tip's payment (gross, the platform's fee, the creator's net).
    expect(await moneyOf(fundingId)).toEqual([
      ["deal_payment", 100_000, 100_000, 0],
      ["deal_release", 0, -90_000, 90_000],
    ]);
    const done = (await readDeal(db(), creator, dealId))?.view;
    expect(done).toMatchObject({ state: "completed", release: { amount: 90_000, currency: "usd" } });
    expect(done!.work![1]!.submissions[0]).toMatchObject({ state: "approved", approvedBySilence: true });
    const activity = await db().select().from(dealActivity).where(eq(dealActivity.dealId, dealId)).orderBy(asc(dealActivity.seq));
    expect(activity.map((a) => a.action)).toEqual(["application", "accept", "fund", "complete"]);
    const complete = await db().select().from(notifications).where(eq(notifications.title, "Deal complete"));
    expect(complete.filter((n) => n.message.includes(done!.title)).map((n) => n.uid).sort()).toEqual([creator, sponsor].sort());
  });

  it("approves work as it is handed in when the sponsor does not review first, and retries a transfer that failed", async () => {
    const dealId = await agreedDeal(db(), people(1), { price: "200", sponsorApproves: false });
    const { fundingId } = await payForDeal(db(), sandbox.provider, sponsor, dealId, 0);
    expect(await submit(creator, dealId, 0)).toMatchObject({ kind: "SUCCESS", state: "approved" });
    expect(await approve(dealId, 0)).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });

    const { provider, down } = withOutage(sandbox.provider);
    down.add("createTransfer");
    const failed: string[] = [];
    expect(await releaseDueDeals(db(), provider, deps(), new Date(), (id) => failed.push(id))).toMatchObject({ released: 0, failed: 1 });
    expect(failed).toEqual([dealId]);
    expect((await readDeal(db(), sponsor, dealId))!.view.state).toBe("funded");
    down.clear();
    expect(await releaseDeal(db(), provider, deps(), dealId)).toBe("RELEASED");
    expect(await moneyOf(fundingId)).toEqual([
      ["deal_payment", 20_000, 20_000, 0],
      ["deal_release", 0, -20_000, 20_000],
    ]);
  });
});
