import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { opportunityPosts, tags, user } from "#server/platform/db/schema";
import { getOpportunity } from "#server/domains/opportunities/read";
import { runOperation, type Caller } from "#server/features/operations/operation";
import { deleteOwnOpportunity } from "#server/features/operations/opportunities/delete";
import { readOpportunity } from "#server/features/operations/opportunities/read";
import { changeOpportunity, postOpportunity } from "#server/features/operations/opportunities/write";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { ownPostRefusal } from "#app/routes/opportunities/own-post.server";
import { apiHarness, TEST_API_CONFIG } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { pageStatus } from "#tests/support/page-stop";

/**
 * What the opportunity operations guarantee whichever door they are reached by (the detail page,
 * the New and Edit forms, /api/v1): someone else's post is not-found and stays as it was, a field
 * the form refuses says the same sentence at both doors (each in its own field names), and only
 * the poster reads a post our team took down.
 */
describe.each(ENGINES)("opportunity operations through every door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider });
  const context = () => ({ db: api.db, payments: sandbox.provider, config: TEST_API_CONFIG });
  const person = (uid: string) => pageCaller({ id: uid, email: `${uid}@api.example`, emailVerified: true, name: "x", image: null });
  const form = { title: "Sponsor our podcast", description: "Weekly show about making things." };
  const tag = `doors ${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    await api.db.insert(tags).values({ kind: "other", name: tag });
  });

  async function ownerAndPost() {
    const ownerUid = await api.newAccount("Olive Owner");
    const made = await runOperation(postOpportunity, { caller: person(ownerUid), input: { fields: { ...form, tags: [tag] } }, deps: context() });
    if (made.kind !== "SUCCESS") throw new Error(JSON.stringify(made));
    return { ownerUid, id: made.id };
  }

  it("refuses a stranger's change and delete as not-found through the page and the API, and the post stays as it was", async () => {
    const { id } = await ownerAndPost();
    const strangerUid = await api.newAccount("Sam Stranger");
    const key = await api.keyFor(strangerUid);

    // The page door: the operation's not-found, which the pages have always said as 403, "not yours".
    const changed = await runForPage(changeOpportunity, { caller: person(strangerUid), input: { opportunityId: id, changes: { ...form, title: "Theirs now" } }, context: context(), notFound: "answer" });
    expect(changed).toMatchObject({ kind: "ERROR", code: "not-found", reason: "NOT_YOURS" });
    if (changed.kind === "ERROR" && changed.code === "not-found") expect(ownPostRefusal(changed)).toEqual({ kind: "ERROR", code: "permission-denied", message: "Only the person who posted this opportunity can change it." });
    const deleted = await runForPage(deleteOwnOpportunity, { caller: person(strangerUid), input: { opportunityId: id }, context: context(), notFound: "answer" });
    expect(deleted).toMatchObject({ kind: "ERROR", code: "not-found", reason: "NOT_YOURS" });
    // Without the pages' wording it is the 404 page, as for any page that is not the caller's.
    expect(await pageStatus(() => runForPage(deleteOwnOpportunity, { caller: person(strangerUid), input: { opportunityId: id }, context: context() }))).toBe(404);

    // The API door: not_found, in words that do not say the post exists.
    for (const [method, body] of [["PATCH", { title: "Theirs now" }], ["DELETE", undefined]] as const) {
      const refused = await api.call(method, `/opportunities/${id}`, { key, body });
      expect({ status: refused.status, code: refused.body.error.code, message: refused.body.error.message }).toEqual({ status: 404, code: "not_found", message: "There is no such opportunity." });
    }
    expect(await getOpportunity(api.db, id, null)).toMatchObject({ title: form.title });
  });

  it("tells a post that is not there from someone else's on the page, and not at all through the API", async () => {
    const uid = await api.newAccount();
    const missing = "9999999999_nothing";
    const refused = await runForPage(deleteOwnOpportunity, { caller: person(uid), input: { opportunityId: missing }, context: context(), notFound: "answer" });
    expect(refused).toMatchObject({ kind: "ERROR", code: "not-found", reason: "NOT_FOUND" });
    if (refused.kind === "ERROR" && refused.code === "not-found") expect(ownPostRefusal(refused)).toEqual({ kind: "ERROR", code: "not-found", message: "This opportunity doesn't exist or was deleted." });
    const viaApi = await api.call("DELETE", `/opportunities/${missing}`, { key: await api.keyFor(uid) });
    expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 404, code: "not_found", message: "There is no such opportunity." });
  });

  it("says the same sentence for a refused field through the page and the API, each in its own field names", async () => {
    const uid = await api.newAccount();
    const viaPage = await runForPage(postOpportunity, { caller: person(uid), input: { fields: { ...form, title: "", deadlineDate: "2030-02-30", deadlineTime: "17:00", deadlineTimeZone: "UTC" } }, context: context() });
    expect(viaPage).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_FIELDS" });
    const pageErrors = (viaPage as { fieldErrors: Record<string, string> }).fieldErrors;
    expect(pageErrors.title).toBe("Required");
    expect(pageErrors.deadlineDate).toEqual(expect.any(String));

    const viaApi = await api.call("POST", "/opportunities", { key: await api.keyFor(uid), body: { ...form, title: "", deadline: { date: "2030-02-30", time: "17:00", timeZone: "UTC" } } });
    expect(viaApi.status).toBe(400);
    expect(viaApi.body.error.code).toBe("invalid_request");
    expect(viaApi.body.error.fields).toEqual({ "body.title": pageErrors.title, "body.deadline.date": pageErrors.deadlineDate });
  });

  it("refuses an unknown tag with the tag named: above the page's form, and in the API's `fields`", async () => {
    const uid = await api.newAccount();
    const viaPage = await runForPage(postOpportunity, { caller: person(uid), input: { fields: { ...form, tags: ["no such tag here"] } }, context: context() });
    expect(viaPage).toEqual({ kind: "ERROR", code: "invalid-argument", message: "Unknown tag: no such tag here", fieldErrors: { tags: "Unknown tag: no such tag here" } });
    const viaApi = await api.call("POST", "/opportunities", { key: await api.keyFor(uid), body: { ...form, tags: ["no such tag here"] } });
    expect({ status: viaApi.status, fields: viaApi.body.error.fields }).toEqual({ status: 400, fields: { "body.tags": "Unknown tag: no such tag here" } });
  });

  it("shows a post our team took down to its poster alone, through the page and the API; a guest reads live posts on the page", async () => {
    const { ownerUid, id } = await ownerAndPost();
    const strangerUid = await api.newAccount();
    expect(await runForPage(readOpportunity, { caller: { kind: "guest" }, input: { opportunityId: id }, context: context() })).toMatchObject({ post: { id, removedReason: null } });
    await api.db.update(opportunityPosts).set({ removedAt: new Date(), removedReason: "Spam.", removedBy: "staff@example.com" }).where(eq(opportunityPosts.id, id));

    expect(await pageStatus(() => runForPage(readOpportunity, { caller: person(strangerUid), input: { opportunityId: id }, context: context() }))).toBe(404);
    expect(await pageStatus(() => runForPage(readOpportunity, { caller: { kind: "guest" }, input: { opportunityId: id }, context: context() }))).toBe(404);
    expect((await api.call("GET", `/opportunities/${id}`, { key: await api.keyFor(strangerUid) })).status).toBe(404);

    expect(await runForPage(readOpportunity, { caller: person(ownerUid), input: { opportunityId: id }, context: context() })).toMatchObject({ post: { id, removedReason: "Spam." } });
    expect((await api.call("GET", `/opportunities/${id}`, { key: await api.keyFor(ownerUid) })).body).toMatchObject({ id, removed: { reason: "Spam." } });
  });

  it("admits the same callers whichever door asks: a guest signs in, an unverified person verifies, and an account whose address is no longer verified cannot write", async () => {
    const { ownerUid, id } = await ownerAndPost();
    const guest: Caller = { kind: "guest" };
    const unverified: Caller = { kind: "person", uid: ownerUid, emailVerified: false };
    const writes: ((caller: Caller) => Promise<unknown>)[] = [
      (caller) => runOperation(postOpportunity, { caller, input: { fields: form }, deps: context() }),
      (caller) => runOperation(changeOpportunity, { caller, input: { opportunityId: id, changes: { title: "x" } }, deps: context() }),
      (caller) => runOperation(deleteOwnOpportunity, { caller, input: { opportunityId: id }, deps: context() }),
    ];
    for (const write of writes) {
      expect(await write(guest)).toEqual({ kind: "ERROR", code: "unauthenticated", message: "Sign in first." });
      expect(await write(unverified)).toEqual({ kind: "ERROR", code: "permission-denied", message: "Verify your email address first." });
    }
    // A key outlives its account's address: the account's own record decides, for a key and a session alike.
    const key = await api.keyFor(ownerUid);
    await api.db.update(user).set({ emailVerified: false }).where(eq(user.id, ownerUid));
    const viaKey = await runOperation(deleteOwnOpportunity, { caller: { kind: "api-key", uid: ownerUid }, input: { opportunityId: id }, deps: context() });
    expect(viaKey).toMatchObject({ kind: "ERROR", code: "permission-denied", reason: "EMAIL_NOT_VERIFIED" });
    expect((await api.call("DELETE", `/opportunities/${id}`, { key })).body.error.code).toBe("email_not_verified");
    expect(await getOpportunity(api.db, id, ownerUid)).toMatchObject({ id });
  });

  it("names the field in a sentence when the input is not even text", async () => {
    const uid = await api.newAccount();
    const refused = await runOperation(postOpportunity, { caller: { kind: "api-key", uid }, input: { fields: { title: 42 } }, deps: context() });
    expect(refused).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_INPUT", message: "title must be text.", issues: [{ field: "fields.title", message: "title must be text." }] });
  });
});
