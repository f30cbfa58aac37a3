import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, isIPv4, isIPv6, type LookupFunction } from "node:net";
import type { WebhookTargets } from "#server/platform/config";
import { WEBHOOK_URL_MAX } from "#isomorphic/webhook-events";

/**
 * Where a webhook may be sent. In production an endpoint is
 * an https URL whose host resolves only to public addresses: a customer's URL must not make the
 * server talk to its own network (the metadata service, the database, an admin port). The check
 * is made on the addresses DNS answers, and the connection goes to the address that was checked
 * (`pinnedLookup`), so a name that answers differently a moment later (DNS rebinding) gains nothing.
 */

/** IPv4 ranges no webhook goes to: [first address, prefix length]. */
const REFUSED_V4: readonly [string, number, string][] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

/** IPv6 ranges no webhook goes to, beside those that carry an IPv4 address (checked as that address). */
const REFUSED_V6: readonly [string, number, string][] = [
  ["::", 96, "unspecified, loopback or IPv4-compatible"],
  ["100::", 64, "discard"],
  ["2001::", 32, "Teredo"],
  ["2001:db8::", 32, "documentation"],
  ["fc00::", 7, "unique-local"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

function v4Bits(address: string): bigint {
  return address.split(".").reduce((bits, octet) => (bits << 8n) | BigInt(Number(octet)), 0n);
}

/** The 128 bits of an IPv6 address (any spelling `net.isIPv6` accepts, with or without an IPv4 tail). */
function v6Bits(address: string): bigint {
  let text = address.split("%")[0]!.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = v4Bits(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const headGroups = head ? head.split(":") : [];
  const restGroups = rest ? rest.split(":") : [];
  const groups = rest === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - restGroups.length).fill("0"), ...restGroups];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const inRange = (bits: bigint, width: number, base: bigint, prefix: number) => bits >> BigInt(width - prefix) === base >> BigInt(width - prefix);

function refusedV4(bits: bigint): string | null {
  for (const [base, prefix, why] of REFUSED_V4) if (inRange(bits, 32, v4Bits(base), prefix)) return why;
  return null;
}

/**
 * Why an address may not be a webhook's target (loopback, private, link-local…), or null when
 * it is a public address. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that address. A string that is no IP address
 * at all is refused too.
 */
export function refusedAddressReason(address: string): string | null {
  if (isIPv4(address)) return refusedV4(v4Bits(address));
  if (!isIPv6(address.split("%")[0]!)) return "not an IP address";
  if (address.includes("%")) return "link-local (scoped)";
  const bits = v6Bits(address);
  const embedded = (base: string, prefix: number, shift: number) => (inRange(bits, 128, v6Bits(base), prefix) ? refusedV4((bits >> BigInt(shift)) & 0xffffffffn) : undefined);
  for (const [base, prefix, shift] of [
    ["::ffff:0:0", 96, 0],
    ["64:ff9b::", 96, 0],
    ["2002::", 16, 80],
  ] as const) {
    const v4 = embedded(base, prefix, shift);
    if (v4 !== undefined) return v4 && `${v4} (IPv4 inside IPv6)`;
  }
  for (const [base, prefix, why] of REFUSED_V6) if (inRange(bits, 128, v6Bits(base), prefix)) return why;
  return null;
}

/** The host of a parsed URL as an address or a name (`[::1]` → `::1`). */
function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)\.?$/i;
const LOOPBACK_NAMES = /(^|\.)localhost\.?$/i;

/** 127.0.0.0/8, ::1, and 127.x inside IPv6: this machine itself. */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return address.split(".")[0] === "127";
  if (!isIPv6(address)) return false;
  const bits = v6Bits(address);
  if (bits === 1n) return true;
  return inRange(bits, 128, v6Bits("::ffff:0:0"), 96) && (bits & 0xffffffffn) >> 24n === 127n;
}

export type { WebhookTargets };

/** Whether an address (as DNS answers or the URL names it) is one this site sends to. */
function addressProblem(address: string, targets: WebhookTargets): string | null {
  if (targets === "anywhere") return null;
  if (targets === "loopback" && isLoopbackAddress(address)) return null;
  return refusedAddressReason(address);
}

/**
 * The one check of an endpoint's address without looking it up: when it is saved (the form and
 * the API), and again before each attempt. An absolute URL of at most 2,000 characters, http(s),
 * no user name or password in it, https unless `targets` allows more, and no host that could
 * only be this site's own network: an IP literal in a refused range (in any spelling the URL
 * parser takes: decimal, octal, hex, IPv4 inside IPv6) or a local name (localhost, *.local,
 * *.internal, a name with no dot). Null when acceptable. Where a name points is checked after
 * DNS resolution at each delivery (`resolveTarget`): a name can resolve elsewhere later.
 */
export function webhookUrlProblem(value: string, targets: WebhookTargets): string | null {
  if (value === "") return "Enter the address that should receive the events.";
  if (value.length > WEBHOOK_URL_MAX) return `Use an address of at most ${WEBHOOK_URL_MAX} characters.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Enter a full address, starting with https://.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Enter a web address, starting with https://.";
  if (url.protocol === "http:" && targets === "public") return "Use an https:// address: events are sent only over an encrypted connection.";
  if (url.username || url.password) return "Leave the user name and password out of the address; check the signature instead.";
  if (url.hostname === "") return "Enter a full address, with a host name.";
  if (targets === "anywhere") return null;
  const host = hostOf(url);
  if (isIP(host)) {
    const why = addressProblem(host, targets);
    return why ? `Webhooks cannot be sent to this address (${why}); use a public one.` : null;
  }
  if (targets === "loopback" && LOOPBACK_NAMES.test(host)) return null;
  if (LOCAL_NAMES.test(host) || !host.includes(".")) return "Webhooks cannot be sent to a local host name; use a public one.";
  return null;
}

/** Every address a name resolves to (the system resolver, as connections use it). Tests pass their own. */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** `permanent`: the address itself is refused, so trying again later cannot succeed. */
export type Target = { kind: "SUCCESS"; url: URL; address: string | null; family: 4 | 6 | null } | { kind: "ERROR"; message: string; permanent: boolean };

/**
 * Where one attempt connects. With `anywhere`, anywhere (the system resolves as usual:
 * `address` null). Otherwise the URL must pass `webhookUrlProblem` and EVERY address of its host
 * be one `targets` allows (one private answer among public ones is refused too: which one a
 * client picks is not ours to guess); the first is the one to connect to.
 */
export async function resolveTarget(rawUrl: string, { targets, resolve = systemResolver }: { targets: WebhookTargets; resolve?: Resolver }): Promise<Target> {
  const problem = webhookUrlProblem(rawUrl.trim(), targets);
  if (problem) return { kind: "ERROR", message: `refused URL: ${problem}`, permanent: true };
  const url = new URL(rawUrl.trim());
  if (targets === "anywhere") return { kind: "SUCCESS", url, address: null, family: null };
  const host = hostOf(url);
  let addresses: readonly { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      return { kind: "ERROR", message: `DNS lookup failed: ${error instanceof Error ? error.message : String(error)}`, permanent: false };
    }
  }
  if (addresses.length === 0) return { kind: "ERROR", message: "DNS lookup found no address", permanent: false };
  for (const { address } of addresses) {
    const why = addressProblem(address, targets);
    // A name may point elsewhere later: refused now, tried again on the retry schedule.
    if (why) return { kind: "ERROR", message: `refused address ${address} (${why})`, permanent: false };
  }
  const first = addresses[0]!;
  return { kind: "SUCCESS", url, address: first.address, family: isIPv4(first.address) ? 4 : 6 };
}

/**
 * A `lookup` for the connection that answers the address already checked, whatever the name
 * resolves to now. Answers both shapes Node asks in (`all: true` with autoSelectFamily).
 */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}
