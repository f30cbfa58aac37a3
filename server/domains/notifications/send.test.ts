import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { emailOutbox, notificationPreferences, notifications, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { NOTIFICATION_CATALOGUE, NOTIFICATION_KINDS, type NotificationKind } from "./kinds";
import { mailPreferencesOf, saveMailPreferences, wantsMail } from "./preferences";
import { sendNotification } from "./send";
import { unsubscribe } from "./unsubscribe";
import { signUnsubscribeToken } from "./unsubscribe-token";
import { welcomeOnce } from "./welcome";

describe.each(ENGINES)("notifications and their mail on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let n = 0;
  let uid: string;
  let email: string;

  const newUser = async (verified = true) => {
    n += 1;
    const id = `notify_${engine}_${n}_${Date.now()}`;
    await db().insert(user).values({ id, name: id, email: `${id}@n.example`, emailVerified: verified });
    return id;
  };
  const notificationsOf = (who: string, kind: NotificationKind) => db().select().from(notifications).where(and(eq(notifications.uid, who), eq(notifications.kind, kind)));
  const mailTo = (who: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, `${who}@n.example`));
  const notification = (kind: NotificationKind, who = uid) => ({ uid: who, kind, title: `A ${kind} title`, message: `What happened (${kind}).`, buttonText: "Look", buttonDestination: "/app" });

  beforeEach(async () => {
    uid = await newUser();
    email = `${uid}@n.example`;
  });

  it("defaults: money and account events by mail, welcome, hearts and general not; a saved choice wins", async () => {
    const defaults = await mailPreferencesOf(db(), uid);
    expect(defaults).toEqual(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, NOTIFICATION_CATALOGUE[kind].mailByDefault])));
    for (const kind of ["payment-received", "refund-done", "payouts-enabled", "dispute-opened", "pro-started", "pro-renewal-failed", "pro-ended"] as const) expect(defaults[kind]).toBe(true);
    for (const kind of ["welcome", "hearts-daily", "general"] as const) expect(defaults[kind]).toBe(false);

    await saveMailPreferences(db(), uid, { ...defaults, "payment-received": false, "hearts-daily": true });
    const saved = await mailPreferencesOf(db(), uid);
    expect(saved["payment-received"]).toBe(false);
    expect(saved["hearts-daily"]).toBe(true);
    expect(saved["refund-done"]).toBe(true);
    expect(await wantsMail(db(), uid, "payment-received")).toBe(false);
    // Saving again updates the same rows (one per kind), never adds more.
    await saveMailPreferences(db(), uid, { ...saved, "payment-received": true });
    expect(await wantsMail(db(), uid, "payment-received")).toBe(true);
    expect(await db().select().from(notificationPreferences).where(eq(notificationPreferences.uid, uid))).toHaveLength(NOTIFICATION_KINDS.length);
  });

  it("queues the mail with the alert when the preference says so: subject = title, message, unsubscribe link and one-click headers", async () => {
    const deps = notificationDeps(db());
    await db().transaction((tx) => sendNotification(tx, notification("refund-done"), deps));
    expect(await notificationsOf(uid, "refund-done")).toHaveLength(1);
    const [mail, ...more] = await mailTo(uid);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ to: email, subject: "A refund-done title", status: "stored" });
    expect(mail!.text).toContain("What happened (refund-done).");
    const unsubscribeUrl = /<(http:\/\/app\.test\/unsubscribe\/[^>]+)>/.exec(mail!.headers["List-Unsubscribe"] ?? "")?.[1];
    expect(unsubscribeUrl).toBeDefined();
    expect(mail!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail!.html).toContain(unsubscribeUrl!.replaceAll("&", "&amp;"));
    expect(mail!.html).toContain("http://app.test/app/account#notifications");
    expect(mail!.html).toContain("http://app.test/app/notifications");
    expect(mail!.text).toContain("You get this email because");
  });

  it("writes the alert but no mail when the kind is off, by default or by choice, or the address is unverified", async () => {
    const deps = notificationDeps(db());
    await sendNotification(db(), notification("general"), deps);
    await saveMailPreferences(db(), uid, { ...(await mailPreferencesOf(db(), uid)), "payment-received": false });
    await sendNotification(db(), notification("payment-received"), deps);
    expect(await notificationsOf(uid, "general")).toHaveLength(1);
    expect(await notificationsOf(uid, "payment-received")).toHaveLength(1);
    expect(await mailTo(uid)).toEqual([]);

    const unverified = await newUser(false);
    await sendNotification(db(), notification("payment-received", unverified), deps);
    expect(await notificationsOf(unverified, "payment-received")).toHaveLength(1);
    expect(await mailTo(unverified)).toEqual([]);
  });

  it("is the caller's transaction: a rollback leaves neither the alert nor its mail", async () => {
    const deps = notificationDeps(db());
    await expect(
      db().transaction(async (tx) => {
        await sendNotification(tx, notification("dispute-opened"), deps);
        throw new Error("the change it reports failed");
      }),
    ).rejects.toThrow("the change it reports failed");
    expect(await notificationsOf(uid, "dispute-opened")).toEqual([]);
    expect(await mailTo(uid)).toEqual([]);
  });

  it("welcomes once: a replayed verification, a double click, two at once", async () => {
    const deps = notificationDeps(db());
    await saveMailPreferences(db(), uid, { ...(await mailPreferencesOf(db(), uid)), welcome: true });
    const results = await Promise.all([welcomeOnce(db(), uid, deps), welcomeOnce(db(), uid, deps)]);
    expect(await welcomeOnce(db(), uid, deps)).toBe(false);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await notificationsOf(uid, "welcome")).toHaveLength(1);
    // Its mail (asked for here) once too.
    expect((await mailTo(uid)).map((mail) => mail.subject)).toEqual(["Welcome to Sponsorgrid!"]);
  });

  it("unsubscribes by a signed link, signed out: that kind's mail off, replays harmless, a bad link changes nothing", async () => {
    const deps = notificationDeps(db());
    const token = signUnsubscribeToken(deps.unsubscribeKey, uid, "payment-received");
    expect(await unsubscribe(db(), deps.unsubscribeKey, token)).toMatchObject({ kind: "SUCCESS", notificationKind: "payment-received", label: "Payment received" });
    expect(await unsubscribe(db(), deps.unsubscribeKey, token)).toMatchObject({ kind: "SUCCESS" });
    const after = await mailPreferencesOf(db(), uid);
    expect(after["payment-received"]).toBe(false);
    expect(after["refund-done"]).toBe(true);
    await sendNotification(db(), notification("payment-received"), deps);
    expect(await mailTo(uid)).toEqual([]);

    const other = await newUser();
    const tampered = signUnsubscribeToken(deps.unsubscribeKey, other, "refund-done").replace(".refund-done.", ".dispute-opened.");
    expect(await unsubscribe(db(), deps.unsubscribeKey, tampered)).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    const expired = signUnsubscribeToken(deps.unsubscribeKey, other, "refund-done", Math.floor(Date.now() / 1000) - 61 * 86_400);
    expect(await unsubscribe(db(), deps.unsubscribeKey, expired)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await db().select().from(notificationPreferences).where(eq(notificationPreferences.uid, other))).toEqual([]);
  });
});
