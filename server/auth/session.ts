import { redirect } from "react-router";
import type { AppContext } from "#server/http/context";
import { signInPath } from "./redirects";

export type SessionUser = { id: string; email: string; name: string; emailVerified: boolean; image: string | null };

// Root and route loaders of one request share the lookup.
const lookups = new WeakMap<Request, Promise<SessionUser | null>>();

export function getSessionUser(request: Request, context: Pick<AppContext, "auth">): Promise<SessionUser | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    // Straight from the database, never a cached cookie: a disabled account is out on its next request.
    lookup = context.auth.api.getSession({ headers: request.headers, query: { disableCookieCache: true } }).then((result) =>
      result && !result.user.disabled
        ? {
            id: result.user.id,
            email: result.user.email,
            name: result.user.name,
            emailVerified: result.user.emailVerified,
            image: result.user.image ?? null,
          }
        : null,
    );
    lookups.set(request, lookup);
  }
  return lookup;
}

function pathOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** Signed in, or off to /signin and back here afterwards. */
export async function requireUser(request: Request, context: Pick<AppContext, "auth">): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (!user) throw redirect(signInPath(pathOf(request)));
  return user;
}

/** Signed in with a verified email; unverified people are sent to /app/verify. */
export async function requireVerifiedUser(request: Request, context: Pick<AppContext, "auth">): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (!user.emailVerified) throw redirect("/app/verify");
  return user;
}

/** Copies better-auth's Set-Cookie headers onto a response of ours. */
export function cookieHeaders(from: Headers | undefined | null, into = new Headers()): Headers {
  for (const cookie of from?.getSetCookie() ?? []) into.append("Set-Cookie", cookie);
  return into;
}
