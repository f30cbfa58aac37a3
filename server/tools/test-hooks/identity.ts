import { createEmailVerificationToken } from "better-auth/api";
import { and, desc, eq } from "drizzle-orm";
import express, { Router } from "express";
import { parseUserType } from "#server/domains/accounts/profiles";
import { signUpWithPassword, verifyEmailCode, type IdentityDeps } from "#server/domains/auth/flows";
import { disableAccount, enableAccount } from "#server/domains/auth/sessions";
import type { Captcha } from "#server/platform/captcha/captcha";
import { logs, user } from "#server/platform/db/schema";
import { httpStatusOf } from "#server/platform/errors";
import { HOOK_PATHS, type IdentityAnswer, type SignedInAccountAnswer } from "./contract";
import { fetchRequestOf, hook, HookRefusal, queryOf, type TestHooksDeps } from "./http";

/**
 * The captcha as a person who solved it: the one step of sign-up this hook leaves out. Solving the
 * widget's proof of work is identity.spec.ts's business; every other spec only needs someone in.
 */
const SOLVED_CAPTCHA: Captcha = {
  provider: "altcha",
  siteKey: null,
  createChallenge: () => Promise.reject(new Error("the signed-in-account hook asks for no challenge")),
  verify: async () => true,
};

/** The `name=value` pairs of the cookies `headers` set, as a browser would send them back. */
function cookiesSetBy(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}

/**
 * - `identity`: an email's sign-in failure log (read only), and disabling or
 *   enabling an account as staff would, through the functions that end its
 *   sessions and move the guest page generation.
 * - `signed-in-account` (POST, form: email, password, name, type): a new account
 *   made the way the sign-up form makes one (signUpWithPassword: rate limits,
 *   password policy, better-auth's sign-up, the chosen type, the verification
 *   mail), its email verified the way the mailed link verifies it
 *   (verifyEmailCode with that mail's token, opened in the browser that signed
 *   up: the welcome notification, the sign-up's session swapped for the
 *   verification's), and that session's cookie set on the answer, so the
 *   browser context that asked is signed in. Only the captcha and reading the
 *   mail are skipped.
 */
export function identityHooks(deps: TestHooksDeps): Router {
  const router = Router();
  router.get(
    HOOK_PATHS.identity,
    hook(async (req): Promise<IdentityAnswer> => {
      const query = queryOf(req);
      const email = (query.get("email") ?? "").toLowerCase();
      if (query.get("do") === "disable") {
        await disableAccount(deps.db, email);
        return { disabled: email };
      }
      if (query.get("do") === "enable") {
        await enableAccount(deps.db, email);
        return { enabled: email };
      }
      return deps.db
        .select({ description: logs.description, subtype: logs.subtype, type: logs.type })
        .from(logs)
        .where(and(eq(logs.docId, email), eq(logs.subtype, "SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR")))
        .orderBy(desc(logs.created));
    }),
  );

  router.post(
    HOOK_PATHS.signedInAccount,
    express.urlencoded({ extended: false }),
    hook(async (req, res): Promise<SignedInAccountAnswer> => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
      const identity: IdentityDeps = { db: deps.db, auth: deps.auth, captcha: SOLVED_CAPTCHA, config: deps.config, logger: deps.logger };
      // The browser signing up: its address and user agent, none of the cookies it may hold.
      const headers = fetchRequestOf(req).headers;
      headers.delete("cookie");

      const signedUp = await signUpWithPassword(identity, {
        name: text("name"),
        email: text("email"),
        password: text("password"),
        type: parseUserType(text("type")),
        captcha: "solved",
        ip: req.ip ?? req.socket.remoteAddress ?? "",
        headers,
      });
      if (signedUp.kind === "ERROR") throw new HookRefusal(httpStatusOf(signedUp.code), signedUp.message);
      const [made] = await deps.db.select({ id: user.id, email: user.email }).from(user).where(eq(user.email, text("email").trim().toLowerCase()));
      if (!made) throw new Error("sign-up succeeded but made no account");

      // The verification mail's link, made as better-auth makes it for that mail, followed
      // by the browser that signed up (its sign-up session cookie sent along).
      const auth = await deps.auth.$context;
      const token = await createEmailVerificationToken(auth.secret, made.email, undefined, auth.options.emailVerification?.expiresIn, { userId: made.id });
      headers.set("cookie", cookiesSetBy(signedUp.headers));
      const verified = await verifyEmailCode(identity, { code: token, headers });
      if (verified.kind === "ERROR") throw new Error(`verification failed: ${verified.message}`);
      if (!("headers" in verified)) throw new Error("verification dropped the password: the sign-up's session was not sent along");
      for (const cookie of verified.headers.getSetCookie()) res.append("Set-Cookie", cookie);
      return { uid: made.id, email: made.email };
    }),
  );
  return router;
}
