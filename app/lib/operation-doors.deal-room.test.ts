import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { dealMessages, deals, dealSubmissions, opportunityPosts } from "#server/platform/db/schema";
import { runOperation, type Caller } from "#server/features/operations/operation";
import { listDealMessages, postDealMessage } from "#server/features/operations/deals/thread";
import { readDealWork, reviewDeliverable, submitDeliverable } from "#server/features/operations/deals/work";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { dealAction } from "#app/routes/deals/deal-action.server";
import { apiHarness, testMailer } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { agreedDeal, payForDeal } from "#tests/support/deals";
import { silentLogger, TEST_SESSION_SECRET } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { pageStop } from "#tests/support/page-stop";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;

type Refused = { init: { status: number }; data: { message?: string; errors?: Record<string, string>; work?: { errors: Record<string, string> } } };

/**
 * The deal room's thread and work through each door: the deal page's action (its forms, through
 * runForPage) and /api/v1 (a key). Someone else's deal is no one's; a step the deal's state or
 * side does not allow is the same sentence with the same status; a field's problem the same words.
 */
describe.each(ENGINES)("a deal's thread and work through every door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });
  const context = () => ({
    db: db(),
    mailer: testMailer(db()),
    payments: sandbox.provider,
    logger: silentLogger,
    sessionSecret: TEST_SESSION_SECRET,
    clientIp: "198.51.100.7",
    config: { PUBLIC_ORIGIN: "http://app.test", APP_NAME: "Sponsorgrid", SUPPORT_EMAIL: "support@test.example", PLATFORM_FEE_PERCENT: 5 },
  });
  const personOf = (uid: string) => ({ id: uid, email: `${uid}@doors.example`, name: "Dana", emailVerified: true, image: null });
  let briefs: string[];
  let next = 0;

  function dealPost(fields: Record<string, string>): Request {
    return new Request("http://app.test/app/deals/x", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  }
  const runDealPage = (uid: string, dealId: string, fields: Record<string, string>) => dealAction(dealPost(fields), context() as unknown as AppLoadContext, personOf(uid), dealId);
  const bookedDeal = async () => {
    const dealId = await agreedDeal(db(), { creator, sponsor, brief: briefs[next++]! });
    await payForDeal(db(), sandbox.provider, sponsor, dealId, 5);
    return dealId;
  };

  beforeAll(async () => {
    await seedDatabase(db(), { payoutAccount: sandboxDemoPayoutAccount });
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
  });

  it("answers another account's deal as not found through the page and the API alike, and writes nothing", async () => {
    const dealId = await bookedDeal();
    const key = await api.keyFor(stranger);
    const message = "There is no such deal.";
    const forms: Record<string, string>[] = [{ intent: "message", body: "Hello?" }, { intent: "submit", deliverable: "0", liveUrl: "https://youtu.be/x" }, { intent: "approve", deliverable: "0" }];
    for (const fields of forms) {
      expect(await pageStop(() => runDealPage(stranger, dealId, fields)), fields.intent).toEqual({ status: 404, message });
    }
    for (const [method, path, body] of [
      ["POST", `/deals/${dealId}/messages`, { body: "Hello?" }],
      ["GET", `/deals/${dealId}/messages`, undefined],
      ["GET", `/deals/${dealId}/work`, undefined],
      ["POST", `/deals/${dealId}/work/0/submissions`, { liveUrl: "https://youtu.be/x" }],
      ["POST", `/deals/${dealId}/work/0/review`, { verdict: "approve" }],
    ] as const) {
      const viaApi = await api.call(method, path, { key, body });
      expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }, `${method} ${path}`).toEqual({ status: 404, code: "not_found", message });
    }
    expect(await db().select().from(dealMessages).where(eq(dealMessages.dealId, dealId))).toEqual([]);
    expect(await db().select().from(dealSubmissions).where(eq(dealSubmissions.dealId, dealId))).toEqual([]);
  });

  it("refuses the wrong side and the wrong state with the same status and sentence, and a field's problem in the same words", async () => {
    const dealId = await bookedDeal();
    const sponsorKey = await api.keyFor(sponsor);
    const creatorKey = await api.keyFor(creator);

    const pageSubmit = (await runDealPage(sponsor, dealId, { intent: "submit", deliverable: "0", liveUrl: "https://youtu.be/x" })) as unknown as Refused;
    const apiSubmit = await api.call("POST", `/deals/${dealId}/work/0/submissions`, { key: sponsorKey, body: { liveUrl: "https://youtu.be/x" } });
    expect(pageSubmit.init.status).toBe(409);
    expect({ status: apiSubmit.status, code: apiSubmit.body.error.code, message: apiSubmit.body.error.message }).toEqual({ status: 409, code: "not_your_turn", message: pageSubmit.data.message });

    const pageReview = (await runDealPage(sponsor, dealId, { intent: "approve", deliverable: "0" })) as unknown as Refused;
    const apiReview = await api.call("POST", `/deals/${dealId}/work/0/review`, { key: sponsorKey, body: { verdict: "approve" } });
    expect(pageReview.init.status).toBe(409);
    expect({ status: apiReview.status, code: apiReview.body.error.code, message: apiReview.body.error.message }).toEqual({ status: 409, code: "wrong_state", message: pageReview.data.message });

    const pageUrl = (await runDealPage(creator, dealId, { intent: "submit", deliverable: "0", liveUrl: "youtu.be/x" })) as unknown as Refused;
    const apiUrl = await api.call("POST", `/deals/${dealId}/work/0/submissions`, { key: creatorKey, body: { liveUrl: "youtu.be/x" } });
    expect(pageUrl.init.status).toBe(400);
    expect(apiUrl.body.error.fields).toEqual({ "body.liveUrl": pageUrl.data.work!.errors.liveUrl });

    const pageEmpty = (await runDealPage(creator, dealId, { intent: "message", body: "  " })) as unknown as Refused;
    const apiEmpty = await api.call("POST", `/deals/${dealId}/messages`, { key: creatorKey, body: { body: "  " } });
    expect(pageEmpty.init.status).toBe(400);
    expect(apiEmpty.body.error.fields).toEqual({ "body.body": pageEmpty.data.errors!.body });

    // A deliverable the page's form names by no number is no deliverable, as before the page used the operation.
    expect(await pageStop(() => runDealPage(creator, dealId, { intent: "submit", deliverable: "first", liveUrl: "https://youtu.be/x" }))).toEqual({ status: 404, message: "There is no such deal." });
  });

  it("moves the work on through either door: handed in on the page, reviewed through the API, and the creator paid", async () => {
    const dealId = await bookedDeal();
    const handedIn = (await runDealPage(creator, dealId, { intent: "submit", deliverable: "0", liveUrl: "https://youtu.be/v1", note: "" })) as Response;
    expect(handedIn.headers.get("Location")).toBe(`/app/deals/${dealId}`);
    const work = await api.call("GET", `/deals/${dealId}/work`, { key: await api.keyFor(sponsor) });
    expect(work.body.deliverables[0].submissions).toEqual([expect.objectContaining({ round: 1, state: "submitted", liveUrl: "https://youtu.be/v1" })]);
    expect((await api.call("POST", `/deals/${dealId}/work/0/review`, { key: await api.keyFor(sponsor), body: { verdict: "approve" } })).status).toBe(200);
    expect((await db().select({ state: deals.state }).from(deals).where(eq(deals.id, dealId)))[0]!.state).toBe("completed");

    // The message box answers with a redirect to the new message, thrown as React Router's redirects are.
    const posted = (await runDealPage(sponsor, dealId, { intent: "message", body: "Thanks, lovely video." }).catch((thrown: unknown) => thrown)) as Response;
    expect(posted.headers.get("Location")).toBe(`/app/deals/${dealId}#message-1`);
    const listed = await api.call("GET", `/deals/${dealId}/messages`, { key: await api.keyFor(creator) });
    expect(listed.body.data).toEqual([expect.objectContaining({ seq: 1, side: "sponsor", body: "Thanks, lovely video." })]);
  });

  it("admits the same callers through every door", async () => {
    const dealId = await bookedDeal();
    const guest: Caller = { kind: "guest" };
    const unverified: Caller = { kind: "person", uid: creator, emailVerified: false };
    const deps = context();
    const calls = [
      (caller: Caller) => runOperation(listDealMessages, { caller, input: { dealId }, deps }),
      (caller: Caller) => runOperation(postDealMessage, { caller, input: { dealId, body: "Hi" }, deps }),
      (caller: Caller) => runOperation(readDealWork, { caller, input: { dealId }, deps }),
      (caller: Caller) => runOperation(submitDeliverable, { caller, input: { dealId, deliverable: 0, liveUrl: "https://youtu.be/x" }, deps }),
      (caller: Caller) => runOperation(reviewDeliverable, { caller, input: { dealId, deliverable: 0, review: { verdict: "approve" } }, deps }),
    ];
    for (const call of calls) {
      expect(await call(guest)).toEqual({ kind: "ERROR", code: "unauthenticated", message: "Sign in first." });
      expect(await call(unverified)).toEqual({ kind: "ERROR", code: "permission-denied", message: "Verify your email address first." });
    }
    expect(await db().select().from(dealMessages).where(eq(dealMessages.dealId, dealId))).toEqual([]);
  });
});
