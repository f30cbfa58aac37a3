import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { dealMessages, dealSubmissions, deals, opportunityPosts } from "#server/platform/db/schema";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { agreedDeal, payForDeal } from "#tests/support/deals";
import { testSandbox } from "#tests/support/test-sandbox";
import { openApiDocument } from "./openapi";
import { API_OPERATIONS } from "./operations/index";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;

describe("the deal room's operations in the OpenAPI document", () => {
  const document = openApiDocument(API_OPERATIONS, { serverUrl: "http://app.test", version: "test" });
  const paths = document.paths as Record<string, Record<string, { operationId: string; requestParams?: unknown; parameters?: { name: string; in: string }[] }>>;

  it("lists the thread and the work, each under its path and method", () => {
    expect(paths["/deals/{dealId}/messages"]?.get?.operationId).toBe("listDealMessages");
    expect(paths["/deals/{dealId}/messages"]?.post?.operationId).toBe("postDealMessage");
    expect(paths["/deals/{dealId}/work"]?.get?.operationId).toBe("getDealWork");
    expect(paths["/deals/{dealId}/work/{deliverable}/submissions"]?.post?.operationId).toBe("submitDeliverable");
    expect(paths["/deals/{dealId}/work/{deliverable}/review"]?.post?.operationId).toBe("reviewDeliverable");
    const scopes = Object.fromEntries(API_OPERATIONS.filter((operation) => operation.path.startsWith("/deals/{dealId}/")).map((operation) => [operation.id, operation.scope]));
    expect(scopes).toEqual({ moveDeal: "deals:write", listDealMessages: "deals:read", postDealMessage: "deals:write", getDealWork: "deals:read", submitDeliverable: "deals:write", reviewDeliverable: "deals:write" });
  });
});

describe.each(ENGINES)("a deal's thread and work through the API on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });
  const db = () => database.db;
  let briefs: string[];
  const keys = { creator: "", sponsor: "", stranger: "" };
  let next = 0;
  const newDeal = () => agreedDeal(db(), { creator, sponsor, brief: briefs[next++]! });
  const dealRow = async (id: string) => (await db().select().from(deals).where(eq(deals.id, id)))[0]!;

  beforeAll(async () => {
    await seedDatabase(db(), { payoutAccount: sandboxDemoPayoutAccount });
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
    keys.creator = await api.keyFor(creator);
    keys.sponsor = await api.keyFor(sponsor);
    keys.stranger = await api.keyFor(stranger);
  });

  it("posts into a deal's thread and lists it oldest first, a page at a time, marking nothing read", async () => {
    const dealId = await newDeal();
    const post = (key: string, body: unknown, headers: Record<string, string> = {}) => api.call("POST", `/deals/${dealId}/messages`, { key, body, headers });
    const first = await post(keys.sponsor, { body: "  Can it go live before the 12th?  " });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ seq: 1 });
    expect((await post(keys.creator, { body: "Yes, the 10th works." })).body).toEqual({ seq: 2 });
    expect((await post(keys.sponsor, { body: "Great." })).body).toEqual({ seq: 3 });

    const all = await api.call("GET", `/deals/${dealId}/messages`, { key: keys.creator });
    expect(all.status).toBe(200);
    expect(all.body.data.map((m: { seq: number; side: string; body: string }) => [m.seq, m.side, m.body])).toEqual([
      [1, "sponsor", "Can it go live before the 12th?"],
      [2, "creator", "Yes, the 10th works."],
      [3, "sponsor", "Great."],
    ]);
    expect(all.body.nextCursor).toBeNull();
    // The app still shows the creator the sponsor's last message as unread.
    expect((await api.call("GET", "/deals", { key: keys.creator })).body.data.find((d: { id: string }) => d.id === dealId)).toMatchObject({ unread: 1 });

    const page1 = await api.call("GET", `/deals/${dealId}/messages?limit=2`, { key: keys.sponsor });
    expect(page1.body.data.map((m: { seq: number }) => m.seq)).toEqual([1, 2]);
    const page2 = await api.call("GET", `/deals/${dealId}/messages?limit=2&cursor=${page1.body.nextCursor}`, { key: keys.sponsor });
    expect(page2.body).toMatchObject({ data: [expect.objectContaining({ seq: 3 })], nextCursor: null });
    const forged = await api.call("GET", `/deals/${dealId}/messages?cursor=${Buffer.from(JSON.stringify({ seq: "x" })).toString("base64url")}`, { key: keys.sponsor });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe("invalid_cursor");

    // Refused as the page refuses: an empty message by its field, another account's deal as none.
    const empty = await post(keys.creator, { body: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual({ "body.body": "Write a message or attach a file first" });
    expect((await post(keys.creator, { body: "x".repeat(4001) })).body.error.fields).toEqual({ "body.body": "Must be at most 4000 characters" });
    for (const refused of [await post(keys.stranger, { body: "Hello?" }), await api.call("GET", `/deals/${dealId}/messages`, { key: keys.stranger }), await api.call("POST", "/deals/deal_none/messages", { key: keys.creator, body: { body: "Hi" } })]) {
      expect(refused.status).toBe(404);
      expect(refused.body.error).toMatchObject({ code: "not_found", message: "There is no such deal." });
    }

    // A retry with the same Idempotency-Key posts once and answers the same.
    const headers = { "Idempotency-Key": `message-${Math.random()}` };
    const sent = await post(keys.sponsor, { body: "See you then." }, headers);
    const again = await post(keys.sponsor, { body: "See you then." }, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(sent.body);
    expect(await db().select().from(dealMessages).where(and(eq(dealMessages.dealId, dealId), eq(dealMessages.body, "See you then.")))).toHaveLength(1);
  });

  it("hands work in and reviews it as the deal page does, refusing the wrong side and the wrong state, and pays the creator at the last approval", async () => {
    const dealId = await newDeal();
    const work = (key: string) => api.call("GET", `/deals/${dealId}/work`, { key });
    const submit = (key: string, body: object, deliverable: string | number = 0, headers: Record<string, string> = {}) => api.call("POST", `/deals/${dealId}/work/${deliverable}/submissions`, { key, body, headers });
    const review = (key: string, body: object, deliverable: string | number = 0) => api.call("POST", `/deals/${dealId}/work/${deliverable}/review`, { key, body });
    const live = { liveUrl: "https://youtu.be/abc123", note: "Live since this morning." };

    expect((await work(keys.creator)).body).toEqual({ dealId, state: "agreed", side: "creator", deliverables: [] });
    const early = await submit(keys.creator, live);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "wrong_state", message: "Work is handed in and reviewed while a deal is booked." });
    await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);

    const bySponsor = await submit(keys.sponsor, live);
    expect(bySponsor.status).toBe(409);
    expect(bySponsor.body.error).toMatchObject({ code: "not_your_turn", message: "The creator hands in the work." });
    for (const refused of [await submit(keys.stranger, live), await submit(keys.creator, live, 3), await submit(keys.creator, live, "first"), await work(keys.stranger), await review(keys.stranger, { verdict: "approve" })]) {
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe("not_found");
    }
    const badUrl = await submit(keys.creator, { liveUrl: "youtu.be/abc" });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.fields).toEqual({ "body.liveUrl": "Enter the address where it is live, starting with https://" });
    expect(await db().select().from(dealSubmissions).where(eq(dealSubmissions.dealId, dealId))).toEqual([]);

    const handedIn = await submit(keys.creator, live);
    expect(handedIn.status).toBe(201);
    expect(handedIn.body).toEqual({ round: 1, state: "submitted" });
    expect((await submit(keys.creator, live)).body.error).toMatchObject({ code: "wrong_state", message: "This deliverable waits on the sponsor's review." });
    const seen = await work(keys.sponsor);
    expect(seen.body).toMatchObject({ state: "funded", side: "sponsor" });
    expect(seen.body.deliverables).toEqual([expect.objectContaining({ index: 0, changeRoundsLeft: 2, submissions: [expect.objectContaining({ round: 1, state: "submitted", liveUrl: live.liveUrl, note: live.note })] })]);

    expect((await review(keys.creator, { verdict: "approve" })).body.error).toMatchObject({ code: "not_your_turn", message: "The sponsor reviews the work." });
    const noNote = await review(keys.sponsor, { verdict: "changes", note: " " });
    expect(noNote.status).toBe(400);
    expect(noNote.body.error.fields).toEqual({ "body.note": "Say what should change" });
    expect((await review(keys.sponsor, { verdict: "maybe" })).status).toBe(400);
    const changes = await review(keys.sponsor, { verdict: "changes", note: "Please say the discount code." });
    expect(changes.status).toBe(200);
    expect(changes.body).toEqual({ verdict: "changes" });
    expect((await review(keys.sponsor, { verdict: "approve" })).body.error).toMatchObject({ code: "wrong_state", message: "Nothing of this deliverable waits on your review." });

    expect((await submit(keys.creator, { liveUrl: "https://youtu.be/v2" })).body).toEqual({ round: 2, state: "submitted" });
    const approved = await review(keys.sponsor, { verdict: "approve" });
    expect(approved.status).toBe(200);
    // The last approval released the creator's share, as the page's does.
    expect((await dealRow(dealId)).state).toBe("completed");
    expect((await api.call("GET", `/deals/${dealId}`, { key: keys.creator })).body).toMatchObject({ state: "completed", release: { amount: 67_500, currency: "usd" } });
    expect((await submit(keys.creator, live)).body.error.code).toBe("wrong_state");
  });

  it("replays a retried hand-in with the same Idempotency-Key instead of refusing it", async () => {
    const dealId = await newDeal();
    await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);
    const headers = { "Idempotency-Key": `submit-${Math.random()}` };
    const call = () => api.call("POST", `/deals/${dealId}/work/0/submissions`, { key: keys.creator, body: { liveUrl: "https://youtu.be/once" }, headers });
    const first = await call();
    const retry = await call();
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().select().from(dealSubmissions).where(eq(dealSubmissions.dealId, dealId))).toHaveLength(1);
  });

  it("reads with deals:read and writes with deals:write (403 insufficient_scope), changing nothing when refused", async () => {
    const dealId = await newDeal();
    await payForDeal(db(), sandbox.provider, sponsor, dealId, 10);
    const reader = await api.keyFor(creator, ["deals:read"]);
    expect((await api.call("GET", `/deals/${dealId}/messages`, { key: reader })).status).toBe(200);
    expect((await api.call("GET", `/deals/${dealId}/work`, { key: reader })).status).toBe(200);
    for (const [path, body] of [
      [`/deals/${dealId}/messages`, { body: "Hi" }],
      [`/deals/${dealId}/work/0/submissions`, { liveUrl: "https://youtu.be/abc" }],
      [`/deals/${dealId}/work/0/review`, { verdict: "approve" }],
    ] as const) {
      const refused = await api.call("POST", path, { key: reader, body });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
    const writer = await api.keyFor(creator, ["deals:write"]);
    for (const path of [`/deals/${dealId}/messages`, `/deals/${dealId}/work`]) expect((await api.call("GET", path, { key: writer })).status, path).toBe(403);
    expect(await db().select().from(dealMessages).where(eq(dealMessages.dealId, dealId))).toEqual([]);
    expect(await db().select().from(dealSubmissions).where(eq(dealSubmissions.dealId, dealId))).toEqual([]);
  });
});
