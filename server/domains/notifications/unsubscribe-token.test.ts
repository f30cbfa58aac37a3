import { describe, expect, it } from "vitest";
import { checkUnsubscribeToken, signUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribeSigningKey } from "./unsubscribe-token";

const key = unsubscribeSigningKey("a-session-secret-of-at-least-32-characters");
const now = 1_800_000_000;
const DAY = 86_400;

describe("unsubscribe tokens", () => {
  it("carry who and which kind, signed, and are valid until their expiry", () => {
    const token = signUnsubscribeToken(key, "user_Ab.9", "payment-received", now);
    expect(checkUnsubscribeToken(key, token, now)).toEqual({ kind: "SUCCESS", uid: "user_Ab.9", notificationKind: "payment-received" });
    expect(checkUnsubscribeToken(key, token, now + UNSUBSCRIBE_LINK_DAYS * DAY)).toMatchObject({ kind: "SUCCESS" });
    expect(checkUnsubscribeToken(key, token, now + UNSUBSCRIBE_LINK_DAYS * DAY + 1)).toMatchObject({ kind: "ERROR", code: "not-found", reason: "EXPIRED_LINK" });
    // Only the token's own characters: it goes into a path unescaped.
    expect(token).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it("refuse any change: another person, another kind, a later expiry, another key, a cut signature", () => {
    const token = signUnsubscribeToken(key, "alice", "refund-done", now);
    const [version, , kind, expires, signature] = token.split(".") as [string, string, string, string, string];
    const forged = [
      [version, Buffer.from("bob").toString("base64url"), kind, expires, signature].join("."),
      [version, Buffer.from("alice").toString("base64url"), "payment-received", expires, signature].join("."),
      [version, Buffer.from("alice").toString("base64url"), kind, String(Number(expires) + DAY), signature].join("."),
      token.slice(0, -2),
      `${token}x`,
      "v2" + token.slice(2),
      "not-a-token",
      "",
    ];
    for (const candidate of forged) expect(checkUnsubscribeToken(key, candidate, now)).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_LINK" });
    expect(checkUnsubscribeToken(unsubscribeSigningKey("another-secret-of-at-least-32-characters!"), token, now)).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_LINK" });
    // A forged token is "invalid" even when its claimed expiry has passed: "expired" is only said of real ones.
    expect(checkUnsubscribeToken(key, forged[0]!, now + 100 * DAY)).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_LINK" });
  });

  it("refuses kinds that do not exist and oversized input without reading further", () => {
    const token = signUnsubscribeToken(key, "alice", "general", now);
    expect(checkUnsubscribeToken(key, token.replace(".general.", ".nonsense."), now)).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_LINK" });
    expect(checkUnsubscribeToken(key, "v1." + "A".repeat(500), now)).toMatchObject({ kind: "ERROR", code: "invalid-argument", reason: "INVALID_LINK" });
  });
});
