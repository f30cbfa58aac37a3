import { and, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Db } from "#server/platform/db/client";
import { apiKeys, user } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type Refusal, type Result } from "#server/platform/errors";
import { API_KEY_NAME_MAX, MAX_API_KEYS_PER_ACCOUNT, isApiScope, type ApiScope } from "#isomorphic/api-scopes";
import { displayApiKey, generateApiKey, hashApiKey, parseApiKey, type ApiKeyMode } from "./key-format";

/** Who is calling the API: the key's owner, with what the key allows. */
export type ApiCaller = { uid: string; keyId: string; mode: ApiKeyMode; scopes: readonly ApiScope[] };

export type ApiKeyView = {
  id: string;
  name: string;
  display: string;
  mode: ApiKeyMode;
  scopes: ApiScope[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export type NewApiKey = { name: string; scopes: readonly string[]; expiresInDays: number | null };
export type ApiKeyFieldErrors = { name?: string; scopes?: string; expiresInDays?: string };

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Makes a key for `uid`; the key itself is in the answer and nowhere else, ever. `mode` follows
 * the payment provider (test under the sandbox), so a key made on a test install fails on a live one.
 */
export async function createApiKey(
  db: Db,
  { uid, mode, pepper, now = new Date() }: { uid: string; mode: ApiKeyMode; pepper: string; now?: Date },
  input: NewApiKey,
): Promise<Result<{ key: string; view: ApiKeyView }, Refusal<"invalid-argument", "INVALID_FIELDS", { fieldErrors: ApiKeyFieldErrors }> | Refusal<"resource-exhausted", "TOO_MANY_KEYS">>> {
  const name = input.name.trim();
  const fieldErrors: ApiKeyFieldErrors = {};
  if (name === "") fieldErrors.name = "Give the key a name, so you know later what uses it.";
  else if (name.length > API_KEY_NAME_MAX) fieldErrors.name = `Use at most ${API_KEY_NAME_MAX} characters.`;
  const scopes = [...new Set(input.scopes)];
  if (scopes.length === 0) fieldErrors.scopes = "Choose at least one permission.";
  else if (!scopes.every(isApiScope)) fieldErrors.scopes = "Choose permissions from the list.";
  if (input.expiresInDays !== null && !(Number.isInteger(input.expiresInDays) && input.expiresInDays >= 1 && input.expiresInDays <= 366)) {
    fieldErrors.expiresInDays = "Choose when the key expires from the list.";
  }
  if (Object.keys(fieldErrors).length > 0) return fieldRefusal(fieldErrors);

  const [{ active } = { active: 0 }] = await db
    .select({ active: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.uid, uid), isNull(apiKeys.revokedAt)));
  if (active >= MAX_API_KEYS_PER_ACCOUNT) {
    return refusal("resource-exhausted", "TOO_MANY_KEYS", `You have ${MAX_API_KEYS_PER_ACCOUNT} keys. Revoke one you no longer use first.`);
  }

  const key = generateApiKey(mode);
  const expiresAt = input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * 86_400_000);
  const [row] = await db
    .insert(apiKeys)
    .values({ id: `key_${nanoid(16)}`, uid, name, mode, scopes: scopes as ApiScope[], hash: hashApiKey(key, pepper), display: displayApiKey(key), createdAt: now, expiresAt })
    .returning();
  return success({ key, view: viewOf(row!) });
}

/** The account's keys, newest first, revoked ones included (they say when). */
export async function listApiKeys(db: Db, uid: string): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.uid, uid)).orderBy(desc(apiKeys.createdAt));
  return rows.map(viewOf);
}

/** Revokes one of the caller's own keys at once; anyone else's is not found. */
export async function revokeApiKey(db: Db, { uid, keyId, now = new Date() }: { uid: string; keyId: string; now?: Date }): Promise<Result<{ view: ApiKeyView }, Refusal<"not-found", "KEY_NOT_FOUND">>> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${now})` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.uid, uid)))
    .returning();
  if (!row) return refusal("not-found", "KEY_NOT_FOUND", "There is no such key on your account.");
  return success({ view: viewOf(row) });
}

export type ApiKeyRefusalReason = "MISSING_KEY" | "MALFORMED_KEY" | "UNKNOWN_KEY" | "REVOKED_KEY" | "EXPIRED_KEY" | "WRONG_MODE" | "ACCOUNT_DISABLED";

/**
 * Who a bearer key belongs to, read on every request (nothing cached: a revoked key or a
 * suspended account is out at once). A key whose checksum fails is refused before the database.
 */
export async function authenticateApiKey(
  db: Db,
  { key, pepper, mode, now = new Date() }: { key: string | null; pepper: string; mode: ApiKeyMode; now?: Date },
): Promise<Result<{ caller: ApiCaller }, Refusal<"unauthenticated", ApiKeyRefusalReason>>> {
  if (!key) return refusal("unauthenticated", "MISSING_KEY", "Send your API key as Authorization: Bearer sg_….");
  const parsed = parseApiKey(key);
  if (!parsed) return refusal("unauthenticated", "MALFORMED_KEY", "This is not a Sponsorgrid API key. Check that it was copied whole.");
  const [row] = await db
    .select({ key: apiKeys, disabled: user.disabled })
    .from(apiKeys)
    .innerJoin(user, eq(user.id, apiKeys.uid))
    .where(eq(apiKeys.hash, hashApiKey(key, pepper)));
  if (!row) return refusal("unauthenticated", "UNKNOWN_KEY", "This API key does not exist. It may have been deleted with its account.");
  if (row.key.revokedAt) return refusal("unauthenticated", "REVOKED_KEY", "This API key was revoked.");
  if (row.key.expiresAt && row.key.expiresAt <= now) return refusal("unauthenticated", "EXPIRED_KEY", "This API key has expired. Make a new one in My Account.");
  if (row.disabled) return refusal("unauthenticated", "ACCOUNT_DISABLED", "The account this key belongs to is disabled.");
  if (parsed.mode !== mode) {
    return refusal("unauthenticated", "WRONG_MODE", mode === "live" ? "This is a test key; this server takes live keys (sg_live_…)." : "This is a live key; this server runs the payment sandbox and takes test keys (sg_test_…).");
  }
  await noteUse(db, row.key, now);
  return success({ caller: { uid: row.key.uid, keyId: row.key.id, mode: row.key.mode, scopes: row.key.scopes.filter(isApiScope) } });
}

/**
 * At most one write a minute per key: the list shows "last used" to the minute. A key used in
 * the last minute, as just read, costs no query at all (the busy case: a key making requests).
 */
async function noteUse(db: Db, key: { id: string; lastUsedAt: Date | null }, now: Date): Promise<void> {
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (key.lastUsedAt && key.lastUsedAt >= stale) return;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
}

function viewOf(row: typeof apiKeys.$inferSelect): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    display: row.display,
    mode: row.mode,
    scopes: row.scopes.filter(isApiScope),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}
