import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox, hearts, notificationDigests, notifications, opportunityPosts, user } from "#server/platform/db/schema";
import { newOpportunityId } from "#server/domains/opportunities/ids";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { previousUtcDay, runHeartsDigest } from "./hearts-digest";
import { mailPreferencesOf, saveMailPreferences } from "./preferences";

const NOW = new Date("2026-11-22T00:30:00Z");
const YESTERDAY = new Date("2026-11-21T15:00:00Z");

describe("previousUtcDay", () => {
  it("is the whole UTC day before, whatever the hour", () => {
    expect(previousUtcDay(new Date("2026-11-22T23:59:59Z"))).toEqual({ day: "2026-11-21", start: new Date("2026-11-21T00:00:00Z"), end: new Date("2026-11-22T00:00:00Z") });
    expect(previousUtcDay(new Date("2026-03-01T00:00:00Z")).day).toBe("2026-02-28");
  });
});

describe.each(ENGINES)("daily hearts roll-up on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let n = 0;
  const person = async () => {
    n += 1;
    const id = `hearts_${engine}_${n}`;
    await db().insert(user).values({ id, name: id, email: `${id}@h.example`, emailVerified: true });
    return id;
  };
  const post = async (poster: string) => {
    const id = newOpportunityId(new Date());
    await db().insert(opportunityPosts).values({ id, posterUid: poster, posterName: poster, title: `Post of ${poster}`, description: "A post.", datePosted: new Date() });
    return id;
  };
  const heart = (postId: string, uid: string, at: Date) => db().insert(hearts).values({ id: `${postId}_${uid}`, postId, uid, createdAt: at });
  const digestNotifications = (uid: string) => db().select().from(notifications).where(and(eq(notifications.uid, uid), eq(notifications.kind, "hearts-daily")));

  it("writes one alert per person with yesterday's count, none for other days or own hearts, and nothing more when run again", async () => {
    const [alice, bob, fans] = [await person(), await person(), await Promise.all([person(), person(), person()])];
    const [a1, a2, b1] = [await post(alice), await post(alice), await post(bob)];
    await heart(a1, fans[0]!, YESTERDAY);
    await heart(a1, fans[1]!, new Date("2026-11-21T00:00:00Z"));
    await heart(a2, fans[0]!, new Date("2026-11-21T23:59:59.999Z"));
    await heart(a2, alice, YESTERDAY); // her own: not news
    await heart(a2, fans[2]!, new Date("2026-11-20T23:59:59Z")); // the day before
    await heart(b1, fans[2]!, new Date("2026-11-22T00:10:00Z")); // today: tomorrow's roll-up
    await saveMailPreferences(db(), alice, { ...(await mailPreferencesOf(db(), alice)), "hearts-daily": true });
    const deps = notificationDeps(db());

    const runs = await Promise.all([runHeartsDigest(db(), deps, NOW), runHeartsDigest(db(), deps, NOW)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await runHeartsDigest(db(), deps, new Date("2026-11-22T13:00:00Z"))).toBe(0);

    const [only, ...more] = await digestNotifications(alice);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ title: "Your opportunities got 3 hearts yesterday", buttonDestination: "/app/account/opportunities", buttonText: "My Posts" });
    expect(only!.message).toContain("Saturday, November 21");
    expect(await digestNotifications(bob)).toEqual([]);
    expect(await db().select().from(notificationDigests).where(eq(notificationDigests.uid, alice))).toMatchObject([{ day: "2026-11-21", hearts: 3 }]);
    // Alice asked for it by mail; by default it is not mailed.
    expect((await db().select().from(emailOutbox).where(eq(emailOutbox.to, `${alice}@h.example`))).map((m) => m.subject)).toEqual(["Your opportunities got 3 hearts yesterday"]);

    // The next day, Bob's heart from "today" is rolled up, and Alice gets nothing new.
    expect(await runHeartsDigest(db(), deps, new Date("2026-11-23T01:00:00Z"))).toBe(1);
    expect((await digestNotifications(bob)).map((a) => a.title)).toEqual(["Your opportunities got 1 heart yesterday"]);
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to, `${bob}@h.example`))).toEqual([]);
    expect(await digestNotifications(alice)).toHaveLength(1);
  });
});
