import { eq } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { authenticatorCode, replayedCode } from "#tests/support/authenticator";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { Captcha } from "#server/platform/captcha/captcha";
import { loadConfig } from "#server/platform/config";
import { account, session as sessionTable, user } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { createAuth } from "./auth";
import { signInWithPassword, signUpWithPassword, type IdentityDeps } from "./flows";
import { getSessionUser } from "./session";
import {
  completeTwoFactorSignIn,
  confirmTwoFactorEnrolment,
  newRecoveryCodes,
  pendingSignIn,
  startTwoFactorEnrolment,
  turnOffTwoFactor,
  twoFactorStanding,
} from "./two-factor";

const config = loadConfig({});
const alwaysHuman: Captcha = { provider: "altcha", siteKey: null, createChallenge: async () => ({}), verify: async () => true };
const PASSWORD = "correct horse 1";

/** The browser's cookie jar after a response: Set-Cookie applied to what it had. */
function jar(previous: Headers, response: Headers): Headers {
  const cookies = new Map<string, string>();
  for (const part of (previous.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name) cookies.set(name, value.join("="));
  }
  for (const line of response.getSetCookie()) {
    const [pair, ...attributes] = line.split(";");
    const [name, ...value] = pair!.trim().split("=");
    if (attributes.some((a) => /^\s*max-age=0$/i.test(a)) || value.join("=") === "") cookies.delete(name!);
    else cookies.set(name!, value.join("="));
  }
  return new Headers({ cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") });
}

const codeFor = authenticatorCode;

describe.each(ENGINES)("two-factor sign-in on %s", (engine) => {
  const database = migratedDatabase(engine);
  let deps: IdentityDeps;

  beforeAll(async () => {
    const logger = pino({ level: "silent" });
    const mailer = createMailer({ db: database.db, from: "Sponsorgrid <no-reply@localhost>", logger });
    const auth = createAuth({ db: database.db, config, secret: "a-test-secret-that-is-long-enough-123", mailer, logger });
    deps = { db: database.db, auth, captcha: alwaysHuman, config };
  });

  /** A verified account signed in with its password: its id and cookie jar. */
  async function signedIn(email: string) {
    const made = await signUpWithPassword(deps, { name: "", email, password: PASSWORD, type: null, captcha: "ok", ip: "203.0.113.9", headers: new Headers() });
    if (made.kind !== "SUCCESS") throw new Error(made.message);
    await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
    const [row] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    return { userId: row!.id, cookies: jar(new Headers(), made.headers) };
  }

  async function enrolled(email: string) {
    const { userId, cookies } = await signedIn(email);
    const started = await startTwoFactorEnrolment(deps, { userId, password: PASSWORD, headers: cookies });
    if (started.kind !== "SUCCESS") throw new Error(started.message);
    const confirmed = await confirmTwoFactorEnrolment(deps, { userId, code: await codeFor(started.secret), headers: cookies });
    if (confirmed.kind !== "SUCCESS") throw new Error(confirmed.message);
    return { userId, secret: started.secret, recoveryCodes: confirmed.recoveryCodes, cookies: jar(cookies, confirmed.headers) };
  }

  async function passwordStep(email: string, ip = "203.0.113.9") {
    const result = await signInWithPassword(deps, { email, password: PASSWORD, rememberMe: false, ip, headers: new Headers() });
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    return { result, cookies: jar(new Headers(), result.headers) };
  }

  it("refuses a wrong password at enrolment, and a wrong first code leaves it off", async () => {
    const { userId, cookies } = await signedIn("enrol@example.com");
    expect(await startTwoFactorEnrolment(deps, { userId, password: "nope", headers: cookies })).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    const started = await startTwoFactorEnrolment(deps, { userId, password: PASSWORD, headers: cookies });
    expect(started).toMatchObject({ kind: "SUCCESS", uri: expect.stringMatching(/^otpauth:\/\/totp\//) });
    const wrong = await confirmTwoFactorEnrolment(deps, { userId, code: "000000", headers: cookies });
    expect(wrong.kind).toBe("ERROR");
    const standing = await twoFactorStanding(deps, userId);
    expect(standing.enabled).toBe(false);
    expect(standing.pending?.secret).toBe(started.kind === "SUCCESS" ? started.secret : "");
  });

  it("after the password, the browser is half signed in: no session row, no session, until the code", async () => {
    const { userId, secret } = await enrolled("half@example.com");
    await database.db.delete(sessionTable).where(eq(sessionTable.userId, userId));
    const { result, cookies } = await passwordStep("half@example.com");
    expect(result.twoFactorRequired).toBe(true);
    expect(await database.db.select().from(sessionTable).where(eq(sessionTable.userId, userId))).toHaveLength(0);
    expect(await getSessionUser(new Request("http://localhost/app", { headers: cookies }), deps)).toBeNull();
    expect(await pendingSignIn(deps, cookies)).toEqual({ userId });

    const done = await completeTwoFactorSignIn(deps, { code: await codeFor(secret), method: "app", ip: "203.0.113.9", headers: cookies });
    expect(done.kind).toBe("SUCCESS");
    const after = jar(cookies, done.kind === "SUCCESS" ? done.headers : new Headers());
    expect((await getSessionUser(new Request("http://localhost/app", { headers: after }), deps))?.id).toBe(userId);
  });

  it("an app code signs in once: the same code, or one from an earlier step, is refused afterwards", async () => {
    const { secret } = await enrolled("replay@example.com");
    // The code that turned it on is used already.
    const enrolmentCode = await replayedCode(secret);
    const first = await passwordStep("replay@example.com");
    expect(await completeTwoFactorSignIn(deps, { code: enrolmentCode, method: "app", ip: "203.0.113.9", headers: first.cookies })).toMatchObject({
      kind: "ERROR",
      reason: "WRONG_CODE",
      message: "That code has been used already. Wait for the next code in the app and enter it.",
    });
    const code = await codeFor(secret);
    expect(await completeTwoFactorSignIn(deps, { code, method: "app", ip: "203.0.113.9", headers: first.cookies })).toMatchObject({ kind: "SUCCESS" });
    const again = await passwordStep("replay@example.com");
    expect(await completeTwoFactorSignIn(deps, { code, method: "app", ip: "203.0.113.9", headers: again.cookies })).toMatchObject({
      kind: "ERROR",
      message: "That code has been used already. Wait for the next code in the app and enter it.",
    });
  });

  it("two sign-ins racing with one code: exactly one gets a session", async () => {
    const { userId, secret } = await enrolled("race@example.com");
    await database.db.delete(sessionTable).where(eq(sessionTable.userId, userId));
    const [one, two] = await Promise.all([passwordStep("race@example.com"), passwordStep("race@example.com", "198.51.100.20")]);
    const code = await codeFor(secret);
    const results = await Promise.all([
      completeTwoFactorSignIn(deps, { code, method: "app", ip: "203.0.113.9", headers: one.cookies }),
      completeTwoFactorSignIn(deps, { code, method: "app", ip: "198.51.100.20", headers: two.cookies }),
    ]);
    expect(results.map((result) => result.kind).sort()).toEqual(["ERROR", "SUCCESS"]);
    expect(await database.db.select().from(sessionTable).where(eq(sessionTable.userId, userId))).toHaveLength(1);
  });

  it("a recovery code signs in once; the same code is refused the second time", async () => {
    const { recoveryCodes } = await enrolled("recover@example.com");
    expect(recoveryCodes).toHaveLength(10);
    const first = await passwordStep("recover@example.com");
    expect(await completeTwoFactorSignIn(deps, { code: recoveryCodes[0]!, method: "recovery", ip: "203.0.113.9", headers: first.cookies })).toMatchObject({ kind: "SUCCESS" });
    const second = await passwordStep("recover@example.com");
    expect(await completeTwoFactorSignIn(deps, { code: recoveryCodes[0]!, method: "recovery", ip: "203.0.113.9", headers: second.cookies })).toMatchObject({
      kind: "ERROR",
      reason: "WRONG_CODE",
    });
  });

  it("wrong codes are counted per account: the sixth attempt waits, even with the right code", async () => {
    const { secret } = await enrolled("guess@example.com");
    let { cookies } = await passwordStep("guess@example.com", "198.51.100.7");
    for (let attempt = 1; attempt <= 5; attempt++) {
      // The plugin ends a challenge after five wrong codes; a new password step starts another.
      if (attempt === 5) ({ cookies } = await passwordStep("guess@example.com", "198.51.100.7"));
      const wrong = await completeTwoFactorSignIn(deps, { code: "000000", method: "app", ip: "198.51.100.7", headers: cookies });
      expect(wrong).toMatchObject({ kind: "ERROR", reason: "WRONG_CODE" });
    }
    ({ cookies } = await passwordStep("guess@example.com", "198.51.100.8"));
    const limited = await completeTwoFactorSignIn(deps, { code: await codeFor(secret), method: "app", ip: "198.51.100.8", headers: cookies });
    expect(limited).toMatchObject({ kind: "ERROR", code: "resource-exhausted", message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/) });
  });

  it("new recovery codes replace the old; turning it off signs in with the password alone", async () => {
    const { userId, recoveryCodes, cookies } = await enrolled("off@example.com");
    const fresh = await newRecoveryCodes(deps, { password: PASSWORD, headers: cookies });
    expect(fresh.kind === "SUCCESS" && fresh.recoveryCodes.includes(recoveryCodes[0]!)).toBe(false);
    expect(await turnOffTwoFactor(deps, { password: "nope", headers: cookies })).toMatchObject({ kind: "ERROR" });
    expect(await turnOffTwoFactor(deps, { password: PASSWORD, headers: cookies })).toMatchObject({ kind: "SUCCESS" });
    expect((await twoFactorStanding(deps, userId)).enabled).toBe(false);
    const { result } = await passwordStep("off@example.com");
    expect(result.twoFactorRequired).toBeUndefined();
  });

  it("an account without a password (Google only) enrols without one; one with a password must give it", async () => {
    const { userId, cookies } = await signedIn("google-only@example.com");
    expect((await twoFactorStanding(deps, userId)).hasPassword).toBe(true);
    expect(await startTwoFactorEnrolment(deps, { userId, password: "", headers: cookies })).toMatchObject({ kind: "ERROR", code: "invalid-argument" });
    await database.db.delete(account).where(eq(account.userId, userId));
    expect((await twoFactorStanding(deps, userId)).hasPassword).toBe(false);
    const started = await startTwoFactorEnrolment(deps, { userId, password: "", headers: cookies });
    expect(started.kind).toBe("SUCCESS");
    const confirmed = await confirmTwoFactorEnrolment(deps, { userId, code: await codeFor(started.kind === "SUCCESS" ? started.secret : ""), headers: cookies });
    expect(confirmed.kind).toBe("SUCCESS");
  });

  it("with no password step in this browser, the code step says to sign in again", async () => {
    expect(await completeTwoFactorSignIn(deps, { code: "123456", method: "app", ip: "203.0.113.9", headers: new Headers() })).toMatchObject({
      kind: "ERROR",
      reason: "CHALLENGE_EXPIRED",
    });
  });
});
