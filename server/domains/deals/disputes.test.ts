import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agreedDeal, payForDeal, storedSandboxEvents } from "#tests/support/deals";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, notificationDeps, webhookDeps } from "#tests/support/payments";
import { testSandbox, withCallLog, withOutage } from "#tests/support/test-sandbox";
import { auditLog, dealFundings, ledgerEntries, notifications, opportunityPosts } from "#server/platform/db/schema";
import type { Actor } from "#server/platform/audit/audit-log";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { moveDeal, type DealMove } from "./act";
import { decideDispute, settleDecidedDisputes, settleDispute } from "./disputes";
import { readDeal } from "./read";
import { releaseDeal } from "./release";
import { reviewDeliverable, submitDeliverable } from "./work";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;
const STAFF: Actor = { kind: "staff", id: "dispute-staff", email: "staff@example.com" };

describe.each(ENGINES)("disputes on booked deals on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let briefs: string[];
  let nextBrief = 0;
  const move = (uid: string, dealId: string, m: DealMove) => moveDeal(db(), notificationDeps(db()), { uid, dealId, move: m, network: "198.51.100.4" });
  const moneyOf = async (fundingId: string) =>
    (await db().select().from(ledgerEntries).where(eq(ledgerEntries.fundingId, fundingId)).orderBy(asc(ledgerEntries.created))).map((e) => [e.kind, e.gross, e.platformFee, e.net]);
  const fundingState = async (fundingId: string) => (await db().select({ state: dealFundings.state }).from(dealFundings).where(eq(dealFundings.id, fundingId)))[0]!.state;
  /** A booked deal of `price` dollars with the platform's fee at 10 %, its one deliverable not handed in. */
  const bookedDeal = async (price: string) => {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[nextBrief++ % briefs.length]! }, { price });
    const funding = await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);
    return { dealId, ...funding };
  };
  const decide = (dealId: string, decision: string, sponsorRefund?: number) => decideDispute(db(), notificationDeps(db()), STAFF, { dealId, decision, sponsorRefund, reason: "Read the thread: half the work was done." });

  beforeAll(async () => {
    await seedDatabase(db(), { payoutAccount: sandboxDemoPayoutAccount });
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
  });

  it("freezes the money when either side opens one: no work, no review, no cancel, no release until staff decide", async () => {
    const { dealId } = await bookedDeal("200");
    expect(await move(creator, dealId, { action: "dispute", reason: "  " })).toMatchObject({ kind: "ERROR", fieldErrors: { message: expect.any(String) } });
    expect(await move(stranger, dealId, { action: "dispute", reason: "Let me in" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await move(sponsor, dealId, { action: "dispute", reason: "The video never went live." })).toMatchObject({ kind: "SUCCESS" });
    expect(await move(creator, dealId, { action: "dispute", reason: "Me too" })).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });

    const seenByCreator = (await readDeal(db(), creator, dealId))!.view;
    expect(seenByCreator).toMatchObject({ state: "disputed", actions: [], dispute: { openedBy: "them", reason: "The video never went live.", decision: null } });
    const told = await db().select().from(notifications).where(and(eq(notifications.uid, creator), eq(notifications.title, "Deal disputed")));
    expect(told.at(-1)?.message).toContain("opened a dispute");

    expect(await submitDeliverable(db(), notificationDeps(db()), { uid: creator, dealId, deliverable: 0, liveUrl: "https://youtu.be/late", note: "" })).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
    expect(await move(creator, dealId, { action: "request_cancel", reason: "" })).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
    expect(await releaseDeal(db(), sandbox.provider, notificationDeps(db()), dealId)).toBe("NOT_DUE");
  });

  it("is refused once every deliverable is approved: that money is on its way to the creator", async () => {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[nextBrief++ % briefs.length]! }, { price: "90" });
    await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);
    await submitDeliverable(db(), notificationDeps(db()), { uid: creator, dealId, deliverable: 0, liveUrl: "https://youtu.be/done", note: "" });
    await reviewDeliverable(db(), notificationDeps(db()), { uid: sponsor, dealId, deliverable: 0, review: { verdict: "approve" } });
    expect(await move(sponsor, dealId, { action: "dispute", reason: "Changed my mind" })).toMatchObject({ kind: "ERROR", reason: "RELEASE_DUE" });
  });

  it("splits as staff decide: part back to the sponsor, the rest to the creator less the fee in proportion, audited, moved once", async () => {
    const { dealId, fundingId, paymentIntentId } = await bookedDeal("200");
    expect(await decide(dealId, "split", 5_000)).toMatchObject({ kind: "ERROR", reason: "NOT_DISPUTED" });
    await move(creator, dealId, { action: "dispute", reason: "They stopped answering after the draft." });

    expect(await decide(dealId, "split", 0)).toMatchObject({ kind: "ERROR", fieldErrors: { sponsorRefund: expect.any(String) } });
    expect(await decide(dealId, "split", 20_000)).toMatchObject({ kind: "ERROR", fieldErrors: { sponsorRefund: expect.any(String) } });
    expect(await decide(dealId, "split", Number.NaN)).toMatchObject({ kind: "ERROR", fieldErrors: { sponsorRefund: expect.any(String) } });
    expect(await decide(dealId, "keep it all")).toMatchObject({ kind: "ERROR", fieldErrors: { decision: expect.any(String) } });
    expect(await decideDispute(db(), notificationDeps(db()), STAFF, { dealId, decision: "refund", reason: " " })).toMatchObject({ kind: "ERROR", fieldErrors: { reason: expect.any(String) } });

    // $200 paid, fee $20: $50 back; of the $150 released the platform keeps $15, the creator gets $135.
    expect(await decide(dealId, "split", 5_000)).toMatchObject({ kind: "SUCCESS", sponsorRefund: 5_000, creatorShare: 13_500 });
    expect(await decide(dealId, "release")).toMatchObject({ kind: "ERROR", reason: "ALREADY_DECIDED" });
    const audited = await db().select().from(auditLog).where(and(eq(auditLog.action, "deal.dispute_decide"), eq(auditLog.subjectId, dealId)));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorId: "dispute-staff", reason: "Read the thread: half the work was done.", after: { decision: "split", sponsorRefund: 5_000, creatorShare: 13_500, platformKeeps: 1_500 } });

    const { provider, callsOf } = withCallLog(sandbox.provider);
    expect(await settleDispute(db(), provider, notificationDeps(db()), dealId)).toBe("SETTLED");
    expect(await settleDispute(db(), provider, notificationDeps(db()), dealId)).toBe("NOT_DUE");
    expect(callsOf("createTransfer")).toHaveLength(1);
    expect(callsOf("refundHeldPayment")).toHaveLength(1);
    expect(await moneyOf(fundingId)).toEqual([
      ["deal_payment", 20_000, 20_000, 0],
      ["deal_release", 0, -13_500, 13_500],
      ["deal_refund", -5_000, -5_000, 0],
    ]);
    expect((await readDeal(db(), sponsor, dealId))!.view).toMatchObject({
      state: "completed",
      dispute: { openedBy: "them", decision: { decision: "split", sponsorRefund: 5_000, creatorShare: 13_500, settled: true } },
    });
    // The provider's own events about the refund find it written.
    const refundEvents = [...(await storedSandboxEvents(db(), "refund.updated", "paymentIntentId", paymentIntentId)), ...(await storedSandboxEvents(db(), "charge.refunded", "paymentIntentId", paymentIntentId))];
    expect(refundEvents.length).toBeGreaterThan(0);
    for (const event of refundEvents) expect(await receivePaymentEvent(db(), event, webhookDeps(db(), sandbox.provider))).toMatchObject({ kind: "SUCCESS" });
    expect(await moneyOf(fundingId)).toHaveLength(3);
  });

  it("refunds the sponsor all of it, or releases what approval would have, and retries money the provider did not move", async () => {
    const refunded = await bookedDeal("120");
    await move(sponsor, refunded.dealId, { action: "dispute", reason: "Nothing was made." });
    expect(await decide(refunded.dealId, "refund")).toMatchObject({ kind: "SUCCESS", sponsorRefund: 12_000, creatorShare: 0 });
    const { provider, down } = withOutage(sandbox.provider);
    down.add("refundHeldPayment");
    const failed: string[] = [];
    expect(await settleDecidedDisputes(db(), provider, notificationDeps(db()), new Date(), (id) => failed.push(id))).toMatchObject({ settled: 0, failed: 1 });
    expect(failed).toEqual([refunded.dealId]);
    down.clear();
    expect(await settleDecidedDisputes(db(), provider, notificationDeps(db()))).toMatchObject({ settled: 1, failed: 0 });
    expect(await moneyOf(refunded.fundingId)).toEqual([
      ["deal_payment", 12_000, 12_000, 0],
      ["deal_refund", -12_000, -12_000, 0],
    ]);
    expect(await fundingState(refunded.fundingId)).toBe("refunded");
    expect((await readDeal(db(), creator, refunded.dealId))!.view.state).toBe("cancelled");

    const released = await bookedDeal("80");
    await move(creator, released.dealId, { action: "dispute", reason: "The video is live; they will not review it." });
    expect(await decide(released.dealId, "release")).toMatchObject({ kind: "SUCCESS", sponsorRefund: 0, creatorShare: 7_200 });
    expect(await settleDecidedDisputes(db(), sandbox.provider, notificationDeps(db()))).toMatchObject({ settled: 1 });
    expect(await moneyOf(released.fundingId)).toEqual([
      ["deal_payment", 8_000, 8_000, 0],
      ["deal_release", 0, -7_200, 7_200],
    ]);
    expect((await readDeal(db(), creator, released.dealId))!.view).toMatchObject({ state: "completed", dispute: { openedBy: "you", decision: { settled: true } } });
  });

  it("freezes a booked deal when the sponsor's bank disputes the held charge, once however often the event comes", async () => {
    const { dealId, paymentIntentId, fundingId } = await bookedDeal("150");
    const bankDispute = events.disputeChanged({ paymentIntentId, amount: 15_000 });
    for (const delivery of [bankDispute, bankDispute]) expect(await receivePaymentEvent(db(), delivery, webhookDeps(db(), sandbox.provider))).toMatchObject({ kind: "SUCCESS" });
    const reopened = events.disputeChanged({ paymentIntentId, amount: 15_000 }, "under_review");
    expect(await receivePaymentEvent(db(), reopened, webhookDeps(db(), sandbox.provider))).toMatchObject({ kind: "SUCCESS" });
    expect((await readDeal(db(), sponsor, dealId))!.view).toMatchObject({ state: "disputed", dispute: { openedBy: "bank", reason: "The sponsor's bank disputed the card payment (fraudulent)." } });
    expect(await moneyOf(fundingId)).toEqual([["deal_payment", 15_000, 15_000, 0]]);
  });
});
