import { and, eq } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { Captcha } from "#server/platform/captcha/captcha";
import { loadConfig } from "#server/platform/config";
import { AUTH_RATE_LIMITS } from "#server/platform/abuse/rules";
import { emailOutbox, logs, rateLimits, session as sessionTable, user } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { accountTypeOf } from "#server/domains/accounts/profiles";
import { createAuth } from "./auth";
import {
  CAPTCHA_REQUIRED_MESSAGE,
  requestPasswordReset,
  resetPassword,
  signInNeedsCaptcha,
  signInWithPassword,
  signUpWithPassword,
  verifyEmailCode,
  type IdentityDeps,
} from "./flows";
import { getSessionUser } from "./session";
import { handleAuthTasks } from "./tasks";
import { createTaskQueue, queuedTaskRows, type TaskQueue } from "#server/platform/jobs/task-queue";
import { disableAccount } from "./sessions";

const config = loadConfig({ PASSWORD_MIN_LENGTH: "8", PASSWORD_REQUIRE_NUMERIC: "true" });
/** The captcha's own checks are tested in server/platform/captcha; these flows meet a person who passed. */
const alwaysHuman: Captcha = { provider: "altcha", siteKey: null, createChallenge: async () => ({}), verify: async () => true };
/** A captcha that only the answer "solved" passes. */
const solvedOnly: Captcha = { ...alwaysHuman, verify: async (answer) => answer === "solved" };
describe.each(ENGINES)("identity flows on %s", (engine) => {
  const database = migratedDatabase(engine);
  let deps: IdentityDeps & { tasks: TaskQueue };
  const headers = () => new Headers({ "user-agent": "vitest" });

  beforeAll(async () => {
    const logger = pino({ level: "silent" });
    const mailer = createMailer({ db: database.db, from: "Sponsorgrid <no-reply@localhost>", logger });
    const auth = createAuth({ db: database.db, config, secret: "a-test-secret-that-is-long-enough-123", mailer, logger });
    // Not started: each test runs the queued work when it wants it (deliverDue), never on a timer.
    const tasks = createTaskQueue({ db: database.db, logger });
    handleAuthTasks(tasks, auth);
    deps = { db: database.db, auth, captcha: alwaysHuman, config, tasks };
  });

  const signUp = (email: string, overrides: Partial<Parameters<typeof signUpWithPassword>[1]> = {}) =>
    signUpWithPassword(deps, { name: "", email, password: "correct horse 1", type: null, captcha: "ok", ip: "203.0.113.1", headers: headers(), ...overrides });

  describe("sign-up", () => {
    it("creates the account, records the chosen type in the signup log and mails a verification link", async () => {
      const result = await signUp("Creator@Example.com", { type: "creator" });
      expect(result.kind).toBe("SUCCESS");
      const [person] = await database.db.select().from(user).where(eq(user.email, "creator@example.com"));
      expect(person?.emailVerified).toBe(false);
      expect(await accountTypeOf(database.db, person!.id)).toBe("creator");
      const [mail] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, "creator@example.com"));
      expect(mail?.meta.url).toMatch(/^http:\/\/localhost:3000\/app\/verify\?oobCode=/);
    });

    it("leaves the type empty for any other value", async () => {
      await signUp("notype@example.com");
      const [person] = await database.db.select().from(user).where(eq(user.email, "notype@example.com"));
      expect(await accountTypeOf(database.db, person!.id)).toBeNull();
    });

    it("names the broken password rules", async () => {
      const result = await signUp("weak@example.com", { password: "short" });
      expect(result).toMatchObject({
        kind: "ERROR",
        reason: "password-does-not-meet-requirements",
        message: "Your password needs: at least 8 characters, a number.",
      });
    });

    it("shows the code for an email already in use, and never makes a second account", async () => {
      const result = await signUp("creator@example.com");
      expect(result).toMatchObject({ kind: "ERROR", reason: "email-already-in-use", message: "email-already-in-use", code: "aborted" });
      expect(await database.db.select().from(user).where(eq(user.email, "creator@example.com"))).toHaveLength(1);
    });

    it("refuses a failed captcha", async () => {
      const result = await signUpWithPassword(
        { ...deps, captcha: { ...alwaysHuman, verify: async () => false } },
        { name: "", email: "bot@example.com", password: "correct horse 1", type: null, captcha: "", ip: "203.0.113.1", headers: headers() },
      );
      expect(result).toMatchObject({ kind: "ERROR", reason: "captcha-failed" });
    });
  });

  const attempt = (email: string, password: string, ip = "203.0.113.9") =>
    signInWithPassword(deps, { email, password, rememberMe: true, ip, headers: headers() });

  describe("sign-in", () => {

    it("signs in and sets a fresh session cookie", async () => {
      const first = await attempt("creator@example.com", "correct horse 1");
      const second = await attempt("creator@example.com", "correct horse 1");
      if (first.kind !== "SUCCESS" || second.kind !== "SUCCESS") throw new Error("sign-in failed");
      const token = (h: Headers) => h.getSetCookie().find((c) => c.startsWith("sg.session_token="))!.split(";")[0];
      expect(token(first.headers)).toBeTruthy();
      expect(token(first.headers)).not.toBe(token(second.headers));
      expect(first.headers.getSetCookie().join("\n")).toMatch(/HttpOnly/i);
      expect(first.headers.getSetCookie().join("\n")).toMatch(/SameSite=Lax/i);
    });

    it.each([
      ["creator@example.com", "wrong password 1", "wrong-password", "unauthenticated", "Password is incorrect. Please try again."],
      ["nobody@example.com", "whatever", "user-not-found", "unauthenticated", "We couldn't find an account with that email address. Please try again."],
      ["not-an-email", "whatever", "invalid-email", "invalid-argument", "Email is invalid. Please try again."],
      ["nul\0@example.com", "whatever", "invalid-email", "invalid-argument", "Email is invalid. Please try again."],
    ])("%s / %s fails as %s (%s) and is logged", async (email, password, code, errorCode, message) => {
      const result = await attempt(email, password);
      expect(result).toMatchObject({ kind: "ERROR", reason: code, code: errorCode, message });
      const entries = await database.db
        .select()
        .from(logs)
        .where(and(eq(logs.description, code), eq(logs.subtype, "SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR")));
      expect(entries.length).toBeGreaterThan(0);
      expect(entries[0]?.type).toBe("error");
    });

    it("refuses a disabled account with the spec's message", async () => {
      await database.db.update(user).set({ disabled: true }).where(eq(user.email, "notype@example.com"));
      expect(await attempt("notype@example.com", "correct horse 1")).toMatchObject({
        kind: "ERROR",
        reason: "user-disabled",
        message: "Your account has been disabled. Please contact support for further information.",
      });
    });

    it("never locks the owner out for signing in successfully", async () => {
      await signUp("frequent@example.com");
      for (let i = 0; i < 12; i++) {
        expect((await attempt("frequent@example.com", "correct horse 1", `192.0.2.${i}`)).kind).toBe("SUCCESS");
      }
    });

    it("never locks the owner out: after an attacker's failures from many networks, the owner signs in with a solved captcha", async () => {
      await signUp("targeted@example.com", { ip: "203.0.113.50" });
      const results = [];
      for (let i = 0; i < 12; i++) results.push(await attempt("targeted@example.com", "wrong again 1", `198.51.100.${i}`));
      expect(results.slice(0, 3).every((r) => r.kind === "ERROR" && r.reason === "wrong-password")).toBe(true);
      expect(results[2]).toMatchObject({ captchaRequired: true });
      // From then on every attempt needs a captcha: without one nothing is checked, and nobody waits.
      for (const r of results.slice(3)) expect(r).toMatchObject({ kind: "ERROR", reason: "captcha-failed", code: "invalid-argument", captchaRequired: true });
      expect(results.some((r) => r.kind === "ERROR" && r.code === "resource-exhausted")).toBe(false);

      const owner = (captcha?: string) =>
        signInWithPassword(
          { ...deps, captcha: solvedOnly },
          { email: "targeted@example.com", password: "correct horse 1", rememberMe: false, captcha, ip: "192.0.2.200", headers: headers() },
        );
      // SPEC §8 has no message for it: the generic one, the spam check on the second line.
      expect(await owner()).toMatchObject({
        kind: "ERROR",
        reason: "captcha-failed",
        message: "Sorry, something went wrong. Please try again.",
        detail: CAPTCHA_REQUIRED_MESSAGE,
      });
      expect(await owner("not-solved")).toMatchObject({ kind: "ERROR", reason: "captcha-failed" });
      expect((await owner("solved")).kind).toBe("SUCCESS");
      // Once the owner is in, the account's failures are forgotten.
      expect(await signInNeedsCaptcha(database.db, "targeted@example.com")).toBe(false);
      expect((await owner()).kind).toBe("SUCCESS");
    });

    it("a wrong password with a solved captcha still counts, and still needs a captcha next time", async () => {
      const guess = (captcha: string) =>
        signInWithPassword(
          { ...deps, captcha: solvedOnly },
          { email: "targeted@example.com", password: "guess 1", rememberMe: false, captcha, ip: `192.0.2.${Math.floor(Math.random() * 200)}`, headers: headers() },
        );
      for (let i = 0; i < 3; i++) await guess("");
      expect(await guess("solved")).toMatchObject({ kind: "ERROR", reason: "wrong-password", captchaRequired: true });
      expect(await guess("")).toMatchObject({ reason: "captcha-failed" });
    });

    it("makes one network that keeps failing wait longer each time, whatever accounts it tries", async () => {
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await attempt(`guess${i}@example.com`, "wrong again 1", "203.0.113.77"));
      expect(results.slice(0, 5).every((r) => r.kind === "ERROR" && r.reason === "user-not-found")).toBe(true);
      expect(results[5]).toMatchObject({ kind: "ERROR", reason: "too-many-requests", code: "resource-exhausted" });
      // SPEC §8: a wait has no message of its own; the generic one, the wait on the second line.
      expect(results[5]).toMatchObject({ message: "Sorry, something went wrong. Please try again." });
      expect((results[5] as { detail: string }).detail).toMatch(/^Please wait [12] seconds? before trying again\.$/);
      // Someone else's network is not slowed.
      expect(await attempt("guess0@example.com", "wrong again 1", "203.0.113.78")).toMatchObject({ reason: "user-not-found" });
    });

    it("writes nothing for attempts its backoff refuses, and counts mistyped addresses against it", async () => {
      const logRows = async () => (await database.db.select().from(logs)).length;
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await attempt(`not an address ${i}`, "whatever", "203.0.113.120"));
      expect(results.every((r) => r.kind === "ERROR" && r.reason === "invalid-email")).toBe(true);
      const before = await logRows();
      for (let i = 0; i < 20; i++) {
        expect(await attempt(i % 2 ? "nobody@example.com" : "still not an address", "whatever", "203.0.113.120")).toMatchObject({
          reason: "too-many-requests",
        });
      }
      expect(await logRows()).toBe(before);
    });

    it("refuses an email longer than 254 characters as invalid before writing anything", async () => {
      const count = async () => ({
        logs: (await database.db.select().from(logs)).length,
        limits: (await database.db.select().from(rateLimits)).length,
      });
      const before = await count();
      const huge = `${"a".repeat(2_000_000)}@example.com`;
      expect(await attempt(huge, "whatever")).toMatchObject({ kind: "ERROR", reason: "invalid-email", message: "Email is invalid. Please try again.", code: "invalid-argument" });
      expect(await attempt(`${"a".repeat(250)}@example.com`, "whatever")).toMatchObject({ reason: "invalid-email" });
      expect(await requestPasswordReset(deps, { email: huge, ip: "203.0.113.90" })).toMatchObject({ reason: "invalid-email", code: "invalid-argument" });
      expect(await signUp(huge, { ip: "203.0.113.91" })).toMatchObject({ reason: "invalid-email", code: "invalid-argument" });
      expect(await count()).toEqual(before);
    });
  });

  describe("password reset", () => {
    const resetLinks = async (email: string) => {
      await deps.tasks.deliverDue();
      expect(await queuedTaskRows(database.db)).toEqual([]);
      return (await database.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, email), eq(emailOutbox.subject, "Reset your Sponsorgrid password"))))
        .map((mail) => new URL(mail.meta.url!).searchParams.get("token")!);
    };

    it("mails a few links per account per hour, answers success for every request, and the links sent keep working", async () => {
      await signUp("flooded@example.com", { ip: "203.0.113.60" });
      for (let i = 0; i < 8; i++) {
        expect(await requestPasswordReset(deps, { email: "flooded@example.com", ip: `198.51.100.${100 + i}` })).toEqual({ kind: "SUCCESS" });
      }
      const tokens = await resetLinks("flooded@example.com");
      expect(tokens).toHaveLength(AUTH_RATE_LIMITS.passwordReset.account.limit);
      expect(await resetPassword(deps, { token: tokens[0]!, password: "brand new pass 2" })).toEqual({ kind: "SUCCESS" });
    });

    it("a reset ends every other outstanding link of the account", async () => {
      await signUp("twolinks@example.com", { ip: "203.0.113.61" });
      await requestPasswordReset(deps, { email: "twolinks@example.com", ip: "198.51.100.120" });
      await requestPasswordReset(deps, { email: "twolinks@example.com", ip: "198.51.100.121" });
      const [first, second] = await resetLinks("twolinks@example.com");
      expect(await resetPassword(deps, { token: second!, password: "brand new pass 3" })).toEqual({ kind: "SUCCESS" });
      expect(await resetPassword(deps, { token: first!, password: "attacker pass 4" })).toMatchObject({ kind: "ERROR", reason: "invalid-action-code" });
      expect((await attempt("twolinks@example.com", "brand new pass 3", "192.0.2.61")).kind).toBe("SUCCESS");
    });
  });

  describe("sessions", () => {
    const cookieOf = (result: Awaited<ReturnType<typeof attempt>>) => {
      if (result.kind !== "SUCCESS") throw new Error(`sign-in failed: ${result.code}`);
      return result.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    };
    const whoIs = (cookie: string) => getSessionUser(new Request("http://localhost:3000/app", { headers: { cookie } }), deps);

    const verificationCode = async (email: string) => {
      const [mail] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
      return new URL(mail!.meta.url!).searchParams.get("oobCode")!;
    };

    it("verifying in the browser that signed up keeps its session and password, and ends every other session", async () => {
      const signedUp = cookieOf((await signUp("samebrowser@example.com", { ip: "203.0.113.60" })) as Awaited<ReturnType<typeof attempt>>);
      const elsewhere = cookieOf(await attempt("samebrowser@example.com", "correct horse 1", "192.0.2.60"));
      const verified = await verifyEmailCode(deps, { code: await verificationCode("samebrowser@example.com"), headers: new Headers({ cookie: signedUp }) });
      expect(verified).toMatchObject({ kind: "SUCCESS" });
      expect(verified).not.toHaveProperty("choosePasswordToken");
      expect(await whoIs(signedUp)).toMatchObject({ email: "samebrowser@example.com", emailVerified: true });
      expect(await whoIs(elsewhere)).toBeNull();
      expect((await attempt("samebrowser@example.com", "correct horse 1", "192.0.2.160")).kind).toBe("SUCCESS");
    });

    it("verifying from a browser that never signed in ends the password set before (pre-account takeover): the owner chooses one", async () => {
      // The attacker registers the owner's address, chooses the password and stays signed in.
      const attackerSignUp = await signUp("owner@example.com", { ip: "203.0.113.62", password: "attacker pass 9" });
      const attacker = cookieOf(attackerSignUp as Awaited<ReturnType<typeof attempt>>);
      expect((await whoIs(attacker))?.email).toBe("owner@example.com");
      // The owner follows the link from their mailbox, in a browser that never signed in.
      const verified = await verifyEmailCode(deps, { code: await verificationCode("owner@example.com"), headers: headers() });
      expect(verified).toMatchObject({ kind: "SUCCESS", choosePasswordToken: expect.any(String) });
      if (verified.kind !== "SUCCESS" || !("choosePasswordToken" in verified)) throw new Error("expected a password to choose");
      const [person] = await database.db.select().from(user).where(eq(user.email, "owner@example.com"));
      expect(person?.emailVerified).toBe(true);
      // The attacker's session and password are both gone; nobody is signed in yet.
      expect(await whoIs(attacker)).toBeNull();
      expect(await database.db.select().from(sessionTable).where(eq(sessionTable.userId, person!.id))).toEqual([]);
      expect(await attempt("owner@example.com", "attacker pass 9", "192.0.2.62")).toMatchObject({ kind: "ERROR", reason: "wrong-password" });
      // The owner chooses a password with the token and signs in with it; the attacker's still fails.
      expect(await resetPassword(deps, { token: verified.choosePasswordToken, password: "owner pass 10" })).toEqual({ kind: "SUCCESS" });
      expect((await attempt("owner@example.com", "owner pass 10", "192.0.2.162")).kind).toBe("SUCCESS");
      expect(await attempt("owner@example.com", "attacker pass 9", "192.0.2.163")).toMatchObject({ kind: "ERROR", reason: "wrong-password" });
      // The token opens one reset only.
      expect(await resetPassword(deps, { token: verified.choosePasswordToken, password: "attacker pass 11" })).toMatchObject({ kind: "ERROR" });
    });

    it("disabling an account ends its sessions at once", async () => {
      await signUp("tobedisabled@example.com", { ip: "203.0.113.63" });
      const session = cookieOf(await attempt("tobedisabled@example.com", "correct horse 1", "192.0.2.63"));
      expect((await whoIs(session))?.email).toBe("tobedisabled@example.com");
      expect(await disableAccount(database.db, "tobedisabled@example.com")).toBe(true);
      expect(await whoIs(session)).toBeNull();
      expect(await database.db.select().from(sessionTable).where(eq(sessionTable.userId, (await whoIsId("tobedisabled@example.com"))!))).toEqual([]);
    });

    it("a session whose account is marked disabled by any other means is refused on its next request", async () => {
      await signUp("flagged@example.com", { ip: "203.0.113.64" });
      const session = cookieOf(await attempt("flagged@example.com", "correct horse 1", "192.0.2.64"));
      await database.db.update(user).set({ disabled: true }).where(eq(user.email, "flagged@example.com"));
      expect(await whoIs(session)).toBeNull();
    });

    it("reads every session from the database: no cookie cache that would keep a disabled account in", () => {
      expect(deps.auth.options.session?.cookieCache?.enabled).toBe(false);
    });

    const whoIsId = async (email: string) => (await database.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]?.id;
  });
});
