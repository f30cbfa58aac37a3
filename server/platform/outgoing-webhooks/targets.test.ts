import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLoopbackAddress, pinnedLookup, refusedAddressReason, resolveTarget, webhookUrlProblem, type Resolver } from "./targets";

const fakeResolver =
  (answers: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

const octet = fc.integer({ min: 0, max: 255 });
const v4In = (a: number, b: [number, number] = [0, 255]) => fc.tuple(fc.integer({ min: b[0], max: b[1] }), octet, octet).map(([x, y, z]) => `${a}.${x}.${y}.${z}`);
/** Private, loopback, link-local, CGNAT, unspecified, multicast. */
const refusedV4 = fc.oneof(v4In(10), v4In(127), v4In(0), v4In(169, [254, 254]), v4In(172, [16, 31]), v4In(192, [168, 168]), v4In(100, [64, 127]), fc.integer({ min: 224, max: 255 }).chain((a) => v4In(a)));
const publicV4 = fc.oneof(v4In(8), v4In(93, [184, 184]), v4In(151, [101, 101]), v4In(172, [32, 64]), v4In(100, [128, 255]), v4In(1));

const toInt = (address: string) => address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
const hex = (n: number) => n.toString(16);
/** Ways of writing one IPv4 address that a URL parser or resolver may hand over. */
const v4Spellings = (address: string) => {
  const n = toInt(address);
  const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
  return [
    address,
    `::ffff:${address}`,
    `::ffff:${hex(n >>> 16)}:${hex(n & 0xffff)}`,
    `0:0:0:0:0:ffff:${address}`,
    `0000:0000:0000:0000:0000:FFFF:${hex(n >>> 16).padStart(4, "0")}:${hex(n & 0xffff).padStart(4, "0")}`,
    `64:ff9b::${address}`,
    `2002:${hex((a << 8) | b)}:${hex((c << 8) | d)}::1`,
  ];
};
/** URL host spellings WHATWG normalises to the address (decimal, hex, octal, short forms). */
const urlHostSpellings = (address: string) => {
  const n = toInt(address);
  const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
  return [address, String(n), `0x${hex(n)}`, `0${a.toString(8)}.0${b.toString(8)}.0${c.toString(8)}.0${d.toString(8)}`, `${a}.${(b << 16) | (c << 8) | d}`, `[::ffff:${address}]`];
};

describe("which addresses a webhook may go to", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "unspecified, loopback or IPv4-compatible"],
    ["::", "unspecified, loopback or IPv4-compatible"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local (scoped)"],
    ["fd12:3456::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback (IPv4 inside IPv6)"],
    ["::ffff:a9fe:a9fe", "link-local (IPv4 inside IPv6)"],
  ])("%s is refused (%s)", (address, why) => {
    expect(refusedAddressReason(address)).toBe(why);
  });

  it.each(["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "::ffff:8.8.8.8"])("%s is public", (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });

  it("refuses every spelling of a refused IPv4 address, and accepts every spelling of a public one", () => {
    fc.assert(
      fc.property(refusedV4, (address) => {
        for (const spelling of v4Spellings(address)) expect(refusedAddressReason(spelling), spelling).not.toBeNull();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(publicV4, (address) => {
        for (const spelling of v4Spellings(address)) expect(refusedAddressReason(spelling), spelling).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("refuses IPv6 loopback, link-local, unique-local and multicast in any spelling", () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map(hex);
    const refused = fc.oneof(
      fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), group, group).map(([a, b, c]) => `${hex(a)}:${b}::${c}`),
      fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), group).map(([a, b]) => `${hex(a)}::${b}`),
      fc.tuple(fc.integer({ min: 0xff00, max: 0xffff }), group).map(([a, b]) => `${hex(a).toUpperCase()}::${b}`),
      fc.constantFrom("::1", "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "::", "0::0"),
    );
    fc.assert(
      fc.property(refused, (address) => {
        expect(refusedAddressReason(address), address).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("a URL naming a refused address in any host spelling is refused by the form's check", () => {
    fc.assert(
      fc.property(refusedV4, (address) => {
        for (const host of urlHostSpellings(address)) {
          expect(webhookUrlProblem(new URL(`https://${host}/hook`).href, "public"), host).toMatch(/^Webhooks cannot be sent to this address/);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("the endpoint's URL check, when saved and before each attempt", () => {
  const refusedIn = (url: string) => webhookUrlProblem(url, "public");

  it("asks for https in production and takes http only where more than public hosts are allowed", () => {
    expect(refusedIn("http://example.com/hook")).toBe("Use an https:// address: events are sent only over an encrypted connection.");
    expect(webhookUrlProblem("http://127.0.0.1:4000/hook", "anywhere")).toBeNull();
    expect(webhookUrlProblem("http://hooks.example.com/hook", "loopback")).toBeNull();
    expect(refusedIn("https://hooks.example.com/in")).toBeNull();
  });

  it("refuses what is no URL, other schemes, credentials, local names and private literals", () => {
    expect(refusedIn("example.com/hook")).toMatch(/full address/);
    expect(refusedIn("ftp://example.com/")).toMatch(/https/);
    expect(refusedIn("https://user:pw@example.com/")).toMatch(/user name and password/);
    expect(refusedIn("https://localhost/hook")).toMatch(/local host name/);
    expect(refusedIn("https://printer.local/hook")).toMatch(/local host name/);
    expect(refusedIn("https://metadata.google.internal/")).toMatch(/local host name/);
    expect(refusedIn("https://intranet/")).toMatch(/local host name/);
    expect(refusedIn("https://[::1]/")).toMatch(/this address/);
    expect(refusedIn("https://169.254.169.254/latest/meta-data")).toMatch(/link-local/);
    expect(refusedIn("https://2130706433/")).toMatch(/loopback/);
    expect(refusedIn("https://0177.0.0.1/")).toMatch(/loopback/);
    expect(refusedIn("https://[::ffff:127.0.0.1]/")).toMatch(/loopback/);
    expect(refusedIn("https://10.1.2.3/")).toMatch(/private/);
    expect(refusedIn(`https://example.com/${"a".repeat(2000)}`)).toMatch(/2000 characters/);
  });

  it("on a sandbox site on this machine: loopback in every spelling and localhost, over http, but still no private network", () => {
    for (const url of ["http://127.0.0.1:4000/in", "http://localhost:4000/in", "http://[::1]:4000/in", "http://2130706433/in", "https://[::ffff:127.0.0.1]/in", "http://hooks.localhost/in"]) {
      expect(webhookUrlProblem(url, "loopback"), url).toBeNull();
    }
    for (const url of ["http://169.254.169.254/latest", "http://10.0.0.5/in", "http://[fe80::1]/in", "http://printer.local/in", "http://192.168.1.1/"]) {
      expect(webhookUrlProblem(url, "loopback"), url).not.toBeNull();
    }
  });

  it("knows loopback addresses, and nothing else, as this machine", () => {
    expect(["127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"].every(isLoopbackAddress)).toBe(true);
    expect(["10.0.0.1", "::", "::ffff:10.0.0.1", "128.0.0.1", "localhost"].some(isLoopbackAddress)).toBe(false);
  });
});

describe("the address check before each attempt", () => {
  it("connects to the checked address of a public name", async () => {
    const target = await resolveTarget("https://hooks.example.com/in", { targets: "public", resolve: fakeResolver({ "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"] }) });
    expect(target).toMatchObject({ kind: "SUCCESS", address: "93.184.216.34", family: 4 });
  });

  it("refuses a name with any private answer, one that does not resolve, and plain http", async () => {
    const resolve = fakeResolver({ "rebind.example.com": ["93.184.216.34", "127.0.0.1"], "inside.example.com": ["::ffff:10.0.0.5"] });
    expect(await resolveTarget("https://rebind.example.com/", { targets: "public", resolve })).toEqual({ kind: "ERROR", message: "refused address 127.0.0.1 (loopback)", permanent: false });
    expect(await resolveTarget("https://inside.example.com/", { targets: "public", resolve })).toEqual({ kind: "ERROR", message: "refused address ::ffff:10.0.0.5 (private (IPv4 inside IPv6))", permanent: false });
    expect(await resolveTarget("https://gone.example.com/", { targets: "public", resolve })).toMatchObject({ kind: "ERROR", message: expect.stringMatching(/^DNS lookup failed/) });
    expect(await resolveTarget("http://hooks.example.com/", { targets: "public", resolve })).toMatchObject({ kind: "ERROR", message: expect.stringMatching(/https/), permanent: true });
    expect(await resolveTarget("https://169.254.169.254/", { targets: "public", resolve })).toMatchObject({ kind: "ERROR", permanent: true });
  });

  it("on a sandbox site on this machine, a name must resolve to public or loopback addresses only", async () => {
    const resolve = fakeResolver({ localhost: ["127.0.0.1", "::1"], "inside.example.com": ["10.0.0.5"] });
    expect(await resolveTarget("http://localhost:4000/in", { targets: "loopback", resolve })).toMatchObject({ kind: "SUCCESS", address: "127.0.0.1", family: 4 });
    expect(await resolveTarget("http://inside.example.com/in", { targets: "loopback", resolve })).toMatchObject({ kind: "ERROR", message: "refused address 10.0.0.5 (private)" });
  });

  it("the connection's lookup answers the checked address whatever DNS says later, in both shapes Node asks for", () => {
    const lookup = pinnedLookup("93.184.216.34", 4);
    const answers: unknown[] = [];
    lookup("hooks.example.com", { all: true }, (...args: unknown[]) => answers.push(args));
    lookup("hooks.example.com", {}, (...args: unknown[]) => answers.push(args));
    expect(answers).toEqual([
      [null, [{ address: "93.184.216.34", family: 4 }]],
      [null, "93.184.216.34", 4],
    ]);
  });
});
