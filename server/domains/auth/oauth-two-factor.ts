import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString } from "better-auth/crypto";
import { safeRedirectPath } from "#server/platform/http/redirects";

/** The second step's page (app/routes/auth/two-factor.tsx). */
export const TWO_FACTOR_SIGN_IN_PATH = "/signin/two-factor";

/**
 * better-auth's two-factor plugin asks for the second step only after a password sign-in; a
 * Google sign-in would skip it. This plugin closes that door: when the OAuth callback has just
 * made a session for an account with two-factor sign-in, the session is deleted again and the
 * plugin's own half-signed-in state is set in its place (the same signed `two_factor` cookie and
 * verification rows the plugin's sign-in hook writes, so its verify endpoints finish the job),
 * and the browser goes to the code page instead of where Google's sign-in was heading.
 */
export function oauthTwoFactor(maxAgeSeconds: number): BetterAuthPlugin {
  return {
    id: "oauth-two-factor",
    hooks: {
      after: [
        {
          matcher: (context) => Boolean(context.path?.startsWith("/oauth2/callback/") || context.path?.startsWith("/callback/")),
          handler: createAuthMiddleware(async (ctx) => {
            const made = ctx.context.newSession;
            if (!made?.user || !(made.user as { twoFactorEnabled?: boolean }).twoFactorEnabled) return;
            const heading = ctx.context.responseHeaders?.get("location") ?? "/app";
            deleteSessionCookie(ctx, true);
            await ctx.context.internalAdapter.deleteSession(made.session.token);
            ctx.context.setNewSession(null);
            const cookie = ctx.context.createAuthCookie("two_factor", { maxAge: maxAgeSeconds });
            const identifier = `2fa-${generateRandomString(20)}`;
            const expiresAt = new Date(Date.now() + maxAgeSeconds * 1000);
            await ctx.context.internalAdapter.createVerificationValue({ value: made.user.id, identifier, expiresAt });
            await ctx.context.internalAdapter.createVerificationValue({ value: "0", identifier: `2fa-attempts-${identifier}`, expiresAt });
            await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
            const headingUrl = new URL(heading, ctx.context.baseURL);
            const next = safeRedirectPath(`${headingUrl.pathname}${headingUrl.search}`);
            throw ctx.redirect(`${TWO_FACTOR_SIGN_IN_PATH}?redirectTo=${encodeURIComponent(next)}`);
          }),
        },
      ],
    },
  };
}
