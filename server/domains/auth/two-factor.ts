import { isAPIError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { rateLimitSubject } from "#server/platform/abuse/client-ip";
import { consumeRateLimit, peekRateLimit, rateLimitKey, retryMessage } from "#server/platform/abuse/rate-limit";
import { TWO_FACTOR_RATE_LIMITS } from "#server/platform/abuse/rules";
import type { Db } from "#server/platform/db/client";
import { account, twoFactor, user } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type Result } from "#server/platform/errors";
import type { Auth } from "./auth";
import { readCookie, verifiedValue } from "./session";

/**
 * Two-factor sign-in with an authenticator app (ADR 0049): enrolment, turning it off, new
 * recovery codes, and the second step of a sign-in. better-auth's two-factor plugin does the
 * work (secrets and recovery codes encrypted in `two_factor`); these are the product's answers
 * around it: its messages, its rate limits, and the plugin's cookies handed back to the route.
 */
export type TwoFactorDeps = { db: Db; auth: Auth };

/** The name the app shows beside the code; also the QR code's content. */
export type Enrolment = { uri: string; secret: string };

/** `hasPassword`: the forms ask for it; a Google-only account has none (and is not asked). */
export type TwoFactorStanding = { enabled: boolean; hasPassword: boolean; recoveryCodesLeft: number | null; pending: Enrolment | null };

const WRONG_PASSWORD = () => fieldRefusal({ password: "That password is not right. Please try again." });
const WRONG_CODE = refusal("invalid-argument", "WRONG_CODE", "That code is not right. Check the app and try the newest code.");
const WRONG_RECOVERY_CODE = refusal("invalid-argument", "WRONG_CODE", "That recovery code is not right, or it has been used already.");
const EXPIRED = refusal(
  "unauthenticated",
  "CHALLENGE_EXPIRED",
  "Your sign-in has expired or had too many wrong codes. Please sign in again with your password.",
);

function codeOf(error: unknown): string | undefined {
  return isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
}

/** Six digits, whatever spaces the person typed between them. */
function normalisedCode(raw: string): string {
  return raw.replace(/[\s-]/g, "");
}

async function userEmail(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email ?? "";
}

/** The stored secret, decrypted, as the app and the QR code take it. */
async function enrolmentOf(deps: TwoFactorDeps, userId: string, encrypted: string): Promise<Enrolment> {
  const ctx = await deps.auth.$context;
  const raw = await symmetricDecrypt({ key: ctx.secretConfig, data: encrypted });
  const bytes = new TextEncoder().encode(raw);
  return {
    uri: createOTP(bytes).url(ctx.appName, await userEmail(deps.db, userId)),
    secret: base32.encode(bytes, { padding: false }),
  };
}

/** Whether the account has two-factor sign-in, how many recovery codes are left, or an enrolment waiting for its first code. */
export async function twoFactorStanding(deps: TwoFactorDeps, userId: string): Promise<TwoFactorStanding> {
  const [row] = await deps.db
    .select({
      enabled: user.twoFactorEnabled,
      secret: twoFactor.secret,
      verified: twoFactor.verified,
      hasPassword: sql<boolean>`exists (select 1 from ${account} where ${account.userId} = ${user.id} and ${account.providerId} = 'credential' and ${account.password} is not null)`,
    })
    .from(user)
    .leftJoin(twoFactor, eq(twoFactor.userId, user.id))
    .where(eq(user.id, userId));
  if (!row) return { enabled: false, hasPassword: false, recoveryCodesLeft: null, pending: null };
  const hasPassword = Boolean(row.hasPassword);
  if (row.enabled) {
    const codes = await deps.auth.api.viewBackupCodes({ body: { userId } }).catch(() => null);
    return { enabled: true, hasPassword, recoveryCodesLeft: codes ? codes.backupCodes.length : null, pending: null };
  }
  const pending = row.secret && row.verified === false ? await enrolmentOf(deps, userId, row.secret) : null;
  return { enabled: false, hasPassword, recoveryCodesLeft: null, pending };
}

/** Step one of enrolment: the password, then a new secret (not yet in force) for the app. */
export async function startTwoFactorEnrolment(
  deps: TwoFactorDeps,
  input: { userId: string; password: string; headers: Headers },
): Promise<Result<Enrolment>> {
  try {
    await deps.auth.api.enableTwoFactor({ body: { password: input.password || undefined }, headers: input.headers });
  } catch (error) {
    const code = codeOf(error);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return WRONG_PASSWORD();
    if (code === "TOTP_ALREADY_ENABLED") return refusal("aborted", "ALREADY_ENABLED", "Two-factor sign-in is already on.");
    throw error;
  }
  const [row] = await deps.db.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, input.userId));
  return success(await enrolmentOf(deps, input.userId, row!.secret));
}

/**
 * Step two: the first code from the app turns two-factor sign-in on. better-auth replaces the
 * session (its cookie comes back in `headers`); the recovery codes are shown this once.
 */
export async function confirmTwoFactorEnrolment(
  deps: TwoFactorDeps,
  input: { userId: string; code: string; headers: Headers },
): Promise<Result<{ headers: Headers; recoveryCodes: string[] }>> {
  const code = normalisedCode(input.code);
  if (!/^\d{6}$/.test(code)) return fieldRefusal({ code: "Enter the 6-digit code from your authenticator app." });
  let headers: Headers;
  try {
    ({ headers } = await deps.auth.api.verifyTOTP({ body: { code }, headers: input.headers, returnHeaders: true }));
    // The code that turned it on cannot also sign in a moment later.
    await claimTimeStep(deps, input.userId, code);
  } catch (error) {
    const reason = codeOf(error);
    if (reason === "INVALID_CODE") return fieldRefusal({ code: WRONG_CODE.message });
    if (reason === "TOTP_NOT_ENABLED") return refusal("aborted", "NOT_STARTED", "Start again: enter your password to get a new QR code.");
    throw error;
  }
  const { backupCodes } = await deps.auth.api.viewBackupCodes({ body: { userId: input.userId } });
  return success({ headers, recoveryCodes: backupCodes });
}

/** Turns two-factor sign-in off (the password again); better-auth replaces the session. */
export async function turnOffTwoFactor(
  deps: TwoFactorDeps,
  input: { password: string; headers: Headers },
): Promise<Result<{ headers: Headers }>> {
  try {
    const { headers } = await deps.auth.api.disableTwoFactor({ body: { password: input.password || undefined }, headers: input.headers, returnHeaders: true });
    return success({ headers });
  } catch (error) {
    const code = codeOf(error);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return WRONG_PASSWORD();
    throw error;
  }
}

/** Ten new recovery codes; the old ones stop working. */
export async function newRecoveryCodes(
  deps: TwoFactorDeps,
  input: { password: string; headers: Headers },
): Promise<Result<{ recoveryCodes: string[] }>> {
  try {
    const { backupCodes } = await deps.auth.api.generateBackupCodes({ body: { password: input.password || undefined }, headers: input.headers });
    return success({ recoveryCodes: backupCodes });
  } catch (error) {
    const code = codeOf(error);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return WRONG_PASSWORD();
    if (code === "TWO_FACTOR_NOT_ENABLED") return refusal("aborted", "NOT_ENABLED", "Two-factor sign-in is off: turn it on first.");
    throw error;
  }
}

/**
 * The account waiting for its second step in this browser: the plugin's signed `two_factor`
 * cookie names a short-lived verification row holding the user id. Null when there is none,
 * it has expired, or it was used up.
 */
export async function pendingSignIn(deps: TwoFactorDeps, headers: Headers): Promise<{ userId: string } | null> {
  const cookieHeader = headers.get("cookie");
  if (!cookieHeader) return null;
  const ctx = await deps.auth.$context;
  const signed = readCookie(cookieHeader, ctx.createAuthCookie("two_factor").name);
  const identifier = signed === null ? null : verifiedValue(signed, ctx.secret);
  if (!identifier) return null;
  const row = await ctx.internalAdapter.findVerificationValue(identifier);
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  return { userId: row.value };
}

const TOTP_PERIOD_MS = 30_000;
const USED_CODE = refusal("invalid-argument", "WRONG_CODE", "That code has been used already. Wait for the next code in the app and enter it.");

/**
 * Claims the time step of an app code, once: the step among the three the plugin accepts (the
 * previous, the current, the next) whose code this is, recorded as the account's newest used step
 * only if it is newer than the last one. Two sign-ins racing with one code both reach this
 * update; the database lets exactly one through. False when the code matches no step (the plugin
 * refuses it as wrong) or its step, or a later one, was used already.
 */
async function claimTimeStep(deps: TwoFactorDeps, userId: string, code: string): Promise<"claimed" | "used" | "no-match"> {
  const [row] = await deps.db.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId));
  if (!row) return "no-match";
  const ctx = await deps.auth.$context;
  const otp = createOTP(new TextEncoder().encode(await symmetricDecrypt({ key: ctx.secretConfig, data: row.secret })));
  const now = Math.floor(Date.now() / TOTP_PERIOD_MS);
  let step: number | null = null;
  for (const candidate of [now - 1, now, now + 1]) if ((await otp.hotp(candidate)) === code) step = candidate;
  if (step === null) return "no-match";
  const claimed = await deps.db
    .update(twoFactor)
    .set({ lastUsedStep: step })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step))))
    .returning({ id: twoFactor.id });
  return claimed.length > 0 ? "claimed" : "used";
}

const limitKeys = (userId: string, ip: string) => ({
  account: rateLimitKey("twoFactor:account", userId),
  network: `twoFactor:ip:${rateLimitSubject(ip)}`,
});

/**
 * The second step of a sign-in: a code from the app, or a recovery code (each works once).
 * Wrong codes are counted per account and per network (TWO_FACTOR_RATE_LIMITS); past the limit
 * nothing is checked until the wait is over. Success: the session cookie, in `headers`.
 */
export async function completeTwoFactorSignIn(
  deps: TwoFactorDeps,
  input: { code: string; method: "app" | "recovery"; ip: string; headers: Headers },
): Promise<Result<{ headers: Headers }>> {
  const pending = await pendingSignIn(deps, input.headers);
  if (!pending) return EXPIRED;
  const keys = limitKeys(pending.userId, input.ip);
  for (const [key, rule] of [
    [keys.account, TWO_FACTOR_RATE_LIMITS.account],
    [keys.network, TWO_FACTOR_RATE_LIMITS.network],
  ] as const) {
    const peeked = await peekRateLimit(deps.db, key, rule);
    if (!peeked.allowed) return refusal("resource-exhausted", "TOO_MANY_CODES", retryMessage(peeked.retryAfterSeconds));
  }
  const code = input.method === "app" ? normalisedCode(input.code) : input.code.trim();
  const wrong = input.method === "app" ? WRONG_CODE : WRONG_RECOVERY_CODE;
  if (!code) return fieldRefusal({ code: input.method === "app" ? "Enter the 6-digit code from your authenticator app." : "Enter a recovery code." });
  if (input.method === "app" && (await claimTimeStep(deps, pending.userId, code)) === "used") {
    await consumeRateLimit(deps.db, keys.account, TWO_FACTOR_RATE_LIMITS.account);
    return USED_CODE;
  }
  try {
    const { headers } =
      input.method === "app"
        ? await deps.auth.api.verifyTOTP({ body: { code }, headers: input.headers, returnHeaders: true })
        : await deps.auth.api.verifyBackupCode({ body: { code }, headers: input.headers, returnHeaders: true });
    return success({ headers });
  } catch (error) {
    const reason = codeOf(error);
    if (reason === "INVALID_CODE" || reason === "INVALID_BACKUP_CODE") {
      await consumeRateLimit(deps.db, keys.account, TWO_FACTOR_RATE_LIMITS.account);
      await consumeRateLimit(deps.db, keys.network, TWO_FACTOR_RATE_LIMITS.network);
      return wrong;
    }
    if (reason === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" || reason === "INVALID_TWO_FACTOR_COOKIE") return EXPIRED;
    if (reason === "ACCOUNT_TEMPORARILY_LOCKED") {
      return refusal("resource-exhausted", "TOO_MANY_CODES", "Too many attempts. Please try again in 15 minutes.");
    }
    if (isAPIError(error) && error.statusCode === 409) return refusal("aborted", "TRY_AGAIN", "Please enter the code again.");
    throw error;
  }
}

/** Whether the account signs in with two factors (My Account's line). */
export async function hasTwoFactor(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ enabled: user.twoFactorEnabled }).from(user).where(eq(user.id, userId));
  return row?.enabled ?? false;
}
