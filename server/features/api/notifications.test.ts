import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { notifications } from "#server/platform/db/schema";
import type { NotificationInput } from "#server/domains/notifications/send";
import { sendNotification } from "#server/domains/notifications/send";
import { apiHarness, type ApiAnswer } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";

describe.each(ENGINES)("notifications through the API on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider });
  const db = () => database.db;

  let uid: string;
  let key: string;
  beforeEach(async () => {
    uid = await api.newAccount("Nia Reader");
    key = await api.keyFor(uid);
  });

  /** A notification of `to`'s, written as the product writes them, dated `created`; its id. */
  async function notify(to: string, created: string, input: Partial<NotificationInput> = {}): Promise<string> {
    const title = input.title ?? `Note ${created} ${Math.random().toString(36).slice(2, 8)}`;
    await sendNotification(db(), { uid: to, kind: "general", message: `About ${title}`, ...input, title }, notificationDeps(db()));
    const [row] = await db()
      .update(notifications)
      .set({ created: sql`${created}::timestamptz` })
      .where(and(eq(notifications.uid, to), eq(notifications.title, title)))
      .returning({ id: notifications.id });
    return row!.id;
  }
  const row = async (id: string) => (await db().select().from(notifications).where(eq(notifications.id, id)))[0];
  const idsOf = (answer: { body: { data: { id: string }[] } }) => answer.body.data.map((n) => n.id);

  it("GET /notifications lists yours newest first, a page at a time, with the button as an absolute URL", async () => {
    const ids = [];
    for (let day = 1; day <= 5; day++) ids.push(await notify(uid, `2026-02-0${day}T09:00:00Z`));
    const paid = await notify(uid, "2026-02-06T09:00:00.000500Z", { kind: "payment-received", title: "You got paid", buttonText: "See it", buttonDestination: "/app/payments/setup" });
    await notify(await api.newAccount(), "2026-02-07T09:00:00Z");

    const first = await api.call("GET", "/notifications", { key });
    expect(first.status).toBe(200);
    expect(idsOf(first)).toEqual([paid, ...ids.toReversed()]);
    expect(first.body.nextCursor).toBeNull();
    expect(first.body.data[0]).toEqual({
      id: paid,
      kind: "payment-received",
      title: "You got paid",
      message: "About You got paid",
      unread: true,
      createdAt: "2026-02-06T09:00:00.000Z",
      readAt: null,
      // The spec's old path, rewritten as the notifications page rewrites it, on the app's origin.
      action: { text: "See it", url: "http://app.test/app/account/payments" },
    });
    expect(first.body.data[1].action).toBeNull();

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: ApiAnswer = await api.call("GET", `/notifications?limit=4${cursor ? `&cursor=${cursor}` : ""}`, { key });
      expect(page.status).toBe(200);
      pages.push(idsOf(page));
      cursor = page.body.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages).toEqual([
      [paid, ids[4], ids[3], ids[2]],
      [ids[1], ids[0]],
    ]);

    const forged = await api.call("GET", `/notifications?cursor=${Buffer.from(JSON.stringify({ after: "not-a-cursor" })).toString("base64url")}`, { key });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe("invalid_cursor");
    const bad = await api.call("GET", "/notifications?unread=maybe", { key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty(["query.unread"]);
  });

  it("POST /notifications/{id}/read marks it read once; ?unread=true leaves it out", async () => {
    const older = await notify(uid, "2026-03-01T09:00:00Z");
    const newer = await notify(uid, "2026-03-02T09:00:00Z");
    const marked = await api.call("POST", `/notifications/${older}/read`, { key });
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({ id: older, unread: false, readAt: (await row(older))!.readOn!.toISOString() });
    // Again: still read, with the time of its first reading.
    const again = await api.call("POST", `/notifications/${older}/read`, { key });
    expect(again.body.readAt).toBe(marked.body.readAt);

    expect(idsOf(await api.call("GET", "/notifications?unread=true", { key }))).toEqual([newer]);
    const all = await api.call("GET", "/notifications?unread=false", { key });
    expect(all.body.data.map((n: { id: string; unread: boolean; readAt: string | null }) => [n.id, n.unread, n.readAt])).toEqual([
      [newer, true, null],
      [older, false, marked.body.readAt],
    ]);
  });

  it("POST /notifications/read-all marks every unread one read and says how many", async () => {
    const read = await notify(uid, "2026-04-01T09:00:00Z");
    await api.call("POST", `/notifications/${read}/read`, { key });
    const readOn = (await row(read))!.readOn;
    await notify(uid, "2026-04-02T09:00:00Z");
    await notify(uid, "2026-04-03T09:00:00Z");
    const theirs = await notify(await api.newAccount(), "2026-04-04T09:00:00Z");

    const all = await api.call("POST", "/notifications/read-all", { key });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ count: 2, readAt: expect.any(String) });
    expect((await api.call("GET", "/notifications?unread=true", { key })).body.data).toEqual([]);
    expect((await row(read))!.readOn).toEqual(readOn);
    expect((await row(theirs))!.unread).toBe(true);
    expect((await api.call("POST", "/notifications/read-all", { key })).body.count).toBe(0);
  });

  it("DELETE /notifications/{id} answers 204 and it is gone; a second delete is 404", async () => {
    const id = await notify(uid, "2026-05-01T09:00:00Z");
    const deleted = await api.call("DELETE", `/notifications/${id}`, { key });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect(await row(id)).toBeUndefined();
    const again = await api.call("DELETE", `/notifications/${id}`, { key });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("not_found");
  });

  it("another account's notification does not exist for you: 404, and it is left as it was", async () => {
    const theirs = await notify(await api.newAccount(), "2026-06-01T09:00:00Z");
    for (const [method, path] of [
      ["POST", `/notifications/${theirs}/read`],
      ["DELETE", `/notifications/${theirs}`],
      ["POST", "/notifications/not-a-uuid/read"],
      ["DELETE", "/notifications/not-a-uuid"],
    ] as const) {
      const refused = await api.call(method, path, { key });
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect(refused.body.error.code).toBe("not_found");
    }
    expect(await row(theirs)).toMatchObject({ unread: true, readOn: null });
    expect((await api.call("GET", "/notifications", { key })).body.data).toEqual([]);
  });

  it("listing needs notifications:read; marking and deleting notifications:write (403 insufficient_scope)", async () => {
    const id = await notify(uid, "2026-07-01T09:00:00Z");
    const reader = await api.keyFor(uid, ["notifications:read"]);
    expect((await api.call("GET", "/notifications", { key: reader })).status).toBe(200);
    for (const [method, path] of [
      ["POST", `/notifications/${id}/read`],
      ["POST", "/notifications/read-all"],
      ["DELETE", `/notifications/${id}`],
    ] as const) {
      const refused = await api.call(method, path, { key: reader });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
    expect(await row(id)).toMatchObject({ unread: true });
    const writer = await api.keyFor(uid, ["notifications:write", "payments:read"]);
    expect((await api.call("GET", "/notifications", { key: writer })).status).toBe(403);
  });
});
