import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deals, dealTerms, opportunityPosts, profiles } from "#server/platform/db/schema";
import { newOpportunityId } from "#server/domains/opportunities/ids";
import { runOperation, type Caller } from "#server/features/operations/operation";
import { listDealsOnOpportunity, listMyDeals, readDeal } from "#server/features/operations/deals/read";
import { moveDeal, openDeal } from "#server/features/operations/deals/write";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { dealAction } from "#app/routes/deals/deal-action.server";
import { apiHarness, testMailer } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { parsedTerms, TERMS_JSON, termsPost } from "#tests/support/deal-terms";
import { TEST_SESSION_SECRET } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { pageStop } from "#tests/support/page-stop";

/**
 * What the deal operations guarantee whichever door they are reached by: the deal page (its
 * loader and action, through runForPage) and /api/v1 (a key). Someone else's deal is no one's
 * (not-found, nothing changes); a move the table refuses says the same sentence; the terms are
 * held to the same rules and messages; the same callers are admitted.
 */
describe.each(ENGINES)("deal operations through every door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });
  const context = () => ({
    db: db(),
    mailer: testMailer(db()),
    sessionSecret: TEST_SESSION_SECRET,
    clientIp: "198.51.100.7",
    config: { PUBLIC_ORIGIN: "http://app.test", APP_NAME: "Sponsorgrid", SUPPORT_EMAIL: "support@test.example", PLATFORM_FEE_PERCENT: 5 },
  });
  const personOf = (uid: string) => ({ id: uid, email: `${uid}@doors.example`, name: "Dana", emailVerified: true, image: null });
  const asPage = (uid: string) => pageCaller(personOf(uid));
  const client = { ip: "198.51.100.7", browserToken: null };

  async function person(name: string, paymentsEnabled = false): Promise<string> {
    const uid = await api.newAccount(name);
    await db().insert(profiles).values({ uid, name, paymentsEnabled });
    return uid;
  }
  /** A creator's application to a new brief of a new sponsor's, opened as the apply page opens it. */
  async function application() {
    const creator = await person("Maya Makes", true);
    const sponsor = await person("Gear Co");
    const brief = newOpportunityId(new Date());
    await db().insert(opportunityPosts).values({ id: brief, title: "Gear review", description: "d", posterUid: sponsor, kind: "brief" });
    const opened = await runForPage(openDeal, { caller: asPage(creator), input: { opportunityId: brief, pitch: "Hello", links: "", bioPageId: "", terms: parsedTerms() }, context: context(), client, notFound: "answer" });
    if (opened.kind === "ERROR") throw new Error(opened.message);
    return { creator, sponsor, brief, dealId: opened.dealId };
  }
  /** The deal page's form, as a browser posts it. */
  function dealPost(fields: Record<string, string>): Request {
    return new Request("http://app.test/app/deals/x", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  }
  const runDealPage = (uid: string, dealId: string, fields: Record<string, string>) => dealAction(dealPost(fields), context() as unknown as AppLoadContext, personOf(uid), dealId);
  const dealRow = async (id: string) => (await db().select().from(deals).where(eq(deals.id, id)))[0]!;

  it("answers another account's deal as not found through the page and the API alike, and changes nothing", async () => {
    const { dealId, brief } = await application();
    const stranger = await person("Nosy Parker", true);
    const key = await api.keyFor(stranger);
    const before = await dealRow(dealId);
    const message = "There is no such deal.";

    expect(await runForPage(readDeal, { caller: asPage(stranger), input: { dealId }, context: context(), notFound: "answer" })).toEqual({ kind: "ERROR", code: "not-found", reason: "NOT_FOUND", message });
    // The page's action stops with the 404 page, in the domain's words.
    expect(await pageStop(() => runDealPage(stranger, dealId, { intent: "withdraw" }))).toEqual({ status: 404, message });
    for (const [method, path, body] of [
      ["GET", `/deals/${dealId}`, undefined],
      ["POST", `/deals/${dealId}/moves`, { action: "withdraw" }],
    ] as const) {
      const viaApi = await api.call(method, path, { key, body });
      expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 404, code: "not_found", message });
    }
    const inbox = await runForPage(listDealsOnOpportunity, { caller: asPage(stranger), input: { opportunityId: brief }, context: context(), notFound: "answer" });
    const viaApi = await api.call("GET", `/opportunities/${brief}/deals`, { key });
    expect({ status: viaApi.status, message: viaApi.body.error.message }).toEqual({ status: 404, message: inbox.kind === "ERROR" ? inbox.message : "answered" });
    expect(await dealRow(dealId)).toEqual(before);
    const listed = await runForPage(listMyDeals, { caller: asPage(stranger), input: {}, context: context() });
    expect(listed.kind === "SUCCESS" && listed.items).toEqual([]);
  });

  it("refuses a move the table does not allow with the same sentence through the page and the API, and moves through both", async () => {
    const { creator, sponsor, dealId } = await application();
    const creatorKey = await api.keyFor(creator);

    const viaPage = (await runDealPage(creator, dealId, { intent: "accept", version: "1" })) as unknown as { init: { status: number }; data: { message: string; reason: string } };
    const viaApi = await api.call("POST", `/deals/${dealId}/moves`, { key: creatorKey, body: { action: "accept", version: 1 } });
    expect(viaPage.init.status).toBe(409);
    expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 409, code: "not_your_turn", message: viaPage.data.message });
    expect(viaPage.data).toMatchObject({ reason: "NOT_YOUR_TURN", message: "The other side is to answer these terms." });

    // A version that is not a number, forged in the page's form, is terms that changed, as it was before the page used the operation.
    const forged = (await runDealPage(sponsor, dealId, { intent: "accept", version: "latest" })) as unknown as typeof viaPage;
    expect({ status: forged.init.status, reason: forged.data.reason }).toEqual({ status: 409, reason: "TERMS_CHANGED" });

    // The sponsor counters on the page; the creator reads it through the API and accepts there; the page reads the agreement.
    const countered = (await runDealPage(sponsor, dealId, { intent: "counter", ...termsPost({ price: "600" }) })) as Response;
    expect(countered.headers.get("Location")).toBe(`/app/deals/${dealId}`);
    const read = await api.call("GET", `/deals/${dealId}`, { key: creatorKey });
    expect(read.body).toMatchObject({ waitingOnYou: true, fees: { price: 60_000, platformFee: 3_000, creatorReceives: 57_000 } });
    expect((await api.call("POST", `/deals/${dealId}/moves`, { key: creatorKey, body: { action: "accept", version: read.body.versions.at(-1).version } })).status).toBe(200);
    const agreed = await runForPage(readDeal, { caller: asPage(sponsor), input: { dealId }, context: context() });
    expect(agreed.kind === "SUCCESS" && { state: agreed.deal.state, accepted: agreed.deal.accepted?.version, split: agreed.split.creatorReceives }).toEqual({ state: "agreed", accepted: 2, split: 57_000 });
    expect(await db().select().from(dealTerms).where(eq(dealTerms.dealId, dealId))).toHaveLength(2);
  });

  it("holds a counter's terms to the form's rules: the page's and the API's messages are the same sentences", async () => {
    const { creator, dealId } = await application();
    const viaPage = (await runDealPage(creator, dealId, { intent: "counter", ...termsPost({ price: "0.10", autoApproveDays: "31" }) })) as unknown as { init: { status: number }; data: { errors: Record<string, string> } };
    expect(viaPage.init.status).toBe(400);
    const viaApi = await api.call("POST", `/deals/${dealId}/moves`, { key: await api.keyFor(creator), body: { action: "counter", terms: { ...TERMS_JSON, price: 10, autoApproveDays: 31 } } });
    expect(viaApi.status).toBe(400);
    expect(viaApi.body.error.fields).toEqual({ "body.terms.price": viaPage.data.errors.price, "body.terms.autoApproveDays": viaPage.data.errors.autoApproveDays });
    expect(await db().select().from(dealTerms).where(eq(dealTerms.dealId, dealId))).toHaveLength(1);
  });

  it("admits the same callers through every door", async () => {
    const { creator, dealId, brief } = await application();
    const guest: Caller = { kind: "guest" };
    const unverified: Caller = { kind: "person", uid: creator, emailVerified: false };
    const deps = context();
    const calls = [
      (caller: Caller) => runOperation(listMyDeals, { caller, input: {}, deps }),
      (caller: Caller) => runOperation(readDeal, { caller, input: { dealId }, deps }),
      (caller: Caller) => runOperation(listDealsOnOpportunity, { caller, input: { opportunityId: brief }, deps }),
      (caller: Caller) => runOperation(openDeal, { caller, input: { opportunityId: brief, pitch: "Hi", terms: TERMS_JSON }, deps, client }),
      (caller: Caller) => runOperation(moveDeal, { caller, input: { dealId, move: { action: "withdraw" } }, deps, client }),
    ];
    for (const call of calls) {
      expect(await call(guest)).toEqual({ kind: "ERROR", code: "unauthenticated", message: "Sign in first." });
      expect(await call(unverified)).toEqual({ kind: "ERROR", code: "permission-denied", message: "Verify your email address first." });
    }
    expect((await dealRow(dealId)).state).toBe("proposed");
  });
});
