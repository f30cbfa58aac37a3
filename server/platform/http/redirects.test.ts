import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lenientPercentDecode, safeRedirectPath, signInPath } from "./redirects";

const BASE = "https://app.example";

describe("safeRedirectPath", () => {
  it.each([
    ["/app/account", "/app/account"],
    ["/app/opportunities?tags[]=podcast%20sponsorship", "/app/opportunities?tags[]=podcast%20sponsorship"],
    ["/app/opportunities/abc#top", "/app/opportunities/abc#top"],
    ["/app/a/../b", "/app/b"],
    [null, "/app"],
    ["", "/app"],
    ["https://evil.example/", "/app"],
    ["//evil.example/path", "/app"],
    ["/\\evil.example", "/app"],
    ["/%5Cevil.example", "/app"],
    ["/%2F%2Fevil.example", "/app"],
    ["/%252F%252Fevil.example", "/app"],
    ["/.//evil.example", "/app"],
    ["/./%2F/evil.example", "/app"],
    ["/../..//evil.example", "/app"],
    ["/app/%2e%2e/%2e%2e//evil.example", "/app"],
    ["/app%2F..%2F..%2F%2Fevil.example", "/app"],
    ["/\t/evil.example", "/app"],
    ["/ /evil.example", "/app"],
    ["/\u3000/evil.example", "/app"],
    ["/\uff0fevil.example", "/app"],
    ["/%EF%BC%8Fevil.example", "/app"],
    ["/\uff3cevil.example", "/app"],
    ["/\u2215evil.example", "/app"],
    ["/\u200b/evil.example", "/app"],
    ["javascript:alert(1)", "/app"],
    ["/app\n/x", "/app"],
    ["x".repeat(3000), "/app"],
  ])("%j → %j", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it("uses the caller's fallback", () => {
    expect(safeRedirectPath("//evil.example", "/app/opportunities/1")).toBe("/app/opportunities/1");
  });

  it("builds the sign-in address that returns there, and only there", () => {
    expect(signInPath("/app/account?x=1")).toBe("/signin?redirectTo=%2Fapp%2Faccount%3Fx%3D1");
    expect(signInPath("/.//evil.example")).toBe("/signin?redirectTo=%2Fapp");
  });
});

/**
 * What a browser, a lax proxy or a framework might do to a Location header: strip tabs and
 * newlines, read backslashes as slashes, fold fullwidth characters, and decode %XX once more.
 */
function browserLikeNormalise(location: string): string {
  const decoded = lenientPercentDecode(location);
  return decoded
    .normalize("NFKC")
    .replace(/[\t\n\r]/g, "")
    .replace(/\\/g, "/")
    .replace(/[\u2044\u2215\u29f5\u29f8\u29f9\ufe68]/g, "/")
    .replace(/[\u3002\uff61\u2024]/g, ".");
}

function assertSameOrigin(result: string) {
  expect(result.startsWith("/")).toBe(true);
  expect(result.startsWith("//")).toBe(false);
  expect(result.startsWith("/\\")).toBe(false);
  expect(new URL(result, BASE).origin).toBe(BASE);
  let layer = result;
  for (let round = 0; round < 3; round++) {
    layer = browserLikeNormalise(layer);
    const url = new URL(layer, BASE);
    expect(url.origin, `${JSON.stringify(result)} → ${JSON.stringify(layer)}`).toBe(BASE);
    expect(url.pathname.startsWith("//"), `${JSON.stringify(result)} → ${JSON.stringify(layer)}`).toBe(false);
  }
}

// Fragments an attacker strings together.
const fragment = fc.constantFrom(
  "/", "//", "///", "\\", "\\\\", "/\\", ".", "..", "./", "../", "/./", "/../", ":", "@", "?", "#", "&", "=",
  "%2F", "%2f", "%5C", "%5c", "%252F", "%255C", "%25252F", "%2E", "%2e%2e", "%252e%252e", "%40", "%3A", "%09", "%0A", "%0D", "%00",
  "%E2%88%95", "%EF%BC%8F", "%EF%BC%BC", "%E3%80%82", "%C0%AF", "%",
  "\t", "\n", "\r", "\0", " ", "\u00a0", "\u3000", "\u200b", "\u202e", "\ufeff",
  "\uff0f", "\uff3c", "\uff0e", "\uff20", "\u2215", "\u2044", "\u29f8", "\u3002", "\ufe68",
  "evil.example", "evil.example.", "127.0.0.1", "[::1]", "xn--e1afmkfd", "localhost:3000",
  "http:", "https:", "javascript:", "data:", "HTTP://", "user:pass@",
  "app", "app/opportunities", "signin", "?redirectTo=", "#frag",
);
const hostile = fc.array(fragment, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(""));
const hostilePath = fc.tuple(fc.constantFrom("", "/", "//", "/\\", "/./", "/../"), hostile).map(([start, rest]) => start + rest);

describe("safeRedirectPath under generated hostile input", () => {
  it("always returns a same-origin path, even after a normaliser decodes it again", () => {
    fc.assert(
      fc.property(fc.oneof(hostile, hostilePath, fc.string({ unit: "grapheme", maxLength: 40 })), (input) => {
        assertSameOrigin(safeRedirectPath(input));
      }),
      { numRuns: 20_000 },
    );
  });

  it("keeps plain local paths as they are", () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join("/")}`;
        expect(safeRedirectPath(path)).toBe(path);
      }),
    );
  });
});
