import { describe, expect, it } from "vitest";
import { checkLoginLink, checkOnboardingLink, loginLink, onboardingLink, readOnboardingLink, safeReturnUrl } from "./links";
import { parseOnboardingForm } from "./onboarding-form";
import { linkSigningKey } from "./signing";

const ORIGIN = "http://app.test";
const key = linkSigningKey("a-session-secret-of-at-least-32-characters");
const NOW = new Date("2026-11-22T18:00:00Z");
const input = { accountId: "acct_sbx_000000000000000000000001", linkId: "link-one", returnUrl: `${ORIGIN}/app/payments/return?state=abc`, refreshUrl: `${ORIGIN}/app/payments/setup` };
const opened = (url: string) => {
  const parsed = new URL(url);
  return readOnboardingLink(parsed.pathname.split("/").at(-1)!, parsed.searchParams);
};

describe("sandbox links", () => {
  it("sends a browser back only to a path on our own origin", () => {
    expect(safeReturnUrl(ORIGIN, `${ORIGIN}/app/payments/return?state=abc#x`)).toBe(`${ORIGIN}/app/payments/return?state=abc#x`);
    for (const hostile of [
      "https://evil.example/app",
      "//evil.example/app",
      "javascript:alert(1)",
      `${ORIGIN}.evil.example/app`,
      `${ORIGIN}/%2F%2Fevil.example`,
      `${ORIGIN}/\\evil.example`,
      "",
      null,
      "not a url",
    ]) {
      expect(safeReturnUrl(ORIGIN, hostile)).toMatch(new RegExp(`^${ORIGIN}/`));
      expect(new URL(safeReturnUrl(ORIGIN, hostile)).origin).toBe(ORIGIN);
    }
    expect(safeReturnUrl(ORIGIN, "https://evil.example/app")).toBe(`${ORIGIN}/app`);
  });

  it("signs an onboarding link for 30 minutes, and any change to it makes it invalid", () => {
    const url = onboardingLink(ORIGIN, key, input, NOW);
    expect(checkOnboardingLink(key, opened(url), NOW)).toBe("valid");
    expect(checkOnboardingLink(key, opened(url), new Date(NOW.getTime() + 30 * 60_000))).toBe("valid");
    expect(checkOnboardingLink(key, opened(url), new Date(NOW.getTime() + 30 * 60_000 + 1_000))).toBe("expired");
    expect(checkOnboardingLink(key, opened(url.replace("state%3Dabc", "state%3Dxyz")), NOW)).toBe("invalid");
    expect(checkOnboardingLink(key, opened(url.replace(/expires=\d+/, "expires=99999999999")), NOW)).toBe("invalid");
    expect(checkOnboardingLink(key, opened(url.replace(/sig=[^&]+/, "")), NOW)).toBe("invalid");
    expect(checkOnboardingLink(key, { ...opened(url), accountId: "acct_sbx_000000000000000000000002" }, NOW)).toBe("invalid");
    // The link's id is signed: an old link cannot be passed off as the current one.
    expect(checkOnboardingLink(key, { ...opened(url), linkId: "link-two" }, NOW)).toBe("invalid");
    expect(checkOnboardingLink(linkSigningKey("another-secret-of-at-least-32-characters"), opened(url), NOW)).toBe("invalid");
  });

  it("refuses to make an onboarding link that returns anywhere but our origin", () => {
    expect(() => onboardingLink(ORIGIN, key, { ...input, returnUrl: "https://evil.example/" }, NOW)).toThrow(/return_url/);
    expect(() => onboardingLink(ORIGIN, key, { ...input, refreshUrl: "nonsense" }, NOW)).toThrow(/refresh_url/);
  });

  it("signs a dashboard link for one account, for 15 minutes", () => {
    const url = new URL(loginLink(ORIGIN, key, input.accountId, NOW));
    expect(checkLoginLink(key, input.accountId, url.searchParams, NOW)).toBe("valid");
    expect(checkLoginLink(key, "acct_sbx_000000000000000000000002", url.searchParams, NOW)).toBe("invalid");
    expect(checkLoginLink(key, input.accountId, url.searchParams, new Date(NOW.getTime() + 15 * 60_000 + 1_000))).toBe("expired");
    expect(checkLoginLink(key, input.accountId, new URLSearchParams(), NOW)).toBe("invalid");
  });
});

describe("sandbox onboarding form", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return data;
  };

  it("takes a legal name, the US, a test bank account and consent", () => {
    expect(parseOnboardingForm(form({ legalName: "  Maya   Makes LLC ", country: "US", bankAccount: "0001 2345 6789", agree: "on" }))).toEqual({
      kind: "SUCCESS",
      details: { legalName: "Maya Makes LLC", country: "US", bankAccount: "000123456789" },
    });
  });

  it("names each missing or wrong field", () => {
    const result = parseOnboardingForm(form({ legalName: "", country: "FR", bankAccount: "12ab" }));
    expect(result).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_FIELDS" });
    if (result.kind !== "ERROR") return;
    expect(Object.keys(result.errors).sort()).toEqual(["agree", "bankAccount", "country", "legalName"]);
    expect(parseOnboardingForm(form({ legalName: "x".repeat(101), country: "US", bankAccount: "000123456789", agree: "on" }))).toMatchObject({
      errors: { legalName: "Use at most 100 characters." },
    });
  });
});
