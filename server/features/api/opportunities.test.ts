import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { opportunityPosts, tags, user } from "#server/platform/db/schema";
import { getOpportunity, listPostsBy } from "#server/domains/opportunities/read";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";

const post = { title: "Sponsor our podcast", description: "Weekly show about making things." };

describe.each(ENGINES)("the API's opportunities on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });
  // Tags of this file alone, so filtered lists hold only what these tests posted.
  const suffix = Math.random().toString(36).slice(2, 8);
  const tag = (name: string) => `api ${name} ${suffix}`;

  beforeAll(async () => {
    await api.db.insert(tags).values(["red", "green", "blue", "one", "two", "three", "four", "five", "six", "seven"].map((name) => ({ kind: "other" as const, name: tag(name) })));
  });

  async function postAs(key: string, body: object) {
    const answer = await api.call("POST", "/opportunities", { key, body: { ...post, ...body } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as string;
  }

  it("posts an opportunity through the form's rules, reads it back, and the app's pages see it", async () => {
    const uid = await api.newAccount("Pat Poster");
    const key = await api.keyFor(uid, ["opportunities:read", "opportunities:write"]);
    const created = await api.call("POST", "/opportunities", {
      key,
      body: {
        ...post,
        bullets: ["- 30-second read", "Link in notes"],
        organization: "Makers FM",
        website: "https://makers.example",
        minContribution: { amount: 50000, currency: "usd" },
        deadline: { date: "2030-07-15", time: "17:00", timeZone: "America/New_York" },
        contactEmail: "pat@makers.example",
        tags: [tag("Red"), tag("green")],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: post.title,
      bullets: ["30-second read", "Link in notes"],
      minContribution: { amount: 50000, currency: "usd" },
      deadline: { at: "2030-07-15T21:00:00.000Z", date: "2030-07-15", time: "17:00", timeZone: "America/New_York" },
      tags: [tag("red"), tag("green")],
      hearts: 0,
      liked: false,
      poster: { id: uid },
      removed: null,
    });
    const id = created.body.id as string;

    const read = await api.call("GET", `/opportunities/${id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    // The pages' own readers: My Posts and the detail page.
    expect((await listPostsBy(api.db, uid, null)).items.map((item) => item.id)).toEqual([id]);
    expect(await getOpportunity(api.db, id, null)).toMatchObject({ title: post.title, minContributionCents: 50000, organization: "Makers FM" });
  });

  it("names each field the form refuses, in the API's field names", async () => {
    const key = await api.keyFor(await api.newAccount());
    const refused = await api.call("POST", "/opportunities", {
      key,
      body: { title: "x".repeat(120), description: " ", website: "makers.example", deadline: { date: "2030-02-30", time: "17:00", timeZone: "UTC" }, tags: [tag("red"), "no such tag"] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
    expect(refused.body.error.fields).toEqual({
      "body.title": "Must be under 100 characters",
      "body.description": "Required",
      "body.website": "URL must start with either http:// or https://",
      "body.deadline.date": "Enter a real date: that day doesn't exist",
    });

    const skipped = await api.call("POST", "/opportunities", { key, body: { ...post, deadline: { date: "2030-03-10", time: "02:30", timeZone: "America/New_York" } } });
    expect(Object.keys(skipped.body.error.fields)).toEqual(["body.deadline.time"]);
    const unknownTag = await api.call("POST", "/opportunities", { key, body: { ...post, tags: [tag("red"), "no such tag"] } });
    expect(unknownTag.body.error.fields["body.tags"]).toContain("no such tag");
    const cents = await api.call("POST", "/opportunities", { key, body: { ...post, minContribution: { amount: 50050, currency: "usd" } } });
    expect(cents.body.error.fields).toEqual({ "body.minContribution.amount": "Whole dollars only: a multiple of 100 cents" });
    const missing = await api.call("POST", "/opportunities", { key, body: { description: "No title" } });
    expect(Object.keys(missing.body.error.fields)).toEqual(["body.title"]);
    const stray = await api.call("POST", "/opportunities", { key, body: { ...post, posterUid: "someone-else" } });
    expect(stray.status).toBe(400);
  });

  it("posts once for a retried request with the same Idempotency-Key", async () => {
    const uid = await api.newAccount();
    const key = await api.keyFor(uid);
    const headers = { "idempotency-key": `create-${suffix}` };
    const first = await api.call("POST", "/opportunities", { key, body: post, headers });
    const again = await api.call("POST", "/opportunities", { key, body: post, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect((await listPostsBy(api.db, uid, null)).items).toHaveLength(1);
  });

  it("pages through a tag-filtered list with cursors, newest first, as the list page orders it", async () => {
    const key = await api.keyFor(await api.newAccount());
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await postAs(key, { title: `Blue ${i}`, tags: i % 2 === 0 ? [tag("blue"), tag("one")] : [tag("blue")] }));
    // Ids sort newest second first; posts of one second keep their random part's order, as on the page.
    const newestFirst = [...ids].sort();

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?tags=${encodeURIComponent(tag("blue"))}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await api.call("GET", `/opportunities${query}`, { key });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst);

    const both = await api.call("GET", `/opportunities?tags=${encodeURIComponent(tag("blue"))}&tags=${encodeURIComponent(tag("ONE"))}`, { key });
    expect(both.body.data.map((item: { id: string }) => item.id)).toEqual([ids[0]!, ids[2]!, ids[4]!].sort());
    expect(both.body.nextCursor).toBeNull();
    expect(both.body.data[0]).toMatchObject({ tags: [tag("blue"), tag("one")], minContribution: { amount: 0, currency: "usd" }, deadline: null, liked: false });
    // Tag searches are logged as the list page logs them (SPEC §7.2).
    expect(api.searches.at(-1)).toMatchObject({ collection: "opportunity_posts", terms: [`tag_${tag("blue")}`, `tag_${tag("one")}`] });
  });

  it("refuses an unknown tag, too many tags and a cursor that is not ours with invalid_request", async () => {
    const key = await api.keyFor(await api.newAccount());
    const unknown = await api.call("GET", "/opportunities?tags=no%20such%20tag", { key });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "invalid_request", message: "Unknown tag: “no such tag”." });
    const seven = ["one", "two", "three", "four", "five", "six", "seven"].map((name) => `tags=${encodeURIComponent(tag(name))}`).join("&");
    expect((await api.call("GET", `/opportunities?${seven}`, { key })).body.error.code).toBe("invalid_request");
    for (const cursor of ["garbage", Buffer.from(JSON.stringify({ after: "'; drop table" })).toString("base64url")]) {
      const refused = await api.call("GET", `/opportunities?cursor=${cursor}`, { key });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
    }
    expect((await api.call("GET", "/opportunities?limit=0", { key })).body.error.fields).toHaveProperty(["query.limit"]);
  });

  it("changes only the fields sent, and removes the deadline with null", async () => {
    const uid = await api.newAccount();
    const key = await api.keyFor(uid);
    const id = await postAs(key, { organization: "Makers FM", deadline: { date: "2030-07-15", time: "09:30", timeZone: "Europe/Berlin" }, tags: [tag("red")] });

    const renamed = await api.call("PATCH", `/opportunities/${id}`, { key, body: { title: "Sponsor season two" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, title: "Sponsor season two", description: post.description, organization: "Makers FM", tags: [tag("red")] });
    expect(renamed.body.deadline).toMatchObject({ date: "2030-07-15", time: "09:30", timeZone: "Europe/Berlin" });

    const cleared = await api.call("PATCH", `/opportunities/${id}`, { key, body: { deadline: null, tags: [], minContribution: { amount: 1000, currency: "usd" } } });
    expect(cleared.body).toMatchObject({ deadline: null, tags: [], minContribution: { amount: 1000, currency: "usd" }, title: "Sponsor season two" });
    expect(await getOpportunity(api.db, id, null)).toMatchObject({ title: "Sponsor season two", applicationDeadline: null, minContributionCents: 1000 });

    const refused = await api.call("PATCH", `/opportunities/${id}`, { key, body: { title: "", contactEmail: "not an address" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({ "body.title": "Required", "body.contactEmail": "Enter a valid email address, like name@example.com" });
    expect((await getOpportunity(api.db, id, null))!.title).toBe("Sponsor season two");
  });

  it("deletes your own post: 204, then it is gone from the API and from My Posts", async () => {
    const uid = await api.newAccount();
    const key = await api.keyFor(uid);
    const id = await postAs(key, {});
    const deleted = await api.call("DELETE", `/opportunities/${id}`, { key });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await api.call("GET", `/opportunities/${id}`, { key })).status).toBe(404);
    expect((await api.call("DELETE", `/opportunities/${id}`, { key })).body.error.code).toBe("not_found");
    expect((await listPostsBy(api.db, uid, null)).items).toEqual([]);
  });

  it("another account's post is 404 to change or delete, and stays as it was", async () => {
    const owner = await api.keyFor(await api.newAccount());
    const id = await postAs(owner, { title: "Mine" });
    const stranger = await api.keyFor(await api.newAccount());
    expect((await api.call("GET", `/opportunities/${id}`, { key: stranger })).status).toBe(200);
    for (const [method, body] of [["PATCH", { title: "Theirs now" }], ["DELETE", undefined]] as const) {
      const refused = await api.call(method, `/opportunities/${id}`, { key: stranger, body });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe("not_found");
    }
    expect(await getOpportunity(api.db, id, null)).toMatchObject({ title: "Mine" });
    for (const missing of ["9999999999_nothing", "not-an-id", "%00"]) {
      expect((await api.call("GET", `/opportunities/${missing}`, { key: stranger })).status).toBe(404);
      expect((await api.call("PATCH", `/opportunities/${missing}`, { key: stranger, body: { title: "x" } })).status).toBe(404);
    }
  });

  it("a post our team took down leaves the list; only its poster can still read it, with the reason", async () => {
    const ownerUid = await api.newAccount();
    const owner = await api.keyFor(ownerUid);
    const id = await postAs(owner, { tags: [tag("green")] });
    const stranger = await api.keyFor(await api.newAccount());
    await api.db.update(opportunityPosts).set({ removedAt: new Date(), removedReason: "Spam.", removedBy: "staff@example.com" }).where(eq(opportunityPosts.id, id));

    const listed = await api.call("GET", `/opportunities?tags=${encodeURIComponent(tag("green"))}&limit=100`, { key: owner });
    expect(listed.body.data.map((item: { id: string }) => item.id)).not.toContain(id);
    expect((await api.call("GET", `/opportunities/${id}`, { key: stranger })).status).toBe(404);
    const own = await api.call("GET", `/opportunities/${id}`, { key: owner });
    expect(own.status).toBe(200);
    expect(own.body.removed).toEqual({ reason: "Spam." });
  });

  it("a suspended poster's posts leave the list and their pages", async () => {
    const posterUid = await api.newAccount();
    const id = await postAs(await api.keyFor(posterUid), { tags: [tag("three")] });
    const reader = await api.keyFor(await api.newAccount());
    await api.db.update(user).set({ disabled: true }).where(eq(user.id, posterUid));
    expect((await api.call("GET", `/opportunities?tags=${encodeURIComponent(tag("three"))}`, { key: reader })).body.data).toEqual([]);
    expect((await api.call("GET", `/opportunities/${id}`, { key: reader })).status).toBe(404);
  });

  it("needs a verified email address to post, change or delete, as the pages do", async () => {
    const uid = await api.newAccount();
    const key = await api.keyFor(uid);
    const id = await postAs(key, {});
    await api.db.update(user).set({ emailVerified: false }).where(eq(user.id, uid));
    for (const [method, path, body] of [["POST", "/opportunities", post], ["PATCH", `/opportunities/${id}`, { title: "x" }], ["DELETE", `/opportunities/${id}`, undefined]] as const) {
      const refused = await api.call(method, path, { key, body });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("email_not_verified");
    }
    expect((await api.call("GET", `/opportunities/${id}`, { key })).status).toBe(200);
  });

  it("each operation needs its scope", async () => {
    const uid = await api.newAccount();
    const writer = await api.keyFor(uid, ["opportunities:write"]);
    const reader = await api.keyFor(uid, ["opportunities:read"]);
    const others = await api.keyFor(uid, ["bio_pages:read", "bio_pages:write", "payments:read", "payments:write", "notifications:read", "notifications:write"]);
    const id = await postAs(writer, {});
    type Call = { method: string; path: string; body?: object };
    const reads: Call[] = [{ method: "GET", path: "/opportunities" }, { method: "GET", path: `/opportunities/${id}` }];
    const writes: Call[] = [{ method: "POST", path: "/opportunities", body: post }, { method: "PATCH", path: `/opportunities/${id}`, body: { title: "x" } }, { method: "DELETE", path: `/opportunities/${id}` }];
    const refusedCalls: [string, Call][] = [...reads.map((call): [string, Call] => [writer, call]), ...writes.map((call): [string, Call] => [reader, call]), ...[...reads, ...writes].map((call): [string, Call] => [others, call])];
    for (const [key, { method, path, body }] of refusedCalls) {
      const refused = await api.call(method, path, { key, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
    expect(await getOpportunity(api.db, id, null)).toMatchObject({ title: post.title });
  });
});
