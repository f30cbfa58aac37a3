import type { Request, RequestHandler } from "express";

type TrustFn = (address: string, hop: number) => boolean;

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
 * server/http/loopback.ts that a proxy (not this machine) sent the request.
 */
export function trustedForwarding(): RequestHandler {
  return (req, _res, next) => {
    const trust = req.app.get("trust proxy fn") as TrustFn;
    const peer = req.socket.remoteAddress ?? "";
    if (!trust(peer, 0)) return next();

    const forwardedFor = values(req, "x-forwarded-for");
    // The order proxy-addr walks: the peer, then X-Forwarded-For from the right.
    const chain = [peer, ...forwardedFor.toReversed()];
    let client = chain.length - 1;
    for (let hop = 0; hop < chain.length - 1; hop++) {
      if (!trust(chain[hop]!, hop)) {
        client = hop;
        break;
      }
    }
    if (forwardedFor.length > 0) req.headers["x-forwarded-for"] = chain.slice(1, client + 1).toReversed().join(", ");

    // With n trusted hops, the outermost one appended its value n places from the right;
    // fewer values than hops means a trusted proxy replaced the header, so all are theirs.
    const trustedHops = Math.max(1, client);
    for (const name of ["x-forwarded-proto", "x-forwarded-host"] as const) {
      const list = values(req, name);
      if (list.length > 1) req.headers[name] = list[Math.max(0, list.length - trustedHops)];
    }
    next();
  };
}

function values(req: Request, name: string): string[] {
  const header = req.headers[name];
  const joined = Array.isArray(header) ? header.join(",") : (header ?? "");
  return joined
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
}
