import { redirect, type AppLoadContext } from "react-router";
import { parseUserType } from "#server/domains/accounts/profiles";
import { getSessionUser } from "#server/domains/auth/session";
import { safeRedirectPath } from "#server/platform/http/redirects";

/**
 * The start of every sign-in step's loader (sign in, sign up, the two-factor code): where to go
 * afterwards, read safely from the address; someone already signed in goes there at once.
 */
export async function sendSignedInOnward(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (await getSessionUser(request, context)) throw redirect(redirectTo);
  return { url, redirectTo };
}

/** What the sign-in and sign-up forms both offer: the account type asked for, Google, and the spam check. */
export function signInChoices(url: URL, context: AppLoadContext) {
  return {
    type: parseUserType(url.searchParams.get("type")),
    googleEnabled: Boolean(context.config.GOOGLE_CLIENT_ID),
    captcha: { provider: context.captcha.provider, siteKey: context.captcha.siteKey },
  };
}
