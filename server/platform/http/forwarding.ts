import type { IncomingHttpHeaders } from "node:http";
import express, { type RequestHandler } from "express";
import type { TrustProxy } from "#server/platform/config";

export type TrustFn = (address: string, hop: number) => boolean;

/**
 * Leaves in the X-Forwarded-* headers only what the trusted proxies wrote.
 *
 * Express (with "trust proxy" set to TRUST_PROXY) already takes the client's
 * address from the right end of X-Forwarded-For, but reads X-Forwarded-Proto
 * and X-Forwarded-Host from the left, where a client's own value sits when a
 * proxy appends rather than replaces. Other readers (better-auth records the
 * leftmost X-Forwarded-For as a session's address) see the raw header too. So,
 * when the connection comes from a trusted proxy, each header is cut down here:
 * X-Forwarded-For to the client and the trusted proxies, Proto and Host to the
 * value the outermost trusted proxy wrote. From an untrusted peer nothing is
 * changed: Express ignores the headers then, and their presence still tells
 * server/platform/loopback.ts that a proxy (not this machine) sent the request.
 */
export function trustedForwarding(): RequestHandler {
  return (req, _res, next) => {
    const trusted = trustedForwardedHeaders(req.headers, req.socket.remoteAddress ?? "", req.app.get("trust proxy fn") as TrustFn);
    if (trusted) Object.assign(req.headers, trusted);
    next();
  };
}

type Forwarded = Partial<Record<"x-forwarded-for" | "x-forwarded-proto" | "x-forwarded-host", string>>;

/**
 * The X-Forwarded-* values the trusted proxies wrote (only those present), or
 * null when the peer is not a trusted proxy and none of them may be believed.
 * Pure, so that the bio host (server/domains/bio/host/), which answers before Express,
 * reads the same host and protocol as the app does.
 */
export function trustedForwardedHeaders(headers: IncomingHttpHeaders, peer: string, trust: TrustFn): Forwarded | null {
  if (!trust(peer, 0)) return null;
  const forwardedFor = values(headers, "x-forwarded-for");
  // The order proxy-addr walks: the peer, then X-Forwarded-For from the right.
  const chain = [peer, ...forwardedFor.toReversed()];
  let client = chain.length - 1;
  for (let hop = 0; hop < chain.length - 1; hop++) {
    if (!trust(chain[hop]!, hop)) {
      client = hop;
      break;
    }
  }
  const result: Forwarded = {};
  if (forwardedFor.length > 0) result["x-forwarded-for"] = chain.slice(1, client + 1).toReversed().join(", ");

  // With n trusted hops, the outermost one appended its value n places from the right;
  // fewer values than hops means a trusted proxy replaced the header, so all are theirs.
  const trustedHops = Math.max(1, client);
  for (const name of ["x-forwarded-proto", "x-forwarded-host"] as const) {
    const list = values(headers, name);
    if (list.length > 0) result[name] = list[Math.max(0, list.length - trustedHops)];
  }
  return result;
}

/** Express's own reading of TRUST_PROXY, for code that runs before Express. */
export function compileTrust(trustProxy: TrustProxy): TrustFn {
  return express().set("trust proxy", trustProxy).get("trust proxy fn") as TrustFn;
}

function values(headers: IncomingHttpHeaders, name: string): string[] {
  const header = headers[name];
  const joined = Array.isArray(header) ? header.join(",") : (header ?? "");
  return joined
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
}
