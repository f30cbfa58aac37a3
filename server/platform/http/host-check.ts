import type { RequestHandler } from "express";
import type { Config } from "#server/platform/config";
import { isLocalhostName, isLocalhostOrigin } from "#server/platform/loopback";
import { sendRefusal } from "./refusal";

type HostConfig = Pick<Config, "NODE_ENV" | "PORT" | "PUBLIC_ORIGIN" | "BIO_ORIGIN">;

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * Whether a Host (or trusted X-Forwarded-Host) names this site: the host of
 * PUBLIC_ORIGIN or BIO_ORIGIN, or, in development and when the app itself runs
 * on a localhost origin, a localhost name on PORT. Anything else is a request
 * meant for another site or a DNS-rebinding page (evil.example resolving to
 * 127.0.0.1), which would otherwise reach /dev/mailbox and act same-origin.
 */
export function hostChecker(config: HostConfig): (host: string | undefined) => boolean {
  const origins = [config.PUBLIC_ORIGIN, config.BIO_ORIGIN].map((origin) => {
    const url = new URL(origin);
    return { hostname: url.hostname, port: url.port || DEFAULT_PORTS[url.protocol]! };
  });
  const localNames = config.NODE_ENV !== "production" || isLocalhostOrigin(config.PUBLIC_ORIGIN);
  const port = String(config.PORT);

  return (host) => {
    const parsed = parseHost(host);
    if (!parsed) return false;
    // A Host without a port is what a proxy usually passes on; the name is what matters.
    if (origins.some((o) => o.hostname === parsed.hostname && (parsed.port === "" || parsed.port === o.port))) return true;
    return localNames && isLocalhostName(parsed.hostname) && (parsed.port === "" || parsed.port === port);
  };
}

function parseHost(host: string | undefined): { hostname: string; port: string } | null {
  // A name, IPv4 or bracketed IPv6, and a port: nothing that could move the URL's path or user part.
  const match = /^(\[[\da-f:.]+\]|[\w.-]+)(?::(\d{1,5}))?$/i.exec(host ?? "");
  if (!match) return null;
  try {
    // "sponsorgrid.example." (fully qualified) is the same name.
    return { hostname: new URL(`http://${match[1]}`).hostname.replace(/\.$/, ""), port: match[2] === undefined ? "" : String(Number(match[2])) };
  } catch {
    return null;
  }
}

/** 421 Misdirected Request for a host name this server does not serve. */
export function refuseUnknownHosts(config: HostConfig): RequestHandler {
  const isKnown = hostChecker(config);
  const expected = new URL(config.PUBLIC_ORIGIN).host;
  return (req, res, next) => {
    if (isKnown(req.host)) return next();
    sendRefusal(req, res, 421, "Wrong address", `This server answers only for ${expected}. Check the address and try again.`);
  };
}
