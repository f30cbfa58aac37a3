import { describe, expect, it } from "vitest";
import { safeRedirectPath, signInPath } from "./redirects";

describe("safeRedirectPath", () => {
  it.each([
    ["/app/account", "/app/account"],
    ["/app/opportunities?tags[]=podcast%20sponsorship", "/app/opportunities?tags[]=podcast%20sponsorship"],
    [null, "/app"],
    ["", "/app"],
    ["https://evil.example/", "/app"],
    ["//evil.example/path", "/app"],
    ["/\\evil.example", "/app"],
    ["/%5Cevil.example", "/%5Cevil.example"],
    ["javascript:alert(1)", "/app"],
    ["/app\n/x", "/app"],
  ])("%j → %j", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it("builds the sign-in address that returns there", () => {
    expect(signInPath("/app/account?x=1")).toBe("/signin?redirectTo=%2Fapp%2Faccount%3Fx%3D1");
  });
});
