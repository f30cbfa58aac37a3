import net from "node:net";

/**
 * The part of an address that identifies one client for rate limiting:
 * an IPv4 address as is, an IPv6 address by its /64 network (one home or
 * one server usually owns a whole /64, so single addresses are free to rotate).
 */
export function rateLimitSubject(ip: string): string {
  const address = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return "unknown";
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(address: string): string[] {
  const withoutZone = address.split("%")[0]!;
  const [head = "", tail] = withoutZone.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(missing).fill("0"), ...tailGroups].map((group) =>
    (Number.parseInt(group, 16) || 0).toString(16),
  );
}
