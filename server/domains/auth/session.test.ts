import { eq } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { Captcha } from "#server/platform/captcha/captcha";
import { loadConfig } from "#server/platform/config";
import { accountSuspensions, notifications, session as sessionTable, user } from "#server/platform/db/schema";
import { suspendAccount } from "#server/domains/staff/suspensions";
import { createMailer } from "#server/platform/email/mailer";
import { createAuth } from "./auth";
import { signInWithPassword, signUpWithPassword, type IdentityDeps } from "./flows";
import { getSessionAccount, getSessionUser, readCookie, verifiedValue } from "./session";
import { disableAccount } from "./sessions";

const config = loadConfig({});
const alwaysHuman: Captcha = { provider: "altcha", siteKey: null, createChallenge: async () => ({}), verify: async () => true };
const DAY = 24 * 60 * 60 * 1000;

// The signed-in lookup reads session, account and unread count in one query
// instead of through better-auth's getSession; it must refuse exactly what better-auth refuses.
describe.each(ENGINES)("the signed-in lookup on %s", (engine) => {
  const database = migratedDatabase(engine);
  let deps: IdentityDeps;
  const headers = () => new Headers({ "user-agent": "vitest" });
  let ip = 10;

  beforeAll(async () => {
    const logger = pino({ level: "silent" });
    const mailer = createMailer({ db: database.db, from: "Sponsorgrid <no-reply@localhost>", logger });
    const auth = createAuth({ db: database.db, config, secret: "a-test-secret-that-is-long-enough-123", mailer, logger });
    deps = { db: database.db, auth, captcha: alwaysHuman, config };
  });

  /** A new account, signed in; the Cookie header its browser would send. */
  async function signedIn(email: string, rememberMe = true): Promise<string> {
    ip += 1;
    await signUpWithPassword(deps, { name: "Pat", email, password: "correct horse 1", type: null, captcha: "ok", ip: `203.0.113.${ip}`, headers: headers() });
    const result = await signInWithPassword(deps, { email, password: "correct horse 1", rememberMe, ip: `198.51.100.${ip}`, headers: headers() });
    if (result.kind !== "SUCCESS") throw new Error(`sign-in failed: ${result.code}`);
    return result.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
  }
  const requestWith = (cookie: string) => new Request("http://localhost:3000/app", { headers: { cookie } });
  const whoIs = (cookie: string) => getSessionUser(requestWith(cookie), deps);
  const tokenOf = (cookie: string) => verifiedValue(readCookie(cookie, "sg.session_token")!, "a-test-secret-that-is-long-enough-123")!;
  const idOf = async (email: string) => (await database.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]!.id;

  it("reads the person and their unread count, and counts a new alert on the next request", async () => {
    const cookie = await signedIn("lookup@example.com");
    const first = await getSessionAccount(requestWith(cookie), deps);
    expect(first).toMatchObject({ user: { email: "lookup@example.com", name: "Pat", emailVerified: false, image: null }, unreadNotifications: 0 });
    await database.db.insert(notifications).values({ uid: first!.user.id, title: "Hello", message: "An alert" });
    expect((await getSessionAccount(requestWith(cookie), deps))?.unreadNotifications).toBe(1);
  });

  it("refuses a disabled account at once, and a session ended any way", async () => {
    const disabled = await signedIn("off-at-once@example.com");
    expect((await whoIs(disabled))?.email).toBe("off-at-once@example.com");
    await database.db.update(user).set({ disabled: true }).where(eq(user.email, "off-at-once@example.com"));
    expect(await whoIs(disabled)).toBeNull();

    const ended = await signedIn("ended@example.com");
    expect(await whoIs(ended)).not.toBeNull();
    expect(await disableAccount(database.db, "ended@example.com")).toBe(true);
    expect(await whoIs(ended)).toBeNull();

    const deleted = await signedIn("signed-out@example.com");
    await database.db.delete(sessionTable).where(eq(sessionTable.token, tokenOf(deleted)));
    expect(await whoIs(deleted)).toBeNull();
  });

  it("refuses a cookie whose signature is not ours, and a session cookie of another name", async () => {
    const cookie = await signedIn("forged@example.com");
    const token = tokenOf(cookie);
    expect(await whoIs(`sg.session_token=${token}.${"A".repeat(43)}=`)).toBeNull();
    expect(await whoIs(`sg.session_token=${token}`)).toBeNull();
    expect(await whoIs(cookie.replace("sg.session_token", "other.session_token"))).toBeNull();
    expect((await whoIs(`theme=dark; ${cookie}`))?.email).toBe("forged@example.com");
  });

  it("lets better-auth end an expired session and extend one due for it, as before", async () => {
    const expired = await signedIn("expired@example.com");
    await database.db.update(sessionTable).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessionTable.token, tokenOf(expired)));
    expect(await whoIs(expired)).toBeNull();
    // better-auth deletes an expired session's row.
    expect(await database.db.select().from(sessionTable).where(eq(sessionTable.token, tokenOf(expired)))).toEqual([]);

    const due = await signedIn("due@example.com");
    const dueAt = new Date(Date.now() + 20 * DAY);
    await database.db.update(sessionTable).set({ expiresAt: dueAt }).where(eq(sessionTable.token, tokenOf(due)));
    expect((await whoIs(due))?.email).toBe("due@example.com");
    const [row] = await database.db.select({ expiresAt: sessionTable.expiresAt }).from(sessionTable).where(eq(sessionTable.token, tokenOf(due)));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(dueAt.getTime() + 5 * DAY);
  });

  it("never extends a session signed in without 'remember me', and still refuses it once expired", async () => {
    const cookie = await signedIn("short@example.com", false);
    expect(cookie).toContain("dont_remember");
    const [before] = await database.db.select({ expiresAt: sessionTable.expiresAt }).from(sessionTable).where(eq(sessionTable.token, tokenOf(cookie)));
    expect((await whoIs(cookie))?.email).toBe("short@example.com");
    const [after] = await database.db.select({ expiresAt: sessionTable.expiresAt }).from(sessionTable).where(eq(sessionTable.token, tokenOf(cookie)));
    expect(after!.expiresAt).toEqual(before!.expiresAt);
    await database.db.update(sessionTable).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessionTable.token, tokenOf(cookie)));
    expect(await whoIs(cookie)).toBeNull();
  });

  it("shares one lookup between the loaders of one request", async () => {
    const cookie = await signedIn("shared@example.com");
    const request = requestWith(cookie);
    // The load context of one request, as server/main/app.ts makes it.
    const context = { ...deps, sessionLookups: new Map() };
    const first = getSessionAccount(request, context);
    expect(getSessionAccount(request, context)).toBe(first);
    // React Router hands the root and route loaders Request objects of their own.
    expect(getSessionAccount(requestWith(cookie), context)).toBe(first);
    expect((await getSessionUser(request, context))?.id).toBe(await idOf("shared@example.com"));
    // The loaders after an action (GET) read it again: the action (POST) may have signed someone in or out.
    expect(getSessionAccount(new Request(request.url, { method: "POST", headers: request.headers }), context)).not.toBe(first);
    // Nothing outlives the request: the next one reads the session again.
    expect(getSessionAccount(request, { ...deps, sessionLookups: new Map() })).not.toBe(first);
  });
  it("a suspended account is signed out and refused with SPEC's text; once its end date has passed, sign-in lifts it without waiting for the job", async () => {
    const email = "suspended@example.com";
    const cookie = await signedIn(email);
    const mail = { mailer: createMailer({ db: database.db, from: "Sponsorgrid <no-reply@localhost>", logger: pino({ level: "silent" }) }), site: { appName: "Sponsorgrid", supportEmail: "help@example.com", publicOrigin: "http://localhost" } };
    const staff = { kind: "staff", id: "some-staff", email: "staff@example.com" } as const;
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    expect(await suspendAccount(database.db, mail, staff, { uid: await idOf(email), reason: "Spam", until: tomorrow })).toMatchObject({ kind: "SUCCESS" });
    expect(await whoIs(cookie)).toBeNull();
    const signIn = () => signInWithPassword(deps, { email, password: "correct horse 1", rememberMe: true, ip: "198.51.100.250", headers: headers() });
    expect(await signIn()).toMatchObject({ kind: "ERROR", code: "permission-denied", message: "Your account has been disabled. Please contact support for further information." });
    // The end date passes (moved into the past here) before the job has run.
    await database.db.update(accountSuspensions).set({ until: new Date(Date.now() - 1000) }).where(eq(accountSuspensions.uid, await idOf(email)));
    expect(await signIn()).toMatchObject({ kind: "SUCCESS" });
    const [record] = await database.db.select().from(accountSuspensions).where(eq(accountSuspensions.uid, await idOf(email)));
    expect(record!.liftedAt).not.toBeNull();
    expect((await database.db.select({ disabled: user.disabled }).from(user).where(eq(user.email, email)))[0]!.disabled).toBe(false);
  });
});
