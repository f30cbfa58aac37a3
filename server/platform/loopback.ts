import net from "node:net";

// BlockList understands every spelling of an address (expanded IPv6, IPv4-mapped
// in dotted or hex form), which hand-written string checks tend to miss.
const loopback = new net.BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.x.x.x); false for anything else, including garbage. */
export function isLoopbackAddress(ip: string): boolean {
  const version = net.isIP(ip);
  if (version === 0) return false;
  return loopback.check(ip, version === 4 ? "ipv4" : "ipv6");
}

/** Headers a proxy adds to say who the client is: a request carrying one came through a proxy. */
export const PROXY_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip", "x-forwarded-proto", "x-forwarded-host"] as const;

/**
 * Whether a request came from this machine. A request that carries proxy headers (any of them:
 * some proxies send only X-Forwarded-Proto) is never local: behind a reverse proxy on the same
 * host every request arrives from loopback, and the proxy may be one TRUST_PROXY does not name.
 * This alone is not enough for the mailbox, as a proxy may send none of them: it also needs
 * DEV_MAILBOX (server/platform/config.ts), off in production. (The test hooks, which the e2e suite reaches
 * through its own trusted "proxy", use the finer rule in test-routes.ts.)
 */
export function isLocalMachineRequest(clientIp: string, headers: Headers): boolean {
  if (PROXY_HEADERS.some((name) => headers.has(name))) return false;
  return isLoopbackAddress(clientIp);
}

/** localhost, *.localhost and loopback addresses (bracketed IPv6 as in a URL): names that only ever reach this machine. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  return isLoopbackAddress(name.replace(/^\[(.*)\]$/, "$1"));
}

/** An origin whose host is a localhost name (http://localhost:3000, http://127.0.0.1:8080). */
export function isLocalhostOrigin(origin: string): boolean {
  return isLocalhostName(new URL(origin).hostname);
}
