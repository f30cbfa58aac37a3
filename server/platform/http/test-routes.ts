import crypto from "node:crypto";
import type { RequestHandler } from "express";
import { isLoopbackAddress, PROXY_HEADERS } from "#server/platform/loopback";

export const TEST_ROUTES_PATH = "/__test";
export const TEST_ROUTES_SECRET_HEADER = "x-test-routes-secret";

type Caller = {
  /** The TCP peer: the machine the connection came from. */
  peerAddress: string;
  /** The client as the trusted proxies say (req.ip); the peer when none is trusted. */
  clientIp: string;
  /** Whether a proxy header came with the request. */
  forwarded: boolean;
  /** Whether TRUST_PROXY names the proxies that may say who the client is. */
  trustsProxy: boolean;
  secret: string | undefined;
};

/**
 * The end-to-end hooks under /__test change data at will, so a caller must be on
 * this machine (a loopback connection, and behind a proxy only when a trusted
 * proxy says the client is on loopback too) and must know TEST_ROUTES_SECRET.
 * Config refuses to start with the hooks on when the server runs for real.
 */
export function mayUseTestRoutes(caller: Caller, expectedSecret: string): boolean {
  if (!isLoopbackAddress(caller.peerAddress)) return false;
  if (caller.forwarded && !(caller.trustsProxy && isLoopbackAddress(caller.clientIp))) return false;
  if (!caller.secret) return false;
  const given = crypto.createHash("sha256").update(caller.secret).digest();
  const expected = crypto.createHash("sha256").update(expectedSecret).digest();
  return crypto.timingSafeEqual(given, expected);
}

/**
 * Whether a path reaches the hooks however it is spelt: React Router matches the
 * decoded path without regard to case, so /%5F_TEST//boom must count too.
 */
export function isTestRoutePath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Left as is; refuseUnreadableUrls answers such paths before this runs.
  }
  const normalised = decoded.replace(/[/\\]+/g, "/").toLowerCase();
  return normalised === TEST_ROUTES_PATH || normalised.startsWith(`${TEST_ROUTES_PATH}/`);
}

/** In front of /__test/*: a plain 404 to anyone else, as if the hooks did not exist. */
export function guardTestRoutes(options: { enabled: boolean; secret: string | undefined; trustsProxy: boolean }): RequestHandler {
  return (req, res, next) => {
    if (!isTestRoutePath(req.path)) return next();
    const caller: Caller = {
      peerAddress: req.socket.remoteAddress ?? "",
      clientIp: req.ip ?? "",
      forwarded: PROXY_HEADERS.some((name) => req.headers[name] !== undefined),
      trustsProxy: options.trustsProxy,
      secret: req.get(TEST_ROUTES_SECRET_HEADER),
    };
    if (options.enabled && options.secret && mayUseTestRoutes(caller, options.secret)) return next();
    res.status(404).type("text/plain").send("Not found\n");
  };
}
