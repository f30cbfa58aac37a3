import type { Request, RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that another site's page sent (CSRF).
 * Browsers say where a request came from in Sec-Fetch-Site and Origin; a
 * request without either (curl, server-to-server) is not a browser attack.
 * `exempt` lists path prefixes that other origins may legitimately POST to
 * (payment provider webhooks, OAuth form_post callbacks).
 */
export function refuseCrossSiteWrites(allowedOrigins: string[], exempt: string[] = []): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || exempt.some((prefix) => req.path.startsWith(prefix))) return next();
    if (!isCrossSite(req, allowed)) return next();
    res.status(403).type("text/plain").send(CROSS_SITE_MESSAGE);
  };
}

export const CROSS_SITE_MESSAGE = "This request came from another site and was refused.";

/** Whether a browser says another site's page sent this request (the callable functions answer it in their own protocol). */
export function isCrossSite(req: Request, allowed: ReadonlySet<string>): boolean {
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  const ownOrigin = `${req.protocol}://${req.get("host")}`;
  return (site !== undefined && site !== "same-origin" && site !== "none") ||
    (origin !== undefined && origin !== "null" && !allowed.has(origin) && origin !== ownOrigin) ||
    origin === "null";
}
