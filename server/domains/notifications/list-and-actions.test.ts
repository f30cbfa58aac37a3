import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notifications, user } from "#server/platform/db/schema";
import { deleteNotification, markAllAsRead, markAsRead } from "./actions";
import { listNotifications } from "./list";
import { sendNotification } from "./send";
import { countUnreadNotifications } from "./unread";
import { notificationDeps } from "#tests/support/payments";

let people = 0;
describe.each(ENGINES)("notifications screen on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  async function person(): Promise<string> {
    const uid = `alert-person-${++people}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@alerts.example`, emailVerified: true });
    return uid;
  }
  async function send(uid: string, title: string): Promise<string> {
    await sendNotification(db(), { uid, kind: "general", title, message: `About ${title}` }, notificationDeps(db()));
    const [row] = await db().select({ id: notifications.id }).from(notifications).where(eq(notifications.title, title));
    return row!.id;
  }
  const row = async (id: string) => (await db().select().from(notifications).where(eq(notifications.id, id)))[0];
  async function listAll(uid: string, pageSize: number) {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await listNotifications(db(), uid, { cursor, pageSize });
      if (page.kind !== "SUCCESS") throw new Error(page.message);
      pages.push(page.notifications.map((a) => a.title));
      cursor = page.nextCursor;
    } while (cursor && pages.length < 50);
    return pages;
  }

  let maya: string;
  let jordan: string;
  beforeAll(async () => {
    maya = await person();
    jordan = await person();
  });

  it("lists a person's alerts newest first, a page at a time, never another person's", async () => {
    const uid = await person();
    for (let i = 1; i <= 7; i++) await send(uid, `page-test-${uid}-${i}`);
    await send(jordan, `page-test-${jordan}-other`);
    const pages = await listAll(uid, 3);
    expect(pages).toEqual([
      [7, 6, 5].map((i) => `page-test-${uid}-${i}`),
      [4, 3, 2].map((i) => `page-test-${uid}-${i}`),
      [`page-test-${uid}-1`],
    ]);
    // A page that is exactly full has no next page.
    const exact = await listNotifications(db(), uid, { pageSize: 7 });
    expect(exact).toMatchObject({ kind: "SUCCESS", nextCursor: null });
  });

  it("breaks ties of the same created instant by id, and pages through them without repeats", async () => {
    const uid = await person();
    const created = new Date("2026-11-01T10:00:00.123Z");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [inserted] = await db().insert(notifications).values({ uid, title: `tie-${i}`, message: "same instant", created }).returning({ id: notifications.id });
      ids.push(inserted!.id);
    }
    const titles = (await listAll(uid, 2)).flat();
    expect(titles).toHaveLength(5);
    expect(new Set(titles).size).toBe(5);
    const page = await listNotifications(db(), uid, { pageSize: 5 });
    if (page.kind !== "SUCCESS") throw new Error(page.message);
    expect(page.notifications.map((a) => a.id)).toEqual([...ids].sort().reverse());
  });

  it("pages by microseconds, not by the millisecond a JavaScript date keeps", async () => {
    const uid = await person();
    // Three notifications within one millisecond: a cursor rounded to milliseconds would skip or repeat them.
    for (const micros of ["2026-11-02 10:00:00.000100+00", "2026-11-02 10:00:00.000200+00", "2026-11-02 10:00:00.000300+00"]) {
      await db().insert(notifications).values({ uid, title: `micro-${micros.slice(20, 26)}`, message: "m", created: new Date(micros) });
      await db().execute(`update notifications set created = '${micros}' where uid = '${uid}' and title = 'micro-${micros.slice(20, 26)}'`);
    }
    expect((await listAll(uid, 1)).flat()).toEqual(["micro-000300", "micro-000200", "micro-000100"]);
  });

  it("refuses a malformed cursor with invalid-argument instead of failing in SQL", async () => {
    for (const cursor of ["nope", "123_not-a-uuid", "99999999999999999999_00000000-0000-0000-0000-000000000000", "1_' or 1=1 --"]) {
      expect(await listNotifications(db(), maya, { cursor })).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    }
  });

  it("marks an alert read once: read_on keeps its first date, and the unread count drops", async () => {
    const id = await send(maya, "read-me");
    const before = await countUnreadNotifications(db(), maya);
    const first = await markAsRead(db(), maya, id);
    expect(first).toMatchObject({ kind: "SUCCESS", id });
    expect(await countUnreadNotifications(db(), maya)).toBe(before - 1);
    const stored = await row(id);
    expect(stored).toMatchObject({ unread: false });
    expect(stored!.readOn).toBeInstanceOf(Date);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await markAsRead(db(), maya, id);
    expect(again).toMatchObject({ kind: "SUCCESS" });
    expect((await row(id))!.readOn!.getTime()).toBe(stored!.readOn!.getTime());
  });

  it("answers not-found for another person's alert or a malformed id, and changes nothing", async () => {
    const id = await send(maya, "not-yours");
    for (const bad of [id, "not-a-uuid", "", "00000000-0000-0000-0000-000000000000", `${id}'--`]) {
      expect(await markAsRead(db(), jordan, bad)).toMatchObject({ kind: "ERROR", code: "not-found" });
      expect(await deleteNotification(db(), jordan, bad)).toMatchObject({ kind: "ERROR", code: "not-found" });
    }
    expect(await row(id)).toMatchObject({ unread: true, readOn: null, uid: maya });
  });

  it("deletes one alert of the reader's; a second delete is not-found", async () => {
    const id = await send(maya, "delete-me");
    expect(await deleteNotification(db(), maya, id)).toEqual({ kind: "SUCCESS", id });
    expect(await row(id)).toBeUndefined();
    expect(await deleteNotification(db(), maya, id)).toMatchObject({ kind: "ERROR", code: "not-found" });
  });

  it("marks all of the reader's alerts read, keeps earlier read dates, and leaves others' alone", async () => {
    const uid = await person();
    const early = await send(uid, `all-${uid}-early`);
    await markAsRead(db(), uid, early);
    const earlyReadOn = (await row(early))!.readOn!;
    await send(uid, `all-${uid}-a`);
    await send(uid, `all-${uid}-b`);
    const jordansId = await send(jordan, `all-${uid}-jordan`);
    const result = await markAllAsRead(db(), uid);
    expect(result).toMatchObject({ kind: "SUCCESS", count: 2 });
    expect(await countUnreadNotifications(db(), uid)).toBe(0);
    expect((await row(early))!.readOn!.getTime()).toBe(earlyReadOn.getTime());
    expect(await row(jordansId)).toMatchObject({ unread: true, readOn: null });
    expect(await markAllAsRead(db(), uid)).toMatchObject({ count: 0 });
  });
});
