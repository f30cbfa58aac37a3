import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callToAction, ctaHref, DEFAULT_CTA_TEXT } from "./cta";

describe("call-to-action destinations (SPEC §2.5)", () => {
  it("rewrites the spec's four destinations", () => {
    expect(ctaHref("/app/my-sponsors/all")).toBe("/app/account/sponsors");
    expect(ctaHref("/app/post/opportunity")).toBe("/app/opportunities/new");
    expect(ctaHref("/app/bizbio/new")).toBe("/app/account/bizbio/new");
    expect(ctaHref("/app/payments/setup")).toBe("/app/account/payments");
  });

  it("rewrites them with a trailing slash, and keeps their query and fragment", () => {
    expect(ctaHref("/app/payments/setup/")).toBe("/app/account/payments");
    expect(ctaHref("/app/bizbio/new?from=alert#top")).toBe("/app/account/bizbio/new?from=alert#top");
  });

  it("uses any other same-site path or http(s) URL as given", () => {
    expect(ctaHref("/app/account/sponsors/payments/ss_123")).toBe("/app/account/sponsors/payments/ss_123");
    expect(ctaHref("/app/payments/setup/return")).toBe("/app/payments/setup/return");
    expect(ctaHref("/app/opportunities?tags[]=youtube")).toBe("/app/opportunities?tags[]=youtube");
    expect(ctaHref("https://help.example.com/payouts?x=1")).toBe("https://help.example.com/payouts?x=1");
    expect(ctaHref("HTTP://Example.com")).toBe("http://example.com/");
  });

  it("drops what is not a same-site path or a web URL", () => {
    for (const bad of [
      null, undefined, "", "   ", "javascript:alert(1)", "JavaScript:alert(1)", "java\tscript:alert(1)", " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>", "vbscript:x", "//evil.example/x", "/\\evil.example", "\\\\evil.example",
      "/app\n/x", "/app/\u0000", "mailto:a@b.example", "ftp://files.example", "https://user:pw@evil.example/", "app/relative",
      "https://", `/${"a".repeat(3000)}`,
    ]) {
      expect(ctaHref(bad), String(bad)).toBeNull();
    }
  });

  it("labels the button with button_text, or a default when only a destination is given", () => {
    expect(callToAction("/app/payments/setup", "Set up payments")).toEqual({ href: "/app/account/payments", text: "Set up payments", external: false });
    expect(callToAction("/app/account", null)).toEqual({ href: "/app/account", text: DEFAULT_CTA_TEXT, external: false });
    expect(callToAction("/app/account", "  ")).toMatchObject({ text: DEFAULT_CTA_TEXT });
    expect(callToAction("https://example.com/", "Read")).toEqual({ href: "https://example.com/", text: "Read", external: true });
    expect(callToAction(null, "Orphan text")).toBeNull();
    expect(callToAction("javascript:alert(1)", "Click")).toBeNull();
  });

  const scheme = fc.constantFrom("javascript", "data", "vbscript", "file", "blob", "about");
  const caseMix = (word: string) =>
    fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((flags) => [...word].map((c, i) => (flags[i] ? c.toUpperCase() : c)).join(""));
  const noise = fc.constantFrom("", " ", "\t", "\n", "\r", "\u0000", "\u00a0", "\u200b", "\ufeff", "%20", "/", "\\", "//", "/\\");

  const isControlOrSpace = (c: string) => c.charCodeAt(0) <= 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f);

  /** What a browser could run or send to another host if it were an href. */
  function isDangerous(href: string): boolean {
    const lowered = [...href.toLowerCase()].filter((c) => !isControlOrSpace(c)).join("");
    if (/^(javascript|data|vbscript|file|blob|about):/.test(lowered)) return true;
    if (href.startsWith("//") || href.startsWith("/\\") || href.startsWith("\\")) return true;
    if (!href.startsWith("/") && !/^https?:\/\/[^/\\]/.test(href)) return true;
    return [...href].some(isControlOrSpace);
  }

  it("never yields a scripting scheme, a protocol-relative address or control characters (property)", () => {
    const hostile = fc.oneof(
      fc.tuple(noise, scheme.chain(caseMix), noise, fc.string()).map(([a, s, b, rest]) => `${a}${s}${b}:${rest}`),
      fc.tuple(noise, noise, fc.string()).map(([a, b, rest]) => `${a}${b}${rest}`),
      fc.tuple(fc.constantFrom("/", "//", "/\\", "\\/", "/%2F", "/%5C", "https:", "http:/"), fc.string()).map(([a, rest]) => `${a}${rest}`),
      fc.string({ unit: "binary" }),
      fc.webUrl().map((url) => url.replace(/^https?:/, "")),
    );
    fc.assert(
      fc.property(hostile, (value) => {
        const href = ctaHref(value);
        if (href !== null) expect(isDangerous(href), `${JSON.stringify(value)} → ${JSON.stringify(href)}`).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every http(s) URL and every plain path it is given (property)", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), (url) => {
        const href = ctaHref(url);
        if (href !== null) expect(href).toBe(new URL(url).href);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join("/")}`;
        expect(ctaHref(path)).toBe(path);
      }),
    );
  });
});
