import type { AppLoadContext } from "react-router";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications, user } from "#server/platform/db/schema";
import { parseBioPageForm, type BioPageFormInput } from "#server/domains/bio/form";
import { createBioPage, getOwnPage } from "#server/domains/bio/pages";
import { sendNotification } from "#server/domains/notifications/send";
import { runOperation, type Caller } from "#server/features/operations/operation";
import { listBioPages } from "#server/features/operations/bio-pages/list";
import { readBioPage } from "#server/features/operations/bio-pages/read";
import { saveBioPageEditor } from "#server/features/operations/bio-pages/save-editor";
import { updateBioPage } from "#server/features/operations/bio-pages/update";
import { deleteNotification } from "#server/features/operations/notifications/delete";
import { listNotifications } from "#server/features/operations/notifications/list";
import { markAllNotificationsRead, markNotificationRead } from "#server/features/operations/notifications/mark-read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { bioEditAction } from "#app/routes/bio/edit-action.server";
import { encodeCursor } from "#server/features/api/paging";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { pageStop } from "#tests/support/page-stop";

const BIO_ORIGIN = "http://bio.test";
const UNVERIFIED_NOW = "Verify your email address in the app first: posting and editing need a verified address.";

/**
 * What the notification and bio page operations guarantee whichever door they are reached by: the
 * page (its loader or action, through runForPage, or the editor's own action) and /api/v1 (a key).
 * Another account's notification or page is no one's (not-found, nothing changes); the editor's
 * rules say the same message about the same field; an address unverified now is refused by both.
 */
describe.each(ENGINES)("notification and bio page operations through every door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 10_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });
  const context = () => ({ db: db(), payments: sandbox.provider, config: { PUBLIC_ORIGIN: "http://app.test", PLATFORM_FEE_PERCENT: 0, BIO_ORIGIN }, sessionSecret: "x".repeat(32) });
  /** As the page's guard (requireVerifiedUser) finds a signed-in, verified person. */
  const personOf = (uid: string) => ({ id: uid, email: `${uid}@doors.example`, name: "Dana", emailVerified: true, image: null });
  const asPage = (uid: string) => pageCaller(personOf(uid));

  async function notificationOf(uid: string): Promise<string> {
    const title = `Note ${Math.random().toString(36).slice(2, 10)}`;
    await sendNotification(db(), { uid, kind: "general", title, message: `About ${title}` }, notificationDeps(db()));
    const [row] = await db().select({ id: notifications.id }).from(notifications).where(and(eq(notifications.uid, uid), eq(notifications.title, title)));
    return row!.id;
  }
  const notificationRow = async (id: string) => (await db().select().from(notifications).where(eq(notifications.id, id)))[0];

  const form: BioPageFormInput = { name: "Dana Draws", customEnding: "", blurb: "Comics.", links: [{ type: "youtube", url: "https://youtube.com/@dana" }], sponsorships: [] };
  async function bioPageOf(uid: string): Promise<string> {
    const parsed = parseBioPageForm(form);
    if (parsed.kind === "ERROR") throw new Error(JSON.stringify(parsed.fieldErrors));
    const created = await createBioPage(db(), { uid }, parsed.form);
    if (created.kind === "ERROR") throw new Error(created.message);
    return created.id;
  }

  /** The editor's Save, as a browser posts it: the whole form (the page, its look, tips, wall and goal), every field a string. */
  function editorPost(fields: { name: string; blurb: string; linkType: string; linkUrl: string; customEnding?: string }): Request {
    const body = new URLSearchParams({
      name: fields.name,
      customEnding: fields.customEnding ?? "",
      blurb: fields.blurb,
      linkType: fields.linkType,
      linkUrl: fields.linkUrl,
      linkTitle: "",
      themePreset: "mono",
      themeFont: "system",
      acceptTips: "on",
      preset0: "3",
      preset1: "5",
      preset2: "10",
      tipMinimum: "1",
      thankYouMessage: "",
      goalTitle: "",
      goalTarget: "",
    });
    return new Request("http://app.test/app/account/bizbio/edit", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
  }
  const runEditor = (uid: string, pageId: string, request: Request) => bioEditAction(request, context() as unknown as AppLoadContext, personOf(uid), pageId);

  it("answers another account's notification as not found through the page and the API alike, and leaves it unread and there", async () => {
    const owner = await api.newAccount();
    const stranger = await api.newAccount();
    const id = await notificationOf(owner);
    const key = await api.keyFor(stranger);
    const notFound = { kind: "ERROR", code: "not-found", message: "We couldn't find that notification." };

    expect(await runForPage(markNotificationRead, { caller: asPage(stranger), input: { notificationId: id }, context: context(), notFound: "answer" })).toEqual(notFound);
    expect(await runForPage(deleteNotification, { caller: asPage(stranger), input: { notificationId: id }, context: context(), notFound: "answer" })).toEqual(notFound);
    for (const [method, path] of [["POST", `/notifications/${id}/read`], ["DELETE", `/notifications/${id}`]] as const) {
      const viaApi = await api.call(method, path, { key });
      expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 404, code: "not_found", message: notFound.message });
    }
    // Mark all read is about the caller's own: the stranger's marks none of the owner's.
    expect(await runForPage(markAllNotificationsRead, { caller: asPage(stranger), input: {}, context: context() })).toMatchObject({ kind: "SUCCESS", count: 0 });
    expect((await api.call("POST", "/notifications/read-all", { key })).body).toMatchObject({ count: 0 });
    expect(await notificationRow(id)).toMatchObject({ unread: true, readOn: null });

    // The owner, through either door, reaches the same notification.
    expect(await runForPage(markNotificationRead, { caller: asPage(owner), input: { notificationId: id }, context: context(), notFound: "answer" })).toMatchObject({ kind: "SUCCESS", id });
    const again = await api.call("POST", `/notifications/${id}/read`, { key: await api.keyFor(owner) });
    expect(again.body).toMatchObject({ id, unread: false });
    expect(new Date(again.body.readAt).getTime()).toBe((await notificationRow(id))!.readOn!.getTime());
  });

  it("lists only the caller's notifications through both doors, and refuses a list cursor it does not know, each door in its words", async () => {
    const owner = await api.newAccount();
    const mine = await notificationOf(owner);
    await notificationOf(await api.newAccount());
    const listed = await runForPage(listNotifications, { caller: asPage(owner), input: { cursor: null }, context: context() });
    expect(listed.kind === "SUCCESS" && listed.notifications.map((n) => n.id)).toEqual([mine]);
    const key = await api.keyFor(owner);
    expect((await api.call("GET", "/notifications", { key })).body.data.map((n: { id: string }) => n.id)).toEqual([mine]);

    // The list's own cursor garbled: the page's loader shows the domain's sentence, the API its own about its cursor.
    expect(await runForPage(listNotifications, { caller: asPage(owner), input: { cursor: "yesterday" }, context: context() })).toEqual({
      kind: "ERROR",
      code: "invalid-argument",
      message: "That page of notifications does not exist. Start again from the newest.",
    });
    const wire = { code: "invalid_cursor", message: "This cursor is not one of ours. Start again from the first page." };
    for (const cursor of [encodeCursor({ after: "yesterday" }), "not-even-base64-json"]) {
      const viaApi = await api.call("GET", `/notifications?cursor=${encodeURIComponent(cursor)}`, { key });
      expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 400, ...wire });
    }
  });

  it("answers another account's bio page as not found through the editor and the API alike, and changes nothing", async () => {
    const owner = await api.newAccount();
    const stranger = await api.newAccount();
    const pageId = await bioPageOf(owner);
    const key = await api.keyFor(stranger);
    const message = "This page doesn't exist or was deleted.";

    expect(await runForPage(readBioPage, { caller: asPage(stranger), input: { pageId }, context: context(), notFound: "answer" })).toEqual({ kind: "ERROR", code: "not-found", message });
    // The editor's action stops with the 404 page, in the domain's words, before it reads the form.
    expect(await pageStop(() => runEditor(stranger, pageId, editorPost({ name: "Taken over", blurb: "", linkType: "", linkUrl: "" })))).toEqual({ status: 404, message });
    expect(await runForPage(updateBioPage, { caller: asPage(stranger), input: { pageId, changes: { name: "Taken over" } }, context: context(), notFound: "answer" })).toMatchObject({ code: "not-found", message });
    for (const [method, body] of [["GET", undefined], ["PATCH", { name: "Taken over" }]] as const) {
      const viaApi = await api.call(method, `/bio-pages/${pageId}`, { key, body });
      expect({ status: viaApi.status, code: viaApi.body.error.code, message: viaApi.body.error.message }).toEqual({ status: 404, code: "not_found", message });
    }
    const listed = await runForPage(listBioPages, { caller: asPage(stranger), input: {}, context: context() });
    expect(listed.kind === "SUCCESS" && listed.pages).toEqual([]);
    expect((await api.call("GET", "/bio-pages", { key })).body.data).toEqual([]);
    const stored = await getOwnPage(db(), { uid: owner }, pageId);
    expect(stored.kind === "SUCCESS" && stored.page.name).toBe(form.name);
  });

  it("says the editor's same message about the same field through the editor's form and the API, and saves through both", async () => {
    const owner = await api.newAccount();
    const pageId = await bioPageOf(owner);
    const key = await api.keyFor(owner);
    const badLink = { type: "youtube", url: "https://example.com/not-youtube" };

    const viaEditor = await runEditor(owner, pageId, editorPost({ name: "Dana Draws", blurb: "Comics.", linkType: badLink.type, linkUrl: badLink.url }));
    type Drawn = { init: { status: number }; data: { editor: { errors: { page: Record<string, string> }; values: { page: { links: { url: string }[] } } } } };
    const editorAnswer = viaEditor as unknown as Drawn;
    expect(editorAnswer.init.status).toBe(400);
    const viaApi = await api.call("PATCH", `/bio-pages/${pageId}`, { key, body: { links: [badLink] } });
    expect(viaApi.status).toBe(400);
    expect(editorAnswer.data.editor.errors.page["links.0"]).toEqual(expect.any(String));
    expect(viaApi.body.error.fields).toEqual({ "body.links.0": editorAnswer.data.editor.errors.page["links.0"] });
    // The editor shows back what was typed; nothing was saved.
    expect(editorAnswer.data.editor.values.page.links[0]!.url).toBe(badLink.url);
    const unchanged = await getOwnPage(db(), { uid: owner }, pageId);
    expect(unchanged.kind === "SUCCESS" && unchanged.page.links.map((l) => l.url)).toEqual(["https://youtube.com/@dana"]);

    // The form's ending is the form's to send (the API has no such field) and the operation's to refuse: it is permanent.
    const renamed = (await runEditor(owner, pageId, editorPost({ name: "Dana Draws", blurb: "", linkType: "", linkUrl: "", customEnding: "dana_elsewhere" }))) as unknown as Drawn;
    expect({ status: renamed.init.status, errors: renamed.data.editor.errors.page }).toEqual({ status: 400, errors: { customEnding: "The custom ending is permanent and can't be changed" } });
    expect((await api.call("PATCH", `/bio-pages/${pageId}`, { key, body: { customEnding: "dana_elsewhere" } })).status).toBe(400);

    // A good save through the editor goes back to Your Pages with its toast; the API reads what it saved.
    const saved = (await runEditor(owner, pageId, editorPost({ name: "Dana Paints", blurb: "Paintings.", linkType: "youtube", linkUrl: "https://youtube.com/@dana" }))) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/app/account/bizbio");
    expect((await api.call("GET", `/bio-pages/${pageId}`, { key })).body).toMatchObject({ name: "Dana Paints", blurb: "Paintings." });
    // And the API's partial save keeps what it did not send, which the editor then shows.
    expect((await api.call("PATCH", `/bio-pages/${pageId}`, { key, body: { blurb: "Both." } })).body).toMatchObject({ name: "Dana Paints", blurb: "Both." });
    const read = await runForPage(readBioPage, { caller: asPage(owner), input: { pageId }, context: context(), notFound: "answer" });
    expect(read.kind === "SUCCESS" && { name: read.page.name, blurb: read.page.blurb }).toEqual({ name: "Dana Paints", blurb: "Both." });
  });

  it("refuses a key whose account's address is unverified now, and admits the same callers through every door", async () => {
    const owner = await api.newAccount();
    const pageId = await bioPageOf(owner);
    const key = await api.keyFor(owner);
    await db().update(user).set({ emailVerified: false }).where(eq(user.id, owner));
    // A key outlives its account's address: the API reads the account again. (A page's session is read
    // from the account on this very request, so its door is refused by the guard: `unverified` below.)
    for (const [method, path, body] of [["GET", "/bio-pages", undefined], ["GET", `/bio-pages/${pageId}`, undefined], ["PATCH", `/bio-pages/${pageId}`, { name: "Renamed" }]] as const) {
      const viaApi = await api.call(method, path, { key, body });
      expect({ status: viaApi.status, message: viaApi.body.error.message }).toEqual({ status: 403, message: UNVERIFIED_NOW });
    }
    const stored = await getOwnPage(db(), { uid: owner }, pageId);
    expect(stored.kind === "SUCCESS" && stored.page.name).toBe(form.name);

    const guest: Caller = { kind: "guest" };
    const unverified: Caller = { kind: "person", uid: owner, emailVerified: false };
    const refused = { guest: { kind: "ERROR", code: "unauthenticated", message: "Sign in first." }, unverified: { kind: "ERROR", code: "permission-denied", message: "Verify your email address first." } };
    const deps = { db: db(), payments: sandbox.provider, config: context().config };
    // Each operation run as every door runs it; the same two refusals whoever's door it is.
    const calls = [
      (caller: Caller) => runOperation(listNotifications, { caller, input: { cursor: null }, deps }),
      (caller: Caller) => runOperation(markNotificationRead, { caller, input: { notificationId: crypto.randomUUID() }, deps }),
      (caller: Caller) => runOperation(markAllNotificationsRead, { caller, input: {}, deps }),
      (caller: Caller) => runOperation(deleteNotification, { caller, input: { notificationId: "x" }, deps }),
      (caller: Caller) => runOperation(listBioPages, { caller, input: {}, deps }),
      (caller: Caller) => runOperation(readBioPage, { caller, input: { pageId }, deps }),
      (caller: Caller) => runOperation(updateBioPage, { caller, input: { pageId, changes: {} }, deps }),
      (caller: Caller) => runOperation(saveBioPageEditor, { caller, input: { pageId, page: {}, theme: {}, support: {}, wallGoal: {} }, deps }),
    ];
    for (const call of calls) {
      expect(await call(guest)).toEqual(refused.guest);
      expect(await call(unverified)).toEqual(refused.unverified);
    }
  });
});
