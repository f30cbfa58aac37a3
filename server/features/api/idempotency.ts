import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { apiIdempotencyKeys } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";

/**
 * `Idempotency-Key` for state-changing calls (Stripe's scheme): the first call with a key is
 * answered and its answer kept a day; a retry with the same key and the same request gets that
 * answer again without acting twice; the same key with another request is refused, and so is a
 * retry while the first call is still being answered. Answers of 5xx are not kept (nothing was
 * done that a retry must not repeat).
 */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const KEPT_MS = 24 * 3600 * 1000;

export type IdempotentStart = Result<
  { outcome: "first" } | { outcome: "replay"; status: number; body: unknown },
  Refusal<"unprocessable-content", "IDEMPOTENCY_KEY_REUSED"> | Refusal<"aborted", "IDEMPOTENCY_KEY_IN_USE">
>;

export function requestFingerprint(method: string, route: string, body: unknown): string {
  return createHash("sha256").update(`${method} ${route}\n${JSON.stringify(body ?? null)}`).digest("base64url");
}

export async function beginIdempotentCall(db: Db, { uid, key, fingerprint, now = new Date() }: { uid: string; key: string; fingerprint: string; now?: Date }): Promise<IdempotentStart> {
  const where = and(eq(apiIdempotencyKeys.uid, uid), eq(apiIdempotencyKeys.key, key));
  await db.delete(apiIdempotencyKeys).where(and(where, lt(apiIdempotencyKeys.createdAt, new Date(now.getTime() - KEPT_MS))));
  const inserted = await db.insert(apiIdempotencyKeys).values({ uid, key, fingerprint, createdAt: now }).onConflictDoNothing().returning({ key: apiIdempotencyKeys.key });
  if (inserted.length > 0) return success({ outcome: "first" as const });
  const [kept] = await db.select().from(apiIdempotencyKeys).where(where);
  // Deleted between our insert and read (the first call failed): the caller may simply retry.
  if (!kept || kept.fingerprint !== fingerprint) {
    return refusal("unprocessable-content", "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request. Use a new key for a new request.");
  }
  if (kept.responseStatus === null) return refusal("aborted", "IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being answered. Retry in a moment.");
  return success({ outcome: "replay" as const, status: kept.responseStatus, body: kept.responseBody });
}

export async function finishIdempotentCall(db: Db, { uid, key, status, body }: { uid: string; key: string; status: number; body: unknown }): Promise<void> {
  const where = and(eq(apiIdempotencyKeys.uid, uid), eq(apiIdempotencyKeys.key, key));
  if (status >= 500) {
    await db.delete(apiIdempotencyKeys).where(where);
    return;
  }
  await db.update(apiIdempotencyKeys).set({ responseStatus: status, responseBody: body ?? null }).where(where);
}
