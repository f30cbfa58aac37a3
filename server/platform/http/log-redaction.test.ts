import { describe, expect, it } from "vitest";
import { redactAccountTokens } from "./log-redaction";

describe("redactAccountTokens", () => {
  it.each([
    ["/reset-password?token=abc123", "/reset-password?token=[redacted]"],
    ["/app/verify?oobCode=eyJhbGciOi.x.y&next=1", "/app/verify?oobCode=[redacted]&next=1"],
    ["/api/auth/reset-password/x?callbackURL=%2F&TOKEN=zz#frag", "/api/auth/reset-password/x?callbackURL=%2F&TOKEN=[redacted]#frag"],
    ["/app/opportunities?tags[]=podcast", "/app/opportunities?tags[]=podcast"],
    ["/app?mytoken=keep", "/app?mytoken=keep"],
    [undefined, undefined],
  ])("%s → %s", (input, expected) => {
    expect(redactAccountTokens(input)).toBe(expected);
  });
});
