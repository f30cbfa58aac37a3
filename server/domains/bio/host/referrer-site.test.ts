import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIRECT_SITE } from "#isomorphic/insights-periods";
import { referrerSites } from "./referrer-site";

const site = referrerSites("https://bio.example.com:8443");

describe("the referring site of a view", () => {
  it("keeps only the host, normalised, never the path or query", () => {
    expect(site("https://www.instagram.com/")).toBe("instagram.com");
    expect(site("https://l.instagram.com/?u=https%3A%2F%2Fbio.example.com%2Fmaya&e=AT0secret")).toBe("instagram.com");
    expect(site("https://lm.facebook.com/l.php?u=x")).toBe("facebook.com");
    expect(site("https://m.youtube.com/watch?v=abc")).toBe("youtube.com");
    expect(site("HTTPS://WWW.Google.COM.:443/search?q=maya")).toBe("google.com");
    expect(site("https://t.co/abc123")).toBe("t.co");
    expect(site("http://news.ycombinator.com/item?id=1")).toBe("news.ycombinator.com");
    expect(site("https://münchen.example/")).toBe("xn--mnchen-3ya.example");
    expect(site("android-app://com.google.android.gm/")).toBe("com.google.android.gm");
    expect(site("http://192.168.1.10:8080/x")).toBe("192.168.1.10");
    // A subdomain is only dropped when a domain is left.
    expect(site("https://m.com/")).toBe("m.com");
  });

  it("is Direct without a usable header, and for the bio host itself", () => {
    for (const header of [undefined, "", "   ", "not a url", "about:blank", "file:///etc/passwd", "javascript:alert(1)", "data:text/html,hi", ["https://a.example/"]]) {
      expect(site(header), String(header)).toBe(DIRECT_SITE);
    }
    expect(site("https://bio.example.com/maya")).toBe(DIRECT_SITE);
    expect(site("http://www.bio.example.com/other")).toBe(DIRECT_SITE);
    expect(site(`https://${"a".repeat(120)}.example/`)).toBe(DIRECT_SITE);
    expect(site(`https://x.example/${"p".repeat(5000)}`)).toBe(DIRECT_SITE);
  });

  it("turns any header string into a short host or Direct, and never throws", () => {
    const host = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;
    const check = (header: string) => {
      const result = site(header);
      expect(result === DIRECT_SITE || (result.length <= 100 && host.test(result))).toBe(true);
      expect(result.includes("/") || result.includes("?")).toBe(false);
    };
    fc.assert(fc.property(fc.string({ maxLength: 300 }), check), { numRuns: 500 });
    fc.assert(fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), check), { numRuns: 500 });
    fc.assert(fc.property(fc.constantFrom("https://", "http://", "android-app://", "ftp://", "//"), fc.string({ unit: "binary", maxLength: 200 }), (scheme, rest) => check(scheme + rest)), { numRuns: 500 });
  });
});
