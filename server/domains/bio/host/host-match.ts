import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { TrustProxy } from "#server/platform/config";
import { compileTrust, trustedForwardedHeaders } from "#server/platform/http/forwarding";

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

export type HostMatcher = {
  /** Whether the request is for the bio host (by Host, or X-Forwarded-Host from a trusted proxy). */
  isBioHost(req: IncomingMessage): boolean;
  /** Whether it arrived over https (at this server, or at the trusted proxy as it says). */
  isHttps(req: IncomingMessage): boolean;
  /** The client's address as Express's `req.ip` reads it: the peer, or what the trusted proxies say it is. */
  clientAddress(req: IncomingMessage): string;
};

/**
 * Tells bio host requests from app requests before Express runs, reading the
 * host the way the app does (server/platform/http/forwarding.ts, host-check.ts): the
 * Host header, unless a proxy TRUST_PROXY names sent X-Forwarded-Host. A host
 * without a port (what proxies usually pass on) matches by name.
 */
export function hostMatcher(bioOrigin: string, trustProxy: TrustProxy): HostMatcher {
  const url = new URL(bioOrigin);
  const hostname = url.hostname;
  const port = url.port || DEFAULT_PORTS[url.protocol]!;
  const exact = url.host;
  const trust = compileTrust(trustProxy);

  const forwarded = (req: IncomingMessage) =>
    trustProxy === false || (req.headers["x-forwarded-host"] === undefined && req.headers["x-forwarded-proto"] === undefined)
      ? null
      : trustedForwardedHeaders(req.headers, req.socket.remoteAddress ?? "", trust);

  const matches = (host: string | undefined) => {
    if (host === undefined) return false;
    if (host === exact) return true;
    const match = /^([\w.-]+)(?::(\d{1,5}))?$/.exec(host);
    if (!match) return false;
    const name = match[1]!.toLowerCase().replace(/\.$/, "");
    return name === hostname && (match[2] === undefined || String(Number(match[2])) === port);
  };

  return {
    isBioHost(req) {
      const trusted = forwarded(req)?.["x-forwarded-host"];
      return matches(trusted ?? req.headers.host);
    },
    isHttps(req) {
      if ((req.socket as TLSSocket).encrypted) return true;
      return forwarded(req)?.["x-forwarded-proto"]?.toLowerCase() === "https";
    },
    clientAddress(req) {
      const peer = req.socket.remoteAddress ?? "";
      if (trustProxy === false || req.headers["x-forwarded-for"] === undefined) return peer;
      // Cut to the client and the trusted hops, leftmost first: the leftmost is the client.
      const chain = trustedForwardedHeaders(req.headers, peer, trust)?.["x-forwarded-for"];
      return chain ? chain.split(",")[0]!.trim() : peer;
    },
  };
}
