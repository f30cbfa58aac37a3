import { betterAuth } from "better-auth";
import { getOAuthState } from "better-auth/api";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth, twoFactor as twoFactorPlugin } from "better-auth/plugins";
import { and, eq, like } from "drizzle-orm";
import type { Logger } from "pino";
import { createProfileForNewUser, parseUserType, recordSignupType } from "#server/domains/accounts/profiles";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { account, session, twoFactor, user, verification } from "#server/platform/db/schema";
import type { Mailer } from "#server/platform/email/mailer";
import { passwordResetEmail, verificationEmail } from "#server/platform/email/messages";
import { oauthTwoFactor } from "#server/domains/auth/oauth-two-factor";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { welcomeOnce } from "#server/domains/notifications/welcome";
import { liftIfExpired } from "#server/domains/staff/suspensions";

/**
 * better-auth's two-factor plugin (ADR 0049): an authenticator app (TOTP) with ten recovery
 * codes, offered to everyone and required of staff. The half-signed-in state between password
 * and code is a signed `two_factor` cookie naming a short-lived verification row, never a session.
 * No trusted devices: every sign-in asks for the code.
 */
export const TWO_FACTOR_OPTIONS = {
  twoFactorCookieMaxAge: 10 * 60,
  // Enrolling, turning off and new recovery codes ask for the password when the account has one;
  // a Google-only account has none to give, and its session is its only credential.
  allowPasswordless: true,
  backupCodeOptions: { amount: 10, length: 10 },
} as const;

export type AuthDependencies = { db: Db; config: Config; secret: string; mailer: Mailer; logger: Logger };

export const SESSION_COOKIE_PREFIX = "sg";
/** Where startGoogleSignIn puts the chosen creator/sponsor type in the OAuth state. */
export const SIGNUP_TYPE_STATE_KEY = "signupType";
const DAY = 24 * 60 * 60;

/** Where emailed links land: our own pages, which call back into better-auth. */
export const authLinks = {
  verifyEmail: (origin: string, token: string) => `${origin}/app/verify?oobCode=${encodeURIComponent(token)}`,
  resetPassword: (origin: string, token: string) => `${origin}/reset-password?token=${encodeURIComponent(token)}`,
};

/**
 * better-auth, configured for the product: email + password with
 * verification and reset mails, Google through OpenID Connect discovery
 * (its endpoints come from GOOGLE_DISCOVERY_URL, so tests point it at a
 * provider on loopback), sessions in the database.
 */
export function createAuth({ db, config, secret, mailer, logger }: AuthDependencies) {
  const origin = config.PUBLIC_ORIGIN;
  const site = { appName: config.APP_NAME, supportEmail: config.SUPPORT_EMAIL };
  const notify = notificationDepsOf({ mailer, config, sessionSecret: secret });
  const google =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? genericOAuth({
          config: [
            {
              providerId: "google",
              name: "Google",
              clientId: config.GOOGLE_CLIENT_ID,
              clientSecret: config.GOOGLE_CLIENT_SECRET,
              discoveryUrl: config.GOOGLE_DISCOVERY_URL,
              scopes: ["openid", "email", "profile"],
              pkce: true,
            },
          ],
        })
      : null;

  return betterAuth({
    appName: config.APP_NAME,
    baseURL: origin,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [origin],
    telemetry: { enabled: false },
    logger: {
      level: "warn",
      log: (level, message, ...args) => logger[level]({ args }, `auth: ${message}`),
    },
    database: drizzleAdapter(db, { provider: "pg", schema: { user, session, account, verification, twoFactor } }),
    user: {
      additionalFields: { disabled: { type: "boolean", required: false, defaultValue: false, input: false } },
    },
    // No cookie cache: every request reads the session row, so ending a session (disabled
    // account, reset, verification by the owner) takes effect on the very next request.
    session: { expiresIn: 30 * DAY, updateAge: DAY, cookieCache: { enabled: false } },
    emailAndPassword: {
      enabled: true,
      // The configurable policy (server/domains/auth/password-policy.ts) is checked before these bounds.
      minPasswordLength: 1,
      maxPasswordLength: 4096,
      autoSignIn: true,
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      // One reset ends every other link of the account: an older mail found later opens nothing.
      onPasswordReset: async ({ user: person }) => {
        await forgetResetLinks(db, person.id);
      },
      sendResetPassword: async ({ user: person, token }) => {
        await mailer.send(
          await passwordResetEmail({ to: person.email, name: person.name, url: authLinks.resetPassword(origin, token), site }),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 3 * DAY,
      sendVerificationEmail: async ({ user: person, token }) => {
        await mailer.send(
          await verificationEmail({ to: person.email, name: person.name, url: authLinks.verifyEmail(origin, token), site }),
        );
      },
      // The welcome notification: once, however often the link is followed.
      afterEmailVerification: async (person) => {
        await welcomeOnce(db, person.id, notify);
      },
    },
    account: {
      // A Google sign-in joins the existing account of the same email only when Google says the
      // address is verified and the local account verified it too (else someone who registered
      // another person's address first would share their account): never a second account.
      accountLinking: { enabled: true, requireLocalEmailVerified: true },
    },
    // Limits live in our own database counters (server/platform/abuse), applied by every identity action.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: origin.startsWith("https://"),
      ipAddress: { ipv6Subnet: 64 },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (created) => {
            await createProfileForNewUser(db, created);
            // A first Google sign-in: the type chosen before leaving for Google (startGoogleSignIn).
            const state = await getOAuthState().catch(() => null);
            await recordSignupType(db, created.id, parseUserType(state?.[SIGNUP_TYPE_STATE_KEY]));
            // Google accounts arrive verified and never follow a verification link.
            if (created.emailVerified) await welcomeOnce(db, created.id, notify);
          },
        },
      },
      session: {
        create: {
          // A disabled account never gets a session, whichever way it signs in; a suspension whose
          // end date has passed is lifted here rather than at the job's next run (ADR 0051).
          before: async (newSession) => {
            const [row] = await db.select({ disabled: user.disabled }).from(user).where(eq(user.id, newSession.userId));
            if (row?.disabled && (await liftIfExpired(db, notify, newSession.userId))) return false;
          },
        },
      },
    },
    // oauthTwoFactor after Google's: a Google sign-in of a two-factor account asks for the code too.
    plugins: [twoFactorPlugin(TWO_FACTOR_OPTIONS), ...(google ? [google, oauthTwoFactor(TWO_FACTOR_OPTIONS.twoFactorCookieMaxAge)] : [])],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** better-auth keeps reset tokens in `verification` as `reset-password:<token>` → user id. */
export async function forgetResetLinks(db: Db, userId: string): Promise<void> {
  await db.delete(verification).where(and(like(verification.identifier, "reset-password:%"), eq(verification.value, userId)));
}
