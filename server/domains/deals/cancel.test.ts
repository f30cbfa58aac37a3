import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agreedDeal, payForDeal, storedSandboxEvents } from "#tests/support/deals";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps, webhookDeps } from "#tests/support/payments";
import { testSandbox, withOutage } from "#tests/support/test-sandbox";
import { dealFundings, ledgerEntries, opportunityPosts } from "#server/platform/db/schema";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { moveDeal, type DealMove } from "./act";
import { readDeal } from "./read";
import { refundCancelledDeal, refundCancelledDeals } from "./refunds";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;

describe.each(ENGINES)("cancelling a booked deal on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let briefs: string[];
  const move = (uid: string, dealId: string, m: DealMove, now = new Date()) => moveDeal(db(), notificationDeps(db()), { uid, dealId, move: m, network: "198.51.100.4" }, now);
  const moneyOf = async (fundingId: string) =>
    (await db().select().from(ledgerEntries).where(eq(ledgerEntries.fundingId, fundingId)).orderBy(asc(ledgerEntries.created))).map((e) => [e.kind, e.gross, e.platformFee, e.net]);
  const fundingState = async (fundingId: string) => (await db().select({ state: dealFundings.state }).from(dealFundings).where(eq(dealFundings.id, fundingId)))[0]!.state;

  beforeAll(async () => {
    await seedDatabase(db(), { payoutAccount: sandboxDemoPayoutAccount });
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
  });

  it("ends only when the other side agrees, and gives the sponsor back all of it, once", async () => {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[0]! }, { price: "300" });
    expect(await move(creator, dealId, { action: "request_cancel", reason: "" })).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
    const { fundingId, paymentIntentId } = await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);

    expect(await move(sponsor, dealId, { action: "agree_cancel" })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await move(stranger, dealId, { action: "request_cancel", reason: "" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await move(creator, dealId, { action: "request_cancel", reason: "I broke my camera." })).toMatchObject({ kind: "SUCCESS" });
    expect(await move(creator, dealId, { action: "agree_cancel" })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await move(creator, dealId, { action: "request_cancel", reason: "" })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    const asked = (await readDeal(db(), sponsor, dealId))!.view;
    expect(asked).toMatchObject({ state: "funded", cancelRequest: { byYou: false, reason: "I broke my camera." } });
    expect(asked.actions).toContain("agree_cancel");

    expect(await move(sponsor, dealId, { action: "agree_cancel" })).toMatchObject({ kind: "SUCCESS" });
    expect(await fundingState(fundingId)).toBe("refunding");
    expect(await refundCancelledDeal(db(), sandbox.provider, dealId)).toBe("REFUNDED");
    expect(await refundCancelledDeal(db(), sandbox.provider, dealId)).toBe("NOT_DUE");
    expect(await fundingState(fundingId)).toBe("refunded");
    // The provider's own events about the refund find it written.
    const refundEvents = [...(await storedSandboxEvents(db(), "refund.updated", "paymentIntentId", paymentIntentId)), ...(await storedSandboxEvents(db(), "charge.refunded", "paymentIntentId", paymentIntentId))];
    expect(refundEvents.length).toBeGreaterThan(0);
    for (const event of [...refundEvents, ...refundEvents]) {
      expect(await receivePaymentEvent(db(), event, webhookDeps(db(), sandbox.provider))).toMatchObject({ kind: "SUCCESS" });
    }
    expect(await moneyOf(fundingId)).toEqual([
      ["deal_payment", 30_000, 30_000, 0],
      ["deal_refund", -30_000, -30_000, 0],
    ]);
    expect((await readDeal(db(), creator, dealId))!.view).toMatchObject({ state: "cancelled", refunded: 30_000, actions: [] });
  });

  it("lets the sponsor cancel alone only after a due date passed without the work, and retries a refund that failed", async () => {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[1]! }, { price: "120", deliverableDue: ["2099-03-01"] });
    const { fundingId } = await payForDeal(db(), sandbox.provider, sponsor, dealId, 0);
    expect(await move(sponsor, dealId, { action: "cancel_late" })).toMatchObject({ kind: "ERROR", reason: "NOT_LATE" });
    expect(await move(creator, dealId, { action: "cancel_late" }, new Date("2099-03-02T12:00:00Z"))).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await move(sponsor, dealId, { action: "cancel_late" }, new Date("2099-03-02T12:00:00Z"))).toMatchObject({ kind: "SUCCESS" });

    const { provider, down } = withOutage(sandbox.provider);
    down.add("refundHeldPayment");
    const failed: string[] = [];
    expect(await refundCancelledDeals(db(), provider, (id) => failed.push(id))).toMatchObject({ refunded: 0, failed: 1 });
    expect(failed).toEqual([dealId]);
    down.clear();
    expect(await refundCancelledDeals(db(), provider)).toMatchObject({ refunded: 1, failed: 0 });
    expect(await moneyOf(fundingId)).toEqual([
      ["deal_payment", 12_000, 12_000, 0],
      ["deal_refund", -12_000, -12_000, 0],
    ]);
  });
});
