import { customAlphabet } from "nanoid";

/** SPEC §9 "Post id base": ids sort newest first as plain strings. */
export const POST_ID_BASE = 10_000_000_000;

const randomPart = customAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 20);

/** `(10000000000 − creation epoch seconds)_<random>`, e.g. `8236281600_Xq3…`. */
export function newOpportunityId(createdAt: Date): string {
  const epochSeconds = Math.floor(createdAt.getTime() / 1000);
  return `${POST_ID_BASE - epochSeconds}_${randomPart()}`;
}

// The database's own check on opportunity_posts.id (plus a length bound).
const POST_ID_FORMAT = /^[0-9]{10}_[A-Za-z0-9]{1,64}$/;

/**
 * Whether a client-given id can name a post at all. Anything else (a NUL, a
 * megabyte, invalid text) is "not found" before it reaches a query, where
 * PostgreSQL would refuse it with an error.
 */
export function isPostId(value: string): boolean {
  return POST_ID_FORMAT.test(value);
}
