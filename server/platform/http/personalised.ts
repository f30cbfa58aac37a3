import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/**
 * Marks what is meant for one person, just before the headers go out:
 * - a response to a request with a session cookie, or one that sets a cookie,
 *   is `Cache-Control: private, no-store`, so no shared cache (CDN, proxy) keeps
 *   it and no browser keeps it on disk;
 * - every cookie set on a request that arrived over HTTPS (directly, or as the
 *   trusted proxy says) is `Secure`, whatever PUBLIC_ORIGIN says.
 * Mounted after the static files, which are the same for everyone.
 */
export function personalisedResponses({ sessionCookiePrefix }: { sessionCookiePrefix: string }): RequestHandler {
  return (req, res, next) => {
    const carriesSession = hasSessionCookie(req.headers.cookie, sessionCookiePrefix);
    const secure = req.secure;
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
      // Headers handed to writeHead itself (better-auth, some middleware) join the rest first.
      const last = rest.at(-1);
      if (last && typeof last === "object" && !Array.isArray(last)) {
        rest.pop();
        for (const [name, value] of Object.entries(last as OutgoingHttpHeaders)) if (value !== undefined) this.setHeader(name, value);
      }
      const setCookie = this.getHeader("set-cookie");
      const cookies = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [String(setCookie)];
      if (secure && cookies.length > 0) this.setHeader("set-cookie", cookies.map(withSecure));
      if (carriesSession || cookies.length > 0) this.setHeader("Cache-Control", "private, no-store");
      return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
    } as typeof res.writeHead;
    next();
  };
}

/** better-auth's cookies: `<prefix>.session_token` and friends, `__Secure-` in front over HTTPS. */
export function hasSessionCookie(cookieHeader: string | undefined, prefix: string): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((pair) => {
    const name = pair.split("=")[0]!.trim().replace(/^__(Secure|Host)-/, "");
    return name.startsWith(`${prefix}.`);
  });
}

function withSecure(cookie: string): string {
  return /;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`;
}
