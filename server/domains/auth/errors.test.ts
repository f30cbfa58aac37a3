import { describe, expect, it } from "vitest";
import { GENERIC_SIGN_IN_ERROR, identityCodeFromAuthError, signInErrorMessage, waitDetail } from "./errors";

describe("sign-in error messages (SPEC §8)", () => {
  it.each([
    ["wrong-password", "Password is incorrect. Please try again."],
    ["user-disabled", "Your account has been disabled. Please contact support for further information."],
    ["invalid-email", "Email is invalid. Please try again."],
    ["user-not-found", "We couldn't find an account with that email address. Please try again."],
    ["email-already-in-use", "email-already-in-use"],
    ["too-many-requests", GENERIC_SIGN_IN_ERROR],
    ["something-new", "Sorry, something went wrong. Please try again."],
  ])("%s reads %j", (code, message) => {
    expect(signInErrorMessage(code)).toBe(message);
  });

  it.each([
    ["USER_ALREADY_EXISTS", "email-already-in-use"],
    ["INVALID_EMAIL", "invalid-email"],
    ["INVALID_EMAIL_OR_PASSWORD", "wrong-password"],
    ["PASSWORD_TOO_SHORT", "password-does-not-meet-requirements"],
    ["INVALID_TOKEN", "invalid-action-code"],
    ["TOKEN_EXPIRED", "expired-action-code"],
    [undefined, "unknown"],
  ])("maps better-auth %s to %s", (authCode, code) => {
    expect(identityCodeFromAuthError(authCode)).toBe(code);
  });

  it.each([
    [1, "Please wait 1 second before trying again."],
    [42, "Please wait 42 seconds before trying again."],
    [60, "Please wait 1 minute before trying again."],
    [61, "Please wait 2 minutes before trying again."],
  ])("a wait of %ds reads %j on the second line", (seconds, detail) => {
    expect(waitDetail(seconds)).toBe(detail);
  });
});
