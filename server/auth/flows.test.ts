import { and, eq } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { Captcha } from "#server/captcha/captcha";
import { loadConfig } from "#server/config";
import { emailOutbox, logs, user } from "#server/db/schema";
import { createMailer } from "#server/email/mailer";
import { accountTypeOf } from "#server/accounts/profiles";
import { createAuth } from "./auth";
import { signInWithPassword, signUpWithPassword, type IdentityDeps } from "./flows";

const config = loadConfig({ PASSWORD_MIN_LENGTH: "8", PASSWORD_REQUIRE_NUMERIC: "true" });
/** The captcha's own checks are tested in server/captcha; these flows meet a person who passed. */
const alwaysHuman: Captcha = { provider: "altcha", siteKey: null, createChallenge: async () => ({}), verify: async () => true };
describe.each(ENGINES)("identity flows on %s", (engine) => {
  const database = migratedDatabase(engine);
  let deps: IdentityDeps;
  const headers = () => new Headers({ "user-agent": "vitest" });

  beforeAll(async () => {
    const logger = pino({ level: "silent" });
    const mailer = createMailer({ db: database.db, from: "Sponsorgrid <no-reply@localhost>", logger });
    const auth = createAuth({ db: database.db, config, secret: "a-test-secret-that-is-long-enough-123", mailer, logger });
    deps = { db: database.db, auth, captcha: alwaysHuman, config };
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
        code: "password-does-not-meet-requirements",
        message: "Your password needs: at least 8 characters, a number.",
      });
    });

    it("shows the code for an email already in use, and never makes a second account", async () => {
      const result = await signUp("creator@example.com");
      expect(result).toMatchObject({ kind: "ERROR", code: "email-already-in-use", message: "email-already-in-use", status: 409 });
      expect(await database.db.select().from(user).where(eq(user.email, "creator@example.com"))).toHaveLength(1);
    });

    it("refuses a failed captcha", async () => {
      const result = await signUpWithPassword(
        { ...deps, captcha: { ...alwaysHuman, verify: async () => false } },
        { name: "", email: "bot@example.com", password: "correct horse 1", type: null, captcha: "", ip: "203.0.113.1", headers: headers() },
      );
      expect(result).toMatchObject({ kind: "ERROR", code: "captcha-failed" });
    });
  });

  describe("sign-in", () => {
    const attempt = (email: string, password: string, ip = "203.0.113.9") =>
      signInWithPassword(deps, { email, password, rememberMe: true, ip, headers: headers() });

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
      ["creator@example.com", "wrong password 1", "wrong-password", "Password is incorrect. Please try again."],
      ["nobody@example.com", "whatever", "user-not-found", "We couldn't find an account with that email address. Please try again."],
      ["not-an-email", "whatever", "invalid-email", "Email is invalid. Please try again."],
    ])("%s / %s fails as %s and is logged", async (email, password, code, message) => {
      const result = await attempt(email, password);
      expect(result).toMatchObject({ kind: "ERROR", code, message });
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
        code: "user-disabled",
        message: "Your account has been disabled. Please contact support for further information.",
      });
    });

    it("never locks the owner out for signing in successfully", async () => {
      await signUp("frequent@example.com");
      for (let i = 0; i < 12; i++) {
        expect((await attempt("frequent@example.com", "correct horse 1", `192.0.2.${i}`)).kind).toBe("SUCCESS");
      }
    });

    it("answers too-many-requests once an account has had its attempts", async () => {
      await signUp("limited@example.com");
      const results = [];
      for (let i = 0; i < 11; i++) results.push(await attempt("limited@example.com", "wrong again 1", `198.51.100.${i}`));
      expect(results.slice(0, 10).every((r) => r.kind === "ERROR" && r.code === "wrong-password")).toBe(true);
      expect(results[10]).toMatchObject({ kind: "ERROR", code: "too-many-requests", status: 429 });
      expect((results[10] as { message: string }).message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    });
  });
});
