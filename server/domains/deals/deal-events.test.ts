import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agreedDeal, payForDeal } from "#tests/support/deals";
import { parsedTerms } from "#tests/support/deal-terms";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { webhookContract } from "#tests/support/api";
import { notificationDeps, TEST_FEE_PERCENT, TEST_SESSION_SECRET } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { opportunityPosts, webhookDeliveries, webhookEvents } from "#server/platform/db/schema";
import { createWebhookEndpoint } from "#server/platform/outgoing-webhooks/endpoints";
import type { WebhookPayload } from "#server/platform/outgoing-webhooks/queue";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";
import { moveDeal, type DealMove } from "./act";
import { DEAL_EVENT_OF_NEWS, type DealEventData } from "./deal-events";
import { openDeal } from "./open-deal";
import { releaseDeal } from "./release";
import { decideDispute, settleDispute } from "./disputes";
import { postDealMessage } from "./thread";
import { reviewDeliverable, submitDeliverable } from "./work";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;
const DEAL_TYPES = WEBHOOK_EVENT_TYPES.map((event) => event.type).filter((type) => type.startsWith("deal."));

describe("the table of deal news and webhook events", () => {
  it("sends every deal event type the catalogue offers from some step, and no other type", () => {
    expect(new Set(Object.values(DEAL_EVENT_OF_NEWS).filter((type) => type !== null))).toEqual(new Set(DEAL_TYPES));
  });
});

type Delivered = { type: string; uid: string; endpoint: string; data: DealEventData };

describe.each(ENGINES)("deal webhook events on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const deps = () => notificationDeps(db());
  const contract = webhookContract();
  let briefs: string[];
  /** Each side's endpoint that chose every deal event, the creator's that chose only messages, and endpoints that must never get one. */
  const endpoints = { creatorAll: "", sponsorAll: "", creatorMessages: "", sponsorOther: "", strangerAll: "" };

  async function endpoint(uid: string, events: string[]): Promise<string> {
    const made = await createWebhookEndpoint(db(), { uid, sessionSecret: TEST_SESSION_SECRET, targets: "public" }, { url: `https://hooks.example.com/${uid}/${events.length}`, description: "", events });
    if (made.kind !== "SUCCESS") throw new Error(JSON.stringify(made));
    return made.endpoint.id;
  }

  /** Every delivery queued about `dealId`, oldest first, with the event it carries (each checked against the API document). */
  async function delivered(dealId: string): Promise<Delivered[]> {
    const rows = await db()
      .select({ type: webhookEvents.type, uid: webhookEvents.uid, endpoint: webhookDeliveries.endpointId, payload: webhookEvents.payload })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.orderingKey, `deal:${dealId}`))
      .orderBy(asc(webhookDeliveries.eventSequence), asc(webhookEvents.uid));
    return rows.map((row) => {
      contract.checkWebhook(row.payload);
      return { type: row.type, uid: row.uid, endpoint: row.endpoint, data: (row.payload as WebhookPayload).data as DealEventData };
    });
  }
  /** The events about `dealId` each side's all-events endpoint got, as [type, side] pairs, oldest first. */
  const steps = async (dealId: string) => (await delivered(dealId)).filter((d) => d.endpoint === endpoints.creatorAll || d.endpoint === endpoints.sponsorAll).map((d) => [d.type, d.data.side]);
  const both = (type: string) => [
    [type, "creator"],
    [type, "sponsor"],
  ];
  const move = (uid: string, dealId: string, m: DealMove, now = new Date()) => moveDeal(db(), deps(), { uid, dealId, move: m, network: "198.51.100.4" }, now);

  beforeAll(async () => {
    await seedDatabase(db(), { payoutAccount: sandboxDemoPayoutAccount });
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
    endpoints.creatorAll = await endpoint(creator, DEAL_TYPES);
    endpoints.sponsorAll = await endpoint(sponsor, DEAL_TYPES);
    endpoints.creatorMessages = await endpoint(creator, ["deal.message"]);
    endpoints.sponsorOther = await endpoint(sponsor, ["notification.created", "payment.succeeded"]);
    endpoints.strangerAll = await endpoint(stranger, DEAL_TYPES);
  });

  it("tells both sides' endpoints each step of a deal as it commits, with the deal as each side reads it, and nothing for a refused step", async () => {
    const opened = await openDeal(db(), deps(), { uid: creator, opportunityId: briefs[0]!, pitch: "Let me review it.", links: "", bioPageId: "", terms: parsedTerms({ price: "800" }), network: "203.0.113.9" });
    if (opened.kind !== "SUCCESS") throw new Error(JSON.stringify(opened));
    const { dealId } = opened;
    const first = await delivered(dealId);
    expect(first.map((d) => [d.type, d.uid, d.data.side, d.data.deal.side, d.data.deal.state, d.data.deal.waitingOnYou])).toEqual([
      ["deal.proposed", creator, "creator", "creator", "proposed", false],
      ["deal.proposed", sponsor, "sponsor", "sponsor", "proposed", true],
    ]);
    // The deal as GET /deals/{dealId} answers it, the fee split included.
    expect(first[1]!.data.deal).toMatchObject({ id: dealId, origin: "application", actions: ["counter", "accept", "decline", "withdraw", "shortlist"], fees: { price: 80_000, platformFee: 8_000, creatorReceives: 72_000, percent: TEST_FEE_PERCENT } });
    expect(first[1]!.data).toMatchObject({ message: null, deliverable: null });

    // Refused: not the creator's turn; shortlisting tells nobody.
    expect(await move(creator, dealId, { action: "accept", version: 1 })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await move(stranger, dealId, { action: "withdraw" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await move(sponsor, dealId, { action: "shortlist", shortlisted: true })).toMatchObject({ kind: "SUCCESS" });
    expect(await delivered(dealId)).toHaveLength(2);

    expect(await move(sponsor, dealId, { action: "counter", terms: parsedTerms({ price: "700" }) })).toMatchObject({ kind: "SUCCESS" });
    expect(await move(creator, dealId, { action: "accept", version: 2 })).toMatchObject({ kind: "SUCCESS" });
    await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);
    expect(await steps(dealId)).toEqual([...both("deal.proposed"), ...both("deal.countered"), ...both("deal.agreed"), ...both("deal.funded")]);
    const funded = (await delivered(dealId)).filter((d) => d.type === "deal.funded");
    expect(funded.map((d) => [d.data.deal.state, d.data.deal.funding?.state, d.data.deal.fees.price])).toEqual([
      ["funded", "paid", 70_000],
      ["funded", "paid", 70_000],
    ]);

    // The work: refused hand-ins and reviews send nothing; each one that commits is an event naming the deliverable.
    const submit = (uid: string, liveUrl = "https://youtu.be/abc123") => submitDeliverable(db(), deps(), { uid, dealId, deliverable: 0, liveUrl, note: "" });
    const review = (uid: string, verdict: "approve" | "changes") => reviewDeliverable(db(), deps(), { uid, dealId, deliverable: 0, review: verdict === "approve" ? { verdict } : { verdict, note: "Say the code." } });
    expect(await submit(sponsor)).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await submit(creator, "not a link")).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS" });
    expect(await review(sponsor, "approve")).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
    expect(await steps(dealId)).toHaveLength(8);
    expect(await submit(creator)).toMatchObject({ kind: "SUCCESS" });
    expect(await review(creator, "changes")).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await review(sponsor, "changes")).toMatchObject({ kind: "SUCCESS" });
    expect(await submit(creator, "https://youtu.be/v2")).toMatchObject({ kind: "SUCCESS" });
    // Approving one deliverable is no event of its own: the release that follows is `deal.completed`.
    expect(await review(sponsor, "approve")).toMatchObject({ kind: "SUCCESS" });
    expect((await steps(dealId)).slice(8)).toEqual([...both("deal.work_submitted"), ...both("deal.changes_requested"), ...both("deal.work_submitted")]);
    const changes = (await delivered(dealId)).find((d) => d.type === "deal.changes_requested" && d.uid === creator)!;
    expect(changes.data.deliverable).toBe(0);
    expect(changes.data.deal.work![0]!.submissions.map((s) => s.state)).toEqual(["changes_requested"]);

    expect(await releaseDeal(db(), sandbox.provider, deps(), dealId)).toBe("RELEASED");
    expect(await releaseDeal(db(), sandbox.provider, deps(), dealId)).toBe("NOT_DUE");
    const completed = (await delivered(dealId)).filter((d) => d.type === "deal.completed");
    expect(completed.map((d) => [d.data.side, d.data.deal.state, d.data.deal.release?.amount])).toEqual([
      ["creator", "completed", 63_000],
      ["sponsor", "completed", 63_000],
    ]);

    // Only the endpoints that chose deal events got them; the creator's messages-only endpoint, the
    // sponsor's other endpoint and a stranger's got none of these.
    const reached = new Set((await delivered(dealId)).map((d) => d.endpoint));
    expect(reached).toEqual(new Set([endpoints.creatorAll, endpoints.sponsorAll]));
  });

  it("sends declined, withdrawn and cancelled, and nothing for asking to cancel", async () => {
    const declinedDeal = await openDeal(db(), deps(), { uid: creator, opportunityId: briefs[1]!, pitch: "Pick me.", links: "", bioPageId: "", terms: parsedTerms(), network: "203.0.113.9" });
    if (declinedDeal.kind !== "SUCCESS") throw new Error("not opened");
    expect(await move(sponsor, declinedDeal.dealId, { action: "decline", message: "Not this time." })).toMatchObject({ kind: "SUCCESS" });
    expect(await move(sponsor, declinedDeal.dealId, { action: "withdraw" })).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
    expect(await steps(declinedDeal.dealId)).toEqual([...both("deal.proposed"), ...both("deal.declined")]);
    const declined = (await delivered(declinedDeal.dealId)).find((d) => d.type === "deal.declined" && d.uid === creator)!;
    expect(declined.data.deal).toMatchObject({ state: "declined", declineMessage: "Not this time.", endedByYou: false });

    const withdrawn = await agreedDeal(db(), { creator, sponsor, brief: briefs[2]! });
    expect(await move(creator, withdrawn, { action: "withdraw" })).toMatchObject({ kind: "SUCCESS" });
    expect(await steps(withdrawn)).toEqual([...both("deal.proposed"), ...both("deal.agreed"), ...both("deal.withdrawn")]);

    const cancelled = await agreedDeal(db(), { creator, sponsor, brief: briefs[3]! });
    await payForDeal(db(), sandbox.provider, sponsor, cancelled, 10);
    expect(await move(creator, cancelled, { action: "request_cancel", reason: "My camera broke." })).toMatchObject({ kind: "SUCCESS" });
    expect(await move(creator, cancelled, { action: "agree_cancel" })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await move(sponsor, cancelled, { action: "agree_cancel" })).toMatchObject({ kind: "SUCCESS" });
    expect(await steps(cancelled)).toEqual([...both("deal.proposed"), ...both("deal.agreed"), ...both("deal.funded"), ...both("deal.cancelled")]);
    const told = (await delivered(cancelled)).filter((d) => d.type === "deal.cancelled").map((d) => [d.data.side, d.data.deal.state, d.data.deal.endedByYou]);
    expect(told).toEqual([
      ["creator", "cancelled", false],
      ["sponsor", "cancelled", true],
    ]);
  });

  it("sends every message to both sides' endpoints that chose messages, none when the message is refused or its transaction rolls back", async () => {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[4]! });
    const before = (await delivered(dealId)).length;
    const post = (uid: string, body: string) => postDealMessage(db(), deps(), { uid, dealId, body });
    expect(await post(sponsor, "   ")).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS" });
    expect(await post(stranger, "Hello?")).toMatchObject({ kind: "ERROR", code: "not-found" });
    await expect(
      db().transaction(async (tx) => {
        await postDealMessage(tx, deps(), { uid: sponsor, dealId, body: "Never sent." });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await delivered(dealId)).toHaveLength(before);

    expect(await post(sponsor, "Can it go live before the 12th?")).toMatchObject({ kind: "SUCCESS", seq: 1 });
    expect(await post(sponsor, "Our launch moved up.")).toMatchObject({ kind: "SUCCESS", seq: 2 });
    const messages = (await delivered(dealId)).filter((d) => d.type === "deal.message");
    // Every message (not only the first of an unread run, as the notification), to the author's endpoints too.
    expect(messages.map((d) => [d.endpoint, d.data.side, d.data.message?.seq, d.data.message?.side, d.data.message?.body])).toEqual(
      expect.arrayContaining([
        [endpoints.creatorAll, "creator", 1, "sponsor", "Can it go live before the 12th?"],
        [endpoints.creatorMessages, "creator", 1, "sponsor", "Can it go live before the 12th?"],
        [endpoints.sponsorAll, "sponsor", 1, "sponsor", "Can it go live before the 12th?"],
        [endpoints.creatorAll, "creator", 2, "sponsor", "Our launch moved up."],
        [endpoints.creatorMessages, "creator", 2, "sponsor", "Our launch moved up."],
        [endpoints.sponsorAll, "sponsor", 2, "sponsor", "Our launch moved up."],
      ]),
    );
    expect(messages).toHaveLength(6);
  });

  it("tells both sides when a booked deal is disputed, when staff decide, and when the decided money moved", async () => {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[5]! });
    await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);
    const before = (await steps(dealId)).length;
    expect(await move(creator, dealId, { action: "dispute", reason: " " })).toMatchObject({ kind: "ERROR" });
    expect(await move(sponsor, dealId, { action: "dispute", reason: "Nothing went live." })).toMatchObject({ kind: "SUCCESS" });
    const staff = { kind: "staff" as const, id: "events-staff", email: "staff@events.example" };
    expect(await decideDispute(db(), deps(), staff, { dealId, decision: "split", sponsorRefund: 20_000, reason: "Half done." })).toMatchObject({ kind: "SUCCESS" });
    expect(await settleDispute(db(), sandbox.provider, deps(), dealId)).toBe("SETTLED");
    expect((await steps(dealId)).slice(before)).toEqual([...both("deal.disputed"), ...both("deal.dispute_decided"), ...both("deal.completed")]);
    const decided = (await delivered(dealId)).find((d) => d.type === "deal.dispute_decided" && d.uid === creator)!;
    expect(decided.data.deal.dispute).toMatchObject({ openedBy: "them", decision: { decision: "split", sponsorRefund: 20_000, settled: false } });
  });
});
