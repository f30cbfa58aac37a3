import { describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { brokenRules, brokenRulesMessage, describePolicy } from "#isomorphic/password-rules";
import { passwordPolicyFrom } from "./password-policy";

describe("password policy", () => {
  it("defaults to a minimum length of 6 and nothing else", () => {
    const policy = passwordPolicyFrom(loadConfig({}));
    expect(policy).toEqual({
      minLength: 6, maxLength: null, requireLowercase: false, requireUppercase: false, requireNumeric: false, requireNonAlphanumeric: false,
    });
    expect(brokenRules("12345", policy)).toEqual(["minLength"]);
    expect(brokenRules("123456", policy)).toEqual([]);
  });

  it("applies every configured rule and names the broken ones", () => {
    const policy = passwordPolicyFrom(
      loadConfig({
        PASSWORD_MIN_LENGTH: "8",
        PASSWORD_MAX_LENGTH: "12",
        PASSWORD_REQUIRE_LOWERCASE: "true",
        PASSWORD_REQUIRE_UPPERCASE: "true",
        PASSWORD_REQUIRE_NUMERIC: "true",
        PASSWORD_REQUIRE_NON_ALPHANUMERIC: "true",
      }),
    );
    expect(describePolicy(policy).map((r) => r.text)).toEqual([
      "At least 8 characters", "At most 12 characters", "A lowercase letter", "An uppercase letter", "A number", "A symbol, such as ! or #",
    ]);
    expect(brokenRules("abc", policy)).toEqual(["minLength", "uppercase", "numeric", "nonAlphanumeric"]);
    expect(brokenRules("Abcdefgh1!", policy)).toEqual([]);
    expect(brokenRules("Abcdefgh1!xyz", policy)).toEqual(["maxLength"]);
    expect(brokenRules("ÉCOLE-école-1", { ...policy, maxLength: null })).toEqual([]);
    expect(brokenRulesMessage(["minLength", "numeric"], policy)).toBe("Your password needs: at least 8 characters, a number.");
  });

  it("counts characters, not UTF-16 units", () => {
    const policy = passwordPolicyFrom(loadConfig({}));
    expect(brokenRules("😀😀😀😀😀", policy)).toEqual(["minLength"]);
  });
});
