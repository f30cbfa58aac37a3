import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTypeOf } from "#server/domains/accounts/profiles";
import { createAuth } from "#server/domains/auth/auth";
import { signInWithPassword } from "#server/domains/auth/flows";
import { getSessionUser } from "#server/domains/auth/session";
import type { Captcha } from "#server/platform/captcha/captcha";
import { loadConfig } from "#server/platform/config";
import { notifications, session } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { HOOK_PATHS, TEST_HOOKS_PREFIX } from "./contract";
import type { TestHooksDeps } from "./http";
import { identityHooks } from "./identity";

const config = loadConfig({});
const alwaysHuman: Captcha = { provider: "altcha", siteKey: null, createChallenge: async () => ({}), verify: async () => true };

describe.each(ENGINES)("the signed-in-account hook on %s", (engine) => {
  const database = migratedDatabase(engine);
  let deps: TestHooksDeps;
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  let base: string;

  beforeAll(async () => {
    const logger = pino({ level: "silent" });
    const mailer = createMailer({ db: database.db, from: "Sponsorgrid <no-reply@localhost>", logger });
    const auth = createAuth({ db: database.db, config, secret: "a-test-secret-that-is-long-enough-123", mailer, logger });
    deps = { db: database.db, auth, config, logger } as unknown as TestHooksDeps;
    const app = express().use(TEST_HOOKS_PREFIX, identityHooks(deps));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${TEST_HOOKS_PREFIX}${HOOK_PATHS.signedInAccount}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const ask = (form: Record<string, string>) => fetch(base, { method: "POST", body: new URLSearchParams(form), headers: { "user-agent": "vitest" } });

  it("makes a verified account of the chosen type, signed in by the cookie it sets, with its password really set", async () => {
    const response = await ask({ email: "Hooked@Example.com", password: "tidy-harbor-42", name: "Hook Person", type: "sponsor" });
    expect(response.status).toBe(200);
    const { uid, email } = (await response.json()) as { uid: string; email: string };
    expect(email).toBe("hooked@example.com");

    const cookie = response.headers.getSetCookie().map((set) => set.split(";")[0]).join("; ");
    expect(cookie).toMatch(/sg\.session_token=/);
    const person = await getSessionUser(new Request("http://localhost:3000/app", { headers: { cookie } }), deps);
    expect(person).toMatchObject({ id: uid, email, name: "Hook Person", emailVerified: true });
    expect(await accountTypeOf(database.db, uid)).toBe("sponsor");

    // As after following the mail's link in the browser that signed up: its one session, and the welcome.
    expect(await database.db.select().from(session).where(eq(session.userId, uid))).toHaveLength(1);
    const welcome = await database.db.select({ kind: notifications.kind }).from(notifications).where(eq(notifications.uid, uid));
    expect(welcome).toEqual([{ kind: "welcome" }]);

    const signedIn = await signInWithPassword(
      { db: database.db, auth: deps.auth, captcha: alwaysHuman, config },
      { email, password: "tidy-harbor-42", rememberMe: false, ip: "203.0.113.7", headers: new Headers() },
    );
    expect(signedIn.kind).toBe("SUCCESS");
  });

  it("refuses what sign-up refuses, and then sets no cookie", async () => {
    await ask({ email: "twice@example.com", password: "tidy-harbor-42", name: "Once" });
    const again = await ask({ email: "twice@example.com", password: "tidy-harbor-42", name: "Twice" });
    expect(again.status).toBe(409);
    expect(again.headers.getSetCookie()).toEqual([]);
    const weak = await ask({ email: "weak@example.com", password: "x", name: "Weak" });
    expect(weak.status).toBe(400);
  });
});
