import crypto from "node:crypto";

/**
 * The signed link in every mail a member gets (welcome, receipts, posts, a failed renewal): it
 * opens their member page without an account. `m1.<membership id>.<link version>.<HMAC>`: what it
 * grants (managing one membership, reading its page's posts while current) is in the token and
 * signed. It does not expire, as a receipt's link must still work a year later; bumping the
 * membership's `linkVersion` makes every earlier link stop (the member asked for new links).
 */
export function memberLinkKey(sessionSecret: string): string {
  return crypto.createHmac("sha256", sessionSecret).update("membership-member-link").digest("hex");
}

const signature = (key: string, membershipId: string, version: number) =>
  crypto.createHmac("sha256", key).update(JSON.stringify(["m1", membershipId, version])).digest("base64url");

export function signMemberToken(key: string, membershipId: string, linkVersion: number): string {
  return ["m1", Buffer.from(membershipId).toString("base64url"), String(linkVersion), signature(key, membershipId, linkVersion)].join(".");
}

/** The membership and link version a token names, or null for anything not signed by us (the caller then checks the version). */
export function readMemberToken(key: string, token: string): { membershipId: string; linkVersion: number } | null {
  if (token.length > 300) return null;
  const parts = token.split(".");
  if (parts.length !== 4) return null;
  const [version, encodedId, linkVersion, given] = parts as [string, string, string, string];
  if (version !== "m1" || !/^[A-Za-z0-9_-]{1,120}$/.test(encodedId) || !/^\d{1,6}$/.test(linkVersion)) return null;
  const membershipId = Buffer.from(encodedId, "base64url").toString("utf8");
  const expected = Buffer.from(signature(key, membershipId, Number(linkVersion)));
  const received = Buffer.from(given);
  if (received.length !== expected.length || !crypto.timingSafeEqual(received, expected)) return null;
  return { membershipId, linkVersion: Number(linkVersion) };
}

/** Where a member manages their membership; posts live under it. */
export const MEMBER_PATH_PREFIX = "/membership/";
export const memberPath = (token: string) => `${MEMBER_PATH_PREFIX}${token}`;
