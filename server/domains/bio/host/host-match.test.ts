import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { hostMatcher } from "./host-match";

function request(headers: Record<string, string>, peer = "127.0.0.1"): IncomingMessage {
  return { headers, socket: { remoteAddress: peer } } as unknown as IncomingMessage;
}
const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;

describe("which requests are for the bio host", () => {
  it("matches BIO_ORIGIN's host by name, with its port or none, in any case", () => {
    const match = hostMatcher("https://bio.sponsorgrid.example", trust(""));
    for (const host of ["bio.sponsorgrid.example", "BIO.sponsorgrid.example", "bio.sponsorgrid.example.", "bio.sponsorgrid.example:443"]) {
      expect(match.isBioHost(request({ host })), host).toBe(true);
    }
    for (const host of ["sponsorgrid.example", "bio.sponsorgrid.example:8443", "evil.example", "bio.sponsorgrid.example.evil.example", "bio.sponsorgrid.example@evil", ""]) {
      expect(match.isBioHost(request({ host })), host).toBe(false);
    }
    expect(match.isBioHost(request({}))).toBe(false);
  });

  it("believes X-Forwarded-Host and -Proto only from a trusted proxy, and only the value it wrote", () => {
    const untrusting = hostMatcher("https://bio.sponsorgrid.example", trust(""));
    const forged = request({ host: "sponsorgrid.example", "x-forwarded-host": "bio.sponsorgrid.example", "x-forwarded-proto": "https" });
    expect(untrusting.isBioHost(forged)).toBe(false);
    expect(untrusting.isHttps(forged)).toBe(false);

    const oneHop = hostMatcher("https://bio.sponsorgrid.example", trust("1"));
    expect(oneHop.isBioHost(request({ host: "10.0.0.5:3000", "x-forwarded-host": "bio.sponsorgrid.example", "x-forwarded-proto": "https" }))).toBe(true);
    expect(oneHop.isHttps(request({ host: "x", "x-forwarded-proto": "https" }))).toBe(true);
    // The client prepended its own claim; the proxy appended the real host.
    expect(oneHop.isBioHost(request({ host: "10.0.0.5", "x-forwarded-host": "bio.sponsorgrid.example, sponsorgrid.example" }))).toBe(false);

    const listed = hostMatcher("https://bio.sponsorgrid.example", trust("10.0.0.1"));
    expect(listed.isBioHost(request({ host: "app", "x-forwarded-host": "bio.sponsorgrid.example" }, "10.0.0.1"))).toBe(true);
    expect(listed.isBioHost(request({ host: "app", "x-forwarded-host": "bio.sponsorgrid.example" }, "10.0.0.2"))).toBe(false);
  });

  it("reads the client's address as Express's req.ip does: the peer, or the address the trusted proxies name", () => {
    const untrusting = hostMatcher("https://bio.sponsorgrid.example", trust(""));
    expect(untrusting.clientAddress(request({ "x-forwarded-for": "192.0.2.1" }, "203.0.113.9"))).toBe("203.0.113.9");
    const oneHop = hostMatcher("https://bio.sponsorgrid.example", trust("1"));
    expect(oneHop.clientAddress(request({}, "10.0.0.5"))).toBe("10.0.0.5");
    // A client's own claim sits left of the address the proxy appended: only the latter counts.
    expect(oneHop.clientAddress(request({ "x-forwarded-for": "192.0.2.1, 198.51.100.7" }, "10.0.0.5"))).toBe("198.51.100.7");
    const listed = hostMatcher("https://bio.sponsorgrid.example", trust("10.0.0.1"));
    expect(listed.clientAddress(request({ "x-forwarded-for": "198.51.100.7" }, "10.0.0.1"))).toBe("198.51.100.7");
    expect(listed.clientAddress(request({ "x-forwarded-for": "198.51.100.7" }, "10.0.0.2"))).toBe("10.0.0.2");
  });
});
