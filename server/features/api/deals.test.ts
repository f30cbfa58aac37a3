import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { dealActivity, deals, dealTerms, notifications, opportunityPosts, profiles } from "#server/platform/db/schema";
import { apiHarness, type ApiAnswer } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { newOpportunityId } from "#server/domains/opportunities/ids";

const TERMS = {
  price: 75_000,
  currency: "usd",
  deliverables: [{ channel: "YouTube", format: "60-second integration", dueDate: "2099-03-01" }],
  usageRights: "organic",
  usageDays: 30,
  exclusivityDays: 0,
  disclosureRequired: true,
  sponsorApproves: true,
  autoApproveDays: 3,
  message: "",
};

describe.each(ENGINES)("deals through the API on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });
  const db = () => database.db;

  let creator: string;
  let sponsor: string;
  let creatorKey: string;
  let sponsorKey: string;
  let brief: string;
  let request: string;

  async function post(posterUid: string, kind: "brief" | "request"): Promise<string> {
    const id = newOpportunityId(new Date());
    await db().insert(opportunityPosts).values({ id, title: `A ${kind} ${id.slice(-4)}`, description: "d", posterUid, kind });
    return id;
  }
  async function person(name: string, paymentsEnabled = false): Promise<string> {
    const uid = await api.newAccount(name);
    await db().insert(profiles).values({ uid, name, paymentsEnabled });
    return uid;
  }
  const apply = (key: string, opportunityId: string, body: object = {}, headers: Record<string, string> = {}) =>
    api.call("POST", `/opportunities/${opportunityId}/deals`, { key, body: { pitch: "My audience loves gear reviews.", links: ["https://example.com/kit"], terms: TERMS, ...body }, headers });
  const move = (key: string, dealId: string, body: object, headers: Record<string, string> = {}) => api.call("POST", `/deals/${dealId}/moves`, { key, body, headers });
  const dealRow = async (id: string) => (await db().select().from(deals).where(eq(deals.id, id)))[0]!;

  beforeEach(async () => {
    creator = await person("Maya Makes", true);
    sponsor = await person("Gear Co");
    creatorKey = await api.keyFor(creator);
    sponsorKey = await api.keyFor(sponsor);
    brief = await post(sponsor, "brief");
    request = await post(creator, "request");
  });

  it("a creator applies to a brief; the sponsor reads it in the inbox, counters, and the creator accepts", async () => {
    const opened = await apply(creatorKey, brief);
    expect(opened.status).toBe(201);
    const dealId: string = opened.body.id;
    expect(dealId).toMatch(/^deal_/);

    const inbox = await api.call("GET", `/opportunities/${brief}/deals`, { key: sponsorKey });
    expect(inbox.status).toBe(200);
    expect(inbox.body.data).toEqual([
      expect.objectContaining({ id: dealId, state: "proposed", side: "sponsor", otherName: "Maya Makes", waitingOnYou: true, price: 75_000, currency: "usd", pitch: "My audience loves gear reviews." }),
    ]);
    const told = await db().select().from(notifications).where(and(eq(notifications.uid, sponsor), eq(notifications.kind, "deal-activity")));
    expect(told).toHaveLength(1);

    const seen = await api.call("GET", `/deals/${dealId}`, { key: sponsorKey });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: dealId, origin: "application", state: "proposed", side: "sponsor", waitingOnYou: true, openedBy: "creator", links: ["https://example.com/kit"], actions: ["counter", "accept", "decline", "withdraw", "shortlist"] });
    // TEST_API_CONFIG's fee is 5 %.
    expect(seen.body.fees).toEqual({ price: 75_000, platformFee: 3_750, creatorReceives: 71_250, percent: 5 });
    expect(seen.body.versions).toEqual([expect.objectContaining({ version: 1, proposedBy: "creator", price: 75_000, deliverables: TERMS.deliverables })]);

    expect((await move(sponsorKey, dealId, { action: "shortlist", shortlisted: true })).status).toBe(200);
    const countered = await move(sponsorKey, dealId, { action: "counter", terms: { ...TERMS, price: 60_000, exclusivityDays: 14, message: "A bit less, with exclusivity." } });
    expect(countered.status).toBe(200);
    expect(countered.body).toEqual({ id: dealId });

    const mine = await api.call("GET", `/deals/${dealId}`, { key: creatorKey });
    expect(mine.body).toMatchObject({ side: "creator", waitingOnYou: true, shortlisted: true, actions: ["counter", "accept", "decline", "withdraw"] });
    expect(mine.body.versions.map((v: { version: number; proposedBy: string; price: number; exclusivityDays: number }) => [v.version, v.proposedBy, v.price, v.exclusivityDays])).toEqual([
      [1, "creator", 75_000, 0],
      [2, "sponsor", 60_000, 14],
    ]);
    expect(mine.body.fees.price).toBe(60_000);

    const accepted = await move(creatorKey, dealId, { action: "accept", version: 2 });
    expect(accepted.status).toBe(200);
    const agreed = await dealRow(dealId);
    expect(agreed).toMatchObject({ state: "agreed", acceptedVersion: 2, acceptedBy: creator, acceptedFrom: "127.0.0.1" });
    expect((await api.call("GET", `/deals/${dealId}`, { key: sponsorKey })).body).toMatchObject({ state: "agreed", accepted: { version: 2, byYou: false }, actions: ["withdraw"] });
  });

  it("a sponsor offers on a creator's request; My deals lists it for both, ?waiting=true only where it waits, a page at a time", async () => {
    const offered = await apply(sponsorKey, request, { links: [] });
    expect(offered.status).toBe(201);
    const offerId: string = offered.body.id;
    const applied = await apply(creatorKey, brief);
    const applicationId: string = applied.body.id;

    const creators = await api.call("GET", "/deals", { key: creatorKey });
    expect(creators.status).toBe(200);
    expect(creators.body.data.map((d: { id: string; side: string; waitingOnYou: boolean }) => [d.id, d.side, d.waitingOnYou])).toEqual([
      [applicationId, "creator", false],
      [offerId, "creator", true],
    ]);
    expect(creators.body.nextCursor).toBeNull();
    expect((await api.call("GET", "/deals?waiting=true", { key: creatorKey })).body.data.map((d: { id: string }) => d.id)).toEqual([offerId]);
    expect((await api.call("GET", "/deals?waiting=true", { key: sponsorKey })).body.data.map((d: { id: string }) => d.id)).toEqual([applicationId]);

    const first = await api.call("GET", "/deals?limit=1", { key: creatorKey });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([applicationId]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second: ApiAnswer = await api.call("GET", `/deals?limit=1&cursor=${first.body.nextCursor}`, { key: creatorKey });
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([offerId]);
    expect(second.body.nextCursor).toBeNull();

    const forged = await api.call("GET", `/deals?cursor=${Buffer.from(JSON.stringify({ after: "x" })).toString("base64url")}`, { key: creatorKey });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe("invalid_cursor");

    // The creator declines the offer with a word; the sponsor sees it ended.
    const declined = await move(creatorKey, offerId, { action: "decline", message: "Not this season." });
    expect(declined.status).toBe(200);
    expect((await api.call("GET", `/deals/${offerId}`, { key: sponsorKey })).body).toMatchObject({ state: "declined", declineMessage: "Not this season.", endedByYou: false, actions: [] });
  });

  it("a move the table refuses is 409 with its sentence, and nothing changes", async () => {
    const dealId: string = (await apply(creatorKey, brief)).body.id;
    const notYours = await move(creatorKey, dealId, { action: "accept", version: 1 });
    expect(notYours.status).toBe(409);
    expect(notYours.body.error).toMatchObject({ code: "not_your_turn", message: "The other side is to answer these terms." });
    const shortlistOwn = await move(creatorKey, dealId, { action: "shortlist", shortlisted: true });
    expect(shortlistOwn.status).toBe(409);
    const stale = await move(sponsorKey, dealId, { action: "accept", version: 7 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("terms_changed");
    expect(await dealRow(dealId)).toMatchObject({ state: "proposed", waitingOn: "sponsor", shortlisted: false, acceptedAt: null });

    expect((await move(creatorKey, dealId, { action: "withdraw" })).status).toBe(200);
    const late = await move(sponsorKey, dealId, { action: "counter", terms: TERMS });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "wrong_state", message: "This deal has moved on since you opened it: nothing to do there now." });
    expect(await db().select().from(dealTerms).where(eq(dealTerms.dealId, dealId))).toHaveLength(1);

    // Accepting before the creator can be paid is the creator's to fix.
    const unpaid = await person("New Creator");
    const offer: string = (await apply(sponsorKey, await post(unpaid, "request"))).body.id;
    const refused = await move(await api.keyFor(unpaid), offer, { action: "accept", version: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("payouts_needed");
    expect((await dealRow(offer)).state).toBe("proposed");
  });

  it("names the JSON field of each problem, by the terms form's rules; refuses your own post and a second live deal", async () => {
    const bad = await apply(creatorKey, brief, { terms: { ...TERMS, price: 10, deliverables: [{ channel: "YouTube", format: "", dueDate: "2099-01-01" }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(bad.body.error.fields).toEqual({
      "body.terms.price": "The price must be from $0.50 to $10,000",
      "body.terms.deliverables": "Give each deliverable a channel, what is made and a due date",
    });
    const days = await apply(creatorKey, brief, { terms: { ...TERMS, autoApproveDays: 0, deliverables: [] } });
    expect(days.body.error.fields).toEqual({
      "body.terms.autoApproveDays": "The approval window must be a whole number of days from 1 to 30",
      "body.terms.deliverables": "Add at least one deliverable",
    });
    const pitch = await apply(creatorKey, brief, { pitch: "  ", links: ["ftp://nope"] });
    expect(pitch.status).toBe(400);
    expect(pitch.body.error.fields).toEqual({ "body.pitch": "Say why you are a good match", "body.links": "Each link must start with http:// or https://" });
    const counter = await move(sponsorKey, "deal_none", { action: "counter" });
    expect(counter.status).toBe(400);
    expect(Object.keys(counter.body.error.fields)).toEqual(["body.terms"]);
    expect((await move(sponsorKey, "deal_none", { action: "dance" })).body.error.fields).toHaveProperty(["body.action"]);
    expect(await db().select().from(deals).where(eq(deals.opportunityId, brief))).toEqual([]);

    const own = await apply(sponsorKey, brief);
    expect(own.status).toBe(400);
    expect(own.body.error.code).toBe("own_opportunity");
    expect((await apply(creatorKey, brief)).status).toBe(201);
    const again = await apply(creatorKey, brief);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("already_open");
    expect((await api.call("POST", "/opportunities/1234567890_none/deals", { key: creatorKey, body: { pitch: "Hi", terms: TERMS } })).status).toBe(404);
  });

  it("another account's deal and inbox are not_found, and nothing changes", async () => {
    const dealId: string = (await apply(creatorKey, brief)).body.id;
    const stranger = await person("Nosy Parker", true);
    const key = await api.keyFor(stranger);
    const before = await dealRow(dealId);
    for (const [method, path, body] of [
      ["GET", `/deals/${dealId}`, undefined],
      ["GET", `/opportunities/${brief}/deals`, undefined],
      ["POST", `/deals/${dealId}/moves`, { action: "accept", version: 1 }],
      ["POST", `/deals/${dealId}/moves`, { action: "withdraw" }],
      ["POST", `/deals/${dealId}/moves`, { action: "counter", terms: TERMS }],
    ] as const) {
      const refused = await api.call(method, path, { key, body });
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect(refused.body.error.code).toBe("not_found");
    }
    // The creator is on the deal but does not own the brief: its inbox is not theirs either.
    expect((await api.call("GET", `/opportunities/${brief}/deals`, { key: creatorKey })).status).toBe(404);
    expect(await dealRow(dealId)).toEqual(before);
    expect(await db().select().from(dealActivity).where(eq(dealActivity.dealId, dealId)).orderBy(asc(dealActivity.seq))).toHaveLength(1);
    expect((await api.call("GET", "/deals", { key })).body.data).toEqual([]);
  });

  it("reading needs deals:read; applying and moving deals:write (403 insufficient_scope)", async () => {
    const dealId: string = (await apply(creatorKey, brief)).body.id;
    const reader = await api.keyFor(sponsor, ["deals:read"]);
    expect((await api.call("GET", "/deals", { key: reader })).status).toBe(200);
    expect((await api.call("GET", `/deals/${dealId}`, { key: reader })).status).toBe(200);
    expect((await api.call("GET", `/opportunities/${brief}/deals`, { key: reader })).status).toBe(200);
    for (const refused of [await move(reader, dealId, { action: "decline" }), await apply(reader, request)]) {
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
    expect((await dealRow(dealId)).state).toBe("proposed");
    const other = await api.keyFor(sponsor, ["deals:write", "opportunities:read"]);
    for (const path of ["/deals", `/deals/${dealId}`, `/opportunities/${brief}/deals`]) expect((await api.call("GET", path, { key: other })).status, path).toBe(403);
  });

  it("an Idempotency-Key makes a retried apply or move act once and answer the same", async () => {
    const headers = { "Idempotency-Key": `apply-${Math.random()}` };
    const first = await apply(creatorKey, brief, {}, headers);
    const retry = await apply(creatorKey, brief, {}, headers);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect(await db().select().from(deals).where(eq(deals.opportunityId, brief))).toHaveLength(1);
    const reused = await apply(creatorKey, brief, { pitch: "Another pitch" }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency_key_reused");

    const counterHeaders = { "Idempotency-Key": `counter-${Math.random()}` };
    const counter = { action: "counter", terms: { ...TERMS, price: 50_000 } };
    expect((await move(sponsorKey, first.body.id, counter, counterHeaders)).status).toBe(200);
    const again = await move(sponsorKey, first.body.id, counter, counterHeaders);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().select().from(dealTerms).where(eq(dealTerms.dealId, first.body.id))).toHaveLength(2);
    // Without the key the same counter is a new move, which the table refuses: it is no longer the sponsor's turn.
    expect((await move(sponsorKey, first.body.id, counter)).status).toBe(409);
  });
});
