import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Listening } from "#server/platform/db/listen";
import { notifications, user } from "#server/platform/db/schema";
import { createMigratedDatabase, ENGINES, type TestDatabase } from "#tests/support/databases";
import { listenForNotificationChanges, NOTIFICATION_CHANGES_CHANNEL } from "./changes";
import { sendNotification } from "./send";
import { notificationDeps } from "#tests/support/payments";

const ALICE = "changes-alice";
const BOB = "changes-bob";

/** Waits until `check` passes (notifications arrive asynchronously), failing after two seconds. */
async function eventually(check: () => void) {
  const deadline = Date.now() + 2_000;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** A marker row for "everything committed before this was delivered": its own notification. */
async function fence(database: TestDatabase, heard: string[]) {
  const before = heard.length;
  await database.db.insert(notifications).values({ uid: BOB, title: "fence", message: "fence" });
  await eventually(() => expect(heard.slice(before)).toContain(BOB));
}

describe.each(ENGINES)("notification change trigger and listener on %s", (engine) => {
  let database: TestDatabase;
  let listening: Listening;
  const heard: string[] = [];
  let gaps = 0;

  beforeAll(async () => {
    database = await createMigratedDatabase(engine);
    await database.db.insert(user).values([
      { id: ALICE, name: "Alice", email: "alice@changes.example", emailVerified: true },
      { id: BOB, name: "Bob", email: "bob@changes.example", emailVerified: true },
    ]);
    listening = await listenForNotificationChanges(database, {
      onChange: (uid) => heard.push(uid),
      onGap: () => gaps++,
      backoffMs: { first: 20, max: 200 },
    });
  });
  afterAll(async () => {
    await listening?.close();
    await database?.dispose();
  });
  beforeEach(() => {
    heard.length = 0;
  });

  it("tells the uid when an alert is written through sendNotification", async () => {
    await sendNotification(database.db, { uid: ALICE, kind: "general", title: "Hello", message: "First" }, notificationDeps(database.db));
    await eventually(() => expect(heard).toEqual([ALICE]));
  });

  it("tells the uid when an alert is marked read, and when it is deleted", async () => {
    const [row] = await database.db.insert(notifications).values({ uid: ALICE, title: "t", message: "m" }).returning();
    await eventually(() => expect(heard).toEqual([ALICE]));
    await database.db.update(notifications).set({ unread: false }).where(eq(notifications.id, row!.id));
    await eventually(() => expect(heard).toEqual([ALICE, ALICE]));
    await database.db.delete(notifications).where(eq(notifications.id, row!.id));
    await eventually(() => expect(heard).toEqual([ALICE, ALICE, ALICE]));
  });

  it("says nothing for an update that leaves unread and uid alone", async () => {
    const [row] = await database.db.insert(notifications).values({ uid: ALICE, title: "t", message: "m" }).returning();
    await fence(database, heard);
    heard.length = 0;
    await database.db.update(notifications).set({ title: "renamed" }).where(eq(notifications.id, row!.id));
    await fence(database, heard);
    expect(heard).toEqual([BOB]);
  });

  it("says nothing for a rolled-back transaction, and only at commit for a committed one", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await sendNotification(tx, { uid: ALICE, kind: "general", title: "Never", message: "Rolled back" }, notificationDeps(database.db));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await fence(database, heard);
    expect(heard).toEqual([BOB]);

    heard.length = 0;
    await database.db.transaction(async (tx) => {
      await sendNotification(tx, { uid: ALICE, kind: "general", title: "One", message: "1" }, notificationDeps(database.db));
      await sendNotification(tx, { uid: ALICE, kind: "general", title: "Two", message: "2" }, notificationDeps(database.db));
      // Still inside: nothing was told yet.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual([]);
    });
    // PostgreSQL folds identical notifications of one transaction into one.
    await eventually(() => expect(heard).toEqual([ALICE]));
  });

  it("tells both users when an alert moves from one to the other, and nothing for another channel", async () => {
    const [row] = await database.db.insert(notifications).values({ uid: ALICE, title: "t", message: "m" }).returning();
    await eventually(() => expect(heard).toEqual([ALICE]));
    await database.db.execute(sql`select pg_notify('some_other_channel', ${ALICE})`);
    await database.db.update(notifications).set({ uid: BOB }).where(eq(notifications.id, row!.id));
    await eventually(() => expect([...heard].sort()).toEqual([ALICE, ALICE, BOB]));
  });

  if (engine === "postgres") {
    it("reconnects after its connection is killed, says there was a gap, and hears changes again", async () => {
      const { rows } = (await database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      try {
        const killed = await admin.query(
          `select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1 and datname = $2`,
          [`listen:${NOTIFICATION_CHANGES_CHANNEL}`, rows[0]!.name],
        );
        expect(killed.rows).toEqual([{ killed: true }]);
      } finally {
        await admin.end();
      }
      await eventually(() => expect(gaps).toBe(1));
      await sendNotification(database.db, { uid: ALICE, kind: "general", title: "After", message: "Back" }, notificationDeps(database.db));
      await eventually(() => expect(heard).toEqual([ALICE]));
    });
  }
});
