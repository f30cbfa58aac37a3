import { isAPIError } from "better-auth/api";
import crypto from "node:crypto";
import { and, eq, like, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { z } from "zod";
import { logSignInFailure, recordSignupType } from "#server/domains/accounts/profiles";
import { rateLimitSubject } from "#server/platform/abuse/client-ip";
import {
  claimBackoffAttempt,
  clearRateLimit,
  consumeRateLimit,
  consumeRateLimits,
  peekRateLimit,
  rateLimitKey,
  releaseBackoffAttempt,
  retryMessage,
} from "#server/platform/abuse/rate-limit";
import { AUTH_RATE_LIMITS, SIGN_IN_POLICY, type AuthAction } from "#server/platform/abuse/rules";
import type { Captcha } from "#server/platform/captcha/captcha";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import type { UserType } from "#server/platform/db/schema";
import { account, session, user, verification } from "#server/platform/db/schema";
import { SIGNUP_TYPE_STATE_KEY, type Auth } from "./auth";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { endOtherSessions, sessionTokenSetBy } from "./sessions";
import { suspensionHasEnded } from "#server/domains/staff/suspensions";
import {
  flowError,
  GENERIC_SIGN_IN_ERROR,
  identityCodeFromAuthError,
  signInErrorMessage,
  waitDetail,
  type FlowError,
  type IdentityCode,
} from "./errors";
import { brokenRules, brokenRulesMessage } from "#isomorphic/password-rules";
import { passwordPolicyFrom } from "./password-policy";
import { PASSWORD_RESET_TASK } from "./tasks";
import type { TaskSink } from "#server/platform/jobs/task-queue";

export type { FlowError };

/**
 * What every identity flow needs; routes pass it straight from their context. `tasks` takes the
 * work that runs after the answer (a password reset): durable, so a killed process loses none.
 */
export type IdentityDeps = { db: Db; auth: Auth; captcha: Captcha; config: Config; logger?: Logger; tasks?: TaskSink };

/** `twoFactorRequired`: the password was right and the account asks for its second step next. */
export type FlowSuccess = { kind: "SUCCESS"; headers: Headers; twoFactorRequired?: true };

const emailSchema = z.email();

function authCode(error: unknown): string | undefined {
  return isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
}

function tooManyRequests(retryAfterSeconds: number): FlowError {
  return flowError("too-many-requests", retryMessage(retryAfterSeconds));
}

/** The longest address RFC 5321 lets through; longer input is refused before anything is written. */
export const MAX_EMAIL_LENGTH = 254;

/** The normalised address, or null when it is not one (or is too long to be one). */
export function parseEmail(raw: string): string | null {
  if (raw.length > MAX_EMAIL_LENGTH * 4) return null;
  const email = raw.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !emailSchema.safeParse(email).success) return null;
  return email;
}

/** Sign-up and reset show it under the email field; sign-in, as the form's one message. */
function invalidEmail(field: "email" | undefined = "email"): FlowError {
  return flowError("invalid-email", signInErrorMessage("invalid-email"), field);
}

/** The second line under the generic sign-in message when the account asks for the spam check. */
export const CAPTCHA_REQUIRED_MESSAGE =
  "There have been several failed sign-ins to this account. Please complete the spam check and sign in again.";

/** SPEC §8 has no sign-in message for a wait: the generic one, with the wait on the second line. */
function signInTooManyRequests(retryAfterSeconds: number): SignInError {
  return { ...flowError("too-many-requests", GENERIC_SIGN_IN_ERROR), detail: waitDetail(retryAfterSeconds) };
}

const signInKeys = {
  address: (ip: string) => `signIn:ip:${rateLimitSubject(ip)}`,
  accountFailures: (email: string) => rateLimitKey("signIn:account", email),
};

/** Whether the next sign-in to this account must carry a solved captcha (SIGN_IN_POLICY.account). */
export async function signInNeedsCaptcha(db: Db, email: string): Promise<boolean> {
  const { captchaAfterFailures, windowSeconds } = SIGN_IN_POLICY.account;
  const result = await peekRateLimit(db, signInKeys.accountFailures(email), { limit: captchaAfterFailures, windowSeconds });
  return !result.allowed;
}

async function overLimit(deps: IdentityDeps, action: AuthAction, ip: string, email: string | null): Promise<FlowError | null> {
  const result = await consumeRateLimits(deps.db, limitChecks(action, ip, email));
  return result.allowed ? null : tooManyRequests(result.retryAfterSeconds);
}

function limitChecks(action: AuthAction, ip: string, email: string | null) {
  const rules = AUTH_RATE_LIMITS[action];
  const checks = [{ key: `${action}:ip:${rateLimitSubject(ip)}`, rule: rules.ip }];
  if (email) checks.push({ key: rateLimitKey(`${action}:account`, email), rule: rules.account });
  return checks;
}

async function findPasswordUser(db: Db, email: string) {
  const [row] = await db
    .select({ id: user.id, disabled: user.disabled, hasPassword: sql<boolean>`${account.id} is not null` })
    .from(user)
    .leftJoin(account, sql`${account.userId} = ${user.id} and ${account.providerId} = 'credential'`)
    .where(eq(user.email, email))
    .limit(1);
  return row ?? null;
}

/** `detail`: the second line under a generic message (see SignInMessage in ./errors). */
export type SignInError = FlowError & { captchaRequired?: boolean; detail?: string };

/**
 * Email + password sign-in with the spec's distinct messages. Every failure
 * is logged (SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR). Unverified people get a
 * fresh verification email, then the guards take them to /app/verify.
 *
 * Guessing is slowed, never turned into a lockout (SIGN_IN_POLICY): the
 * client's network waits longer after each failure, and an account that has
 * seen a few failures asks every sign-in for a solved captcha.
 */
export async function signInWithPassword(
  deps: IdentityDeps,
  input: { email: string; password: string; rememberMe: boolean; captcha?: string; ip: string; headers: Headers },
): Promise<FlowSuccess | SignInError> {
  const email = parseEmail(input.email);
  // Too long to be anyone's address: refused before anything is read or written.
  if (!email && input.email.length > MAX_EMAIL_LENGTH) return invalidEmail(undefined);
  // The network's attempt is claimed first, so nothing below — not even the failure log — runs
  // more often than the backoff lets one client try. A refused attempt checked nothing and writes
  // nothing: the failures that earned the wait were each logged already.
  const addressKey = signInKeys.address(input.ip);
  const claimed = await claimBackoffAttempt(deps.db, addressKey, SIGN_IN_POLICY.address);
  if (!claimed.allowed) {
    return signInTooManyRequests(claimed.retryAfterSeconds);
  }
  if (!email) {
    // Logged, as it could be an address someone mistyped; it counts against the network's backoff.
    // (NUL cannot be stored in a PostgreSQL text column: it is logged as U+FFFD.)
    await logSignInFailure(deps.db, { uid: null, code: "invalid-email", email: input.email.trim().toLowerCase().replaceAll("\0", "\uFFFD") });
    return invalidEmail(undefined);
  }
  const captchaRequired = await signInNeedsCaptcha(deps.db, email);
  if (captchaRequired && !(input.captcha && (await deps.captcha.verify(input.captcha, input.ip)))) {
    // Not a password guess: the network's attempt is given back.
    await releaseBackoffAttempt(deps.db, addressKey);
    return { ...flowError("captcha-failed", GENERIC_SIGN_IN_ERROR, "captcha"), detail: CAPTCHA_REQUIRED_MESSAGE, captchaRequired: true };
  }

  const fail = async (code: IdentityCode | "unknown", uid: string | null = null): Promise<SignInError> => {
    await logSignInFailure(deps.db, { uid, code, email });
    const { captchaAfterFailures, windowSeconds } = SIGN_IN_POLICY.account;
    const counted = await consumeRateLimit(deps.db, signInKeys.accountFailures(email), { limit: captchaAfterFailures - 1, windowSeconds });
    return { ...flowError(code, signInErrorMessage(code)), captchaRequired: !counted.allowed };
  };
  const person = await findPasswordUser(deps.db, email);
  if (!person) return fail("user-not-found");
  // A suspension whose end date has passed does not wait for its job: the session hook lifts it (ADR 0051).
  if (person.disabled && !(await suspensionHasEnded(deps.db, person.id))) return fail("user-disabled", person.id);
  if (!person.hasPassword) return fail("wrong-password", person.id);

  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email, password: input.password, rememberMe: input.rememberMe },
      headers: input.headers,
      returnHeaders: true,
    });
    // The owner is in: their network's attempt is given back and the account's failures are forgotten.
    await releaseBackoffAttempt(deps.db, addressKey);
    await clearRateLimit(deps.db, signInKeys.accountFailures(email));
    // Two-factor sign-in (ADR 0049): better-auth made no session, only the signed `two_factor`
    // cookie of the second step, which /signin/two-factor completes.
    if ("twoFactorRedirect" in response) return { kind: "SUCCESS", headers, twoFactorRequired: true };
    if (!response.user.emailVerified) {
      await deps.auth.api.sendVerificationEmail({ body: { email } }).catch(() => undefined);
    }
    return { kind: "SUCCESS", headers };
  } catch (error) {
    const code = identityCodeFromAuthError(authCode(error));
    return fail(code, person.id);
  }
}

/** Sign-up: captcha, password policy, account; then the type lands in the signup log. */
export async function signUpWithPassword(
  deps: IdentityDeps,
  input: { name: string; email: string; password: string; type: UserType | null; captcha: string; ip: string; headers: Headers },
): Promise<FlowSuccess | FlowError> {
  const email = parseEmail(input.email);
  if (!email) return invalidEmail();
  const limited = await overLimit(deps, "signUp", input.ip, email);
  if (limited) return limited;

  const policy = passwordPolicyFrom(deps.config);
  const broken = brokenRules(input.password, policy);
  if (broken.length > 0) {
    return flowError("password-does-not-meet-requirements", brokenRulesMessage(broken, policy), "password");
  }
  if (!(await deps.captcha.verify(input.captcha, input.ip))) {
    return flowError("captcha-failed", "Please complete the captcha check and try again.", "captcha");
  }
  const name = input.name.trim() || email.split("@")[0]!;
  try {
    const { headers, response } = await deps.auth.api.signUpEmail({
      body: { name, email, password: input.password },
      headers: input.headers,
      returnHeaders: true,
    });
    await recordSignupType(deps.db, response.user.id, input.type);
    return { kind: "SUCCESS", headers };
  } catch (error) {
    const code = identityCodeFromAuthError(authCode(error));
    if (code === "email-already-in-use") {
      return flowError(code, signInErrorMessage(code), "email");
    }
    throw error;
  }
}

/**
 * Sends a reset link if the account exists; says the same either way. The
 * network is limited with a 429; the account only in the mail it receives
 * (AUTH_RATE_LIMITS.passwordReset.account per hour): beyond that the request
 * still answers success and the links already sent keep working, so a flood
 * of requests never takes the owner's way back in away. The reset itself is a
 * queued task that runs after the answer (server/domains/auth/tasks.ts), which
 * therefore takes as long for an unknown address.
 */
export async function requestPasswordReset(
  deps: IdentityDeps & { tasks: TaskSink },
  input: { email: string; ip: string },
): Promise<{ kind: "SUCCESS" } | FlowError> {
  const email = parseEmail(input.email);
  if (!email) return invalidEmail();
  const [network, mailbox] = limitChecks("passwordReset", input.ip, email);
  const networkResult = await consumeRateLimit(deps.db, network!.key, network!.rule);
  if (!networkResult.allowed) return tooManyRequests(networkResult.retryAfterSeconds);
  const mailResult = await consumeRateLimit(deps.db, mailbox!.key, mailbox!.rule);
  if (!mailResult.allowed) return { kind: "SUCCESS" };
  // Queued, not run: how long the lookup and the mail take must not show in how long the answer took.
  await deps.tasks.enqueue(PASSWORD_RESET_TASK, { email });
  return { kind: "SUCCESS" };
}

/** Chooses a new password under the same policy; every session of the account ends. */
export async function resetPassword(
  deps: IdentityDeps,
  input: { token: string; password: string },
): Promise<{ kind: "SUCCESS" } | FlowError> {
  const policy = passwordPolicyFrom(deps.config);
  const broken = brokenRules(input.password, policy);
  if (broken.length > 0) {
    return flowError("password-does-not-meet-requirements", brokenRulesMessage(broken, policy), "password");
  }
  try {
    await deps.auth.api.resetPassword({ body: { newPassword: input.password, token: input.token } });
    return { kind: "SUCCESS" };
  } catch (error) {
    if (!isAPIError(error)) throw error;
    return flowError("invalid-action-code", "This reset link is invalid or has expired. Request a new one from the sign-in page.");
  }
}

export async function resendVerificationEmail(
  deps: IdentityDeps,
  input: { email: string; ip: string },
): Promise<{ kind: "SUCCESS" } | FlowError> {
  const email = parseEmail(input.email);
  if (!email) return invalidEmail();
  const limited = await overLimit(deps, "resendVerification", input.ip, email);
  if (limited) return limited;
  await deps.auth.api.sendVerificationEmail({ body: { email } });
  return { kind: "SUCCESS" };
}

/**
 * A verification applied by a browser that was not signed in to the account: the email is
 * verified, but the password set at sign-up is gone and no session is made. `choosePasswordToken`
 * opens /reset-password, where the person sets their own (ADR 0009, "pre-account takeover").
 */
export type VerifiedNeedsPassword = { kind: "SUCCESS"; choosePasswordToken: string };

/** How long the choose-a-password step after such a verification stays open. */
const CHOOSE_PASSWORD_TTL_MS = 60 * 60 * 1000;

/**
 * Applies an emailed `oobCode`: verifies the address. Whoever holds the mailbox is the owner, so
 * every session but theirs ends. If the browser that opened the link was signed in to this
 * account, it signed up there and keeps its session and password. Otherwise someone else may
 * have signed up with this address and chosen the password: it is removed, the session
 * better-auth just made is ended too, and the owner is asked to choose a password.
 */
export async function verifyEmailCode(
  deps: IdentityDeps,
  input: { code: string; headers: Headers },
): Promise<FlowSuccess | VerifiedNeedsPassword | FlowError> {
  const before = await deps.auth.api.getSession({ headers: input.headers, query: { disableCookieCache: true } }).catch(() => null);
  let headers: Headers;
  try {
    ({ headers } = await deps.auth.api.verifyEmail({
      query: { token: input.code },
      headers: input.headers,
      returnHeaders: true,
    }));
  } catch (error) {
    if (!isAPIError(error)) throw error;
    return flowError(
      "invalid-action-code",
      "The link you followed from your email is invalid. Please try sending another verification email.",
    );
  }
  const token = sessionTokenSetBy(headers);
  if (!token) return { kind: "SUCCESS", headers };
  const [made] = await deps.db.select({ userId: session.userId }).from(session).where(eq(session.token, token));
  if (!made) return { kind: "SUCCESS", headers };
  const signedInHere = before?.user.id === made.userId;
  if (signedInHere || !(await hasPassword(deps.db, made.userId))) {
    // Someone who signed up with this address before the owner (and is still signed in) is out.
    await endOtherSessions(deps.db, token);
    return { kind: "SUCCESS", headers };
  }
  return { kind: "SUCCESS", choosePasswordToken: await dropPasswordSetBeforeVerification(deps, made.userId) };
}

async function hasPassword(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .limit(1);
  return Boolean(row);
}

/**
 * Ends every credential set before verification: the password (whoever chose it), every session
 * and every reset link. Returns a fresh reset token for the owner to choose a password with (a
 * reset makes the credential again, see better-auth's resetCredentialPassword).
 */
async function dropPasswordSetBeforeVerification(deps: IdentityDeps, userId: string): Promise<string> {
  const choosePasswordToken = crypto.randomBytes(24).toString("base64url");
  await deps.db.transaction(async (tx) => {
    await tx.delete(account).where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
    await tx.delete(session).where(eq(session.userId, userId));
    await tx.delete(verification).where(and(like(verification.identifier, "reset-password:%"), eq(verification.value, userId)));
    await tx.insert(verification).values({
      id: crypto.randomUUID(),
      identifier: `reset-password:${choosePasswordToken}`,
      value: userId,
      expiresAt: new Date(Date.now() + CHOOSE_PASSWORD_TTL_MS),
    });
  });
  return choosePasswordToken;
}

/**
 * Starts Google sign-in: the provider's address plus the state cookie to set.
 * The type the person chose (?type=) rides in the OAuth state, so a first
 * Google sign-in records it as an email sign-up does (see auth.ts).
 */
export async function startGoogleSignIn(
  deps: IdentityDeps,
  input: { redirectTo: string; type: UserType | null; headers: Headers },
): Promise<{ kind: "SUCCESS"; url: string; headers: Headers }> {
  const { headers, response } = await deps.auth.api.signInSocial({
    body: {
      provider: "google",
      // Checked here too: this is the last stop before better-auth stores it in the OAuth state.
      callbackURL: safeRedirectPath(input.redirectTo),
      errorCallbackURL: "/signin",
      disableRedirect: true,
      ...(input.type ? { additionalData: { [SIGNUP_TYPE_STATE_KEY]: input.type } } : {}),
    },
    headers: input.headers,
    returnHeaders: true,
  });
  if (!response.url) throw new Error("Google sign-in did not return an authorization URL");
  return { kind: "SUCCESS", url: response.url, headers };
}

export async function signOut(deps: IdentityDeps, requestHeaders: Headers): Promise<Headers> {
  try {
    const { headers } = await deps.auth.api.signOut({ headers: requestHeaders, returnHeaders: true });
    return headers;
  } catch (error) {
    // Already signed out: nothing to end.
    if (isAPIError(error)) return new Headers();
    throw error;
  }
}
