import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { API_KEY_NAME_MAX, API_SCOPES, MAX_API_KEYS_PER_ACCOUNT } from "#isomorphic/api-scopes";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey, type NewApiKey } from "./keys";
import { apiKeyPepper, hashApiKey, parseApiKey } from "./key-format";

const PEPPER = apiKeyPepper("keys-test-session-secret-0123456789abcdef");
const DAY = 86_400_000;

describe.each(ENGINES)("API keys on %s", (engine) => {
  const database = migratedDatabase(engine);
  let counter = 0;

  async function newAccount(): Promise<string> {
    const uid = `keys_user_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
    await database.db.insert(user).values({ id: uid, name: "Key Owner", email: `${uid}@keys.example`, emailVerified: true });
    return uid;
  }

  const input = (overrides: Partial<NewApiKey> = {}): NewApiKey => ({ name: "Spreadsheet sync", scopes: ["opportunities:read"], expiresInDays: null, ...overrides });

  async function make(uid: string, overrides: Partial<NewApiKey> = {}, options: { mode?: "live" | "test"; now?: Date } = {}) {
    const made = await createApiKey(database.db, { uid, mode: options.mode ?? "live", pepper: PEPPER, now: options.now }, input(overrides));
    if (made.kind === "ERROR") throw new Error(made.message);
    return made;
  }

  it("makes a key shown once: only its keyed hash and display are stored, never the key", async () => {
    const uid = await newAccount();
    const made = await make(uid, { scopes: ["payments:read", "payments:write", "payments:read"] });
    expect(parseApiKey(made.key)).toEqual({ mode: "live" });
    expect(made.view).toMatchObject({ name: "Spreadsheet sync", mode: "live", scopes: ["payments:read", "payments:write"], expiresAt: null, lastUsedAt: null, revokedAt: null });
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, made.view.id));
    expect(row!.hash).toBe(hashApiKey(made.key, PEPPER));
    expect(row!.display).toBe(`${made.key.slice(0, 12)}…${made.key.slice(-4)}`);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(made.key);
    expect(stored).not.toContain(made.key.slice(8, 40));
    // The list never carries the key either.
    expect(JSON.stringify(await listApiKeys(database.db, uid))).not.toContain(made.key);
  });

  it("the key's mode follows the server's: test keys under the sandbox", async () => {
    const uid = await newAccount();
    const made = await make(uid, {}, { mode: "test" });
    expect(made.key.startsWith("sg_test_")).toBe(true);
    expect(made.view.mode).toBe("test");
    expect(made.view.display.startsWith("sg_test_")).toBe(true);
  });

  it("refuses a missing or long name, no scopes, unknown scopes and an expiry off the list, field by field", async () => {
    const uid = await newAccount();
    const refused = async (overrides: Partial<NewApiKey>) => {
      const result = await createApiKey(database.db, { uid, mode: "live", pepper: PEPPER }, input(overrides));
      expect(result.kind).toBe("ERROR");
      return result.kind === "ERROR" && "fieldErrors" in result ? result.fieldErrors : null;
    };
    expect(await refused({ name: "   " })).toEqual({ name: expect.any(String) });
    expect(await refused({ name: "x".repeat(API_KEY_NAME_MAX + 1) })).toEqual({ name: expect.any(String) });
    expect(await refused({ scopes: [] })).toEqual({ scopes: expect.any(String) });
    expect(await refused({ scopes: ["opportunities:read", "admin:write"] })).toEqual({ scopes: expect.any(String) });
    for (const expiresInDays of [0, -1, 1.5, 367, Number.NaN]) expect(await refused({ expiresInDays })).toEqual({ expiresInDays: expect.any(String) });
    expect(await refused({ name: "", scopes: [], expiresInDays: 0 })).toEqual({ name: expect.any(String), scopes: expect.any(String), expiresInDays: expect.any(String) });
    expect(await listApiKeys(database.db, uid)).toEqual([]);
  });

  it("trims the name and takes every scope", async () => {
    const uid = await newAccount();
    const made = await make(uid, { name: "  Zapier  ", scopes: API_SCOPES, expiresInDays: 7 });
    expect(made.view.name).toBe("Zapier");
    expect(made.view.scopes).toEqual([...API_SCOPES]);
  });

  it("sets the expiry that many days on, and an expired key stops working", async () => {
    const uid = await newAccount();
    const now = new Date("2026-03-01T10:00:00.000Z");
    const made = await make(uid, { expiresInDays: 30 }, { now });
    expect(made.view.expiresAt).toEqual(new Date(now.getTime() + 30 * DAY));
    const auth = (at: Date) => authenticateApiKey(database.db, { key: made.key, pepper: PEPPER, mode: "live", now: at });
    expect((await auth(new Date(now.getTime() + 30 * DAY - 1000))).kind).toBe("SUCCESS");
    expect(await auth(new Date(now.getTime() + 30 * DAY))).toMatchObject({ kind: "ERROR", reason: "EXPIRED_KEY" });
  });

  it("lists the account's own keys, newest first, with last use and revoked ones included", async () => {
    const uid = await newAccount();
    const other = await newAccount();
    const first = await make(uid, { name: "First" }, { now: new Date("2026-01-01T00:00:00Z") });
    const second = await make(uid, { name: "Second" }, { now: new Date("2026-01-02T00:00:00Z") });
    await make(other, { name: "Someone else's" });
    const used = new Date("2026-01-03T12:00:00Z");
    expect((await authenticateApiKey(database.db, { key: first.key, pepper: PEPPER, mode: "live", now: used })).kind).toBe("SUCCESS");
    await revokeApiKey(database.db, { uid, keyId: second.view.id, now: new Date("2026-01-04T00:00:00Z") });

    const list = await listApiKeys(database.db, uid);
    expect(list.map((key) => key.name)).toEqual(["Second", "First"]);
    expect(list[0]).toMatchObject({ revokedAt: new Date("2026-01-04T00:00:00Z"), lastUsedAt: null });
    expect(list[1]).toMatchObject({ revokedAt: null, lastUsedAt: used });
  });

  it("notes a key's use at most once a minute: the list shows it to the minute", async () => {
    const uid = await newAccount();
    const made = await make(uid);
    const useAt = (iso: string) => authenticateApiKey(database.db, { key: made.key, pepper: PEPPER, mode: "live", now: new Date(iso) });
    const lastUsed = async () => (await listApiKeys(database.db, uid))[0]!.lastUsedAt;
    await useAt("2026-01-01T00:00:00Z");
    await useAt("2026-01-01T00:00:59Z");
    expect(await lastUsed()).toEqual(new Date("2026-01-01T00:00:00Z"));
    await useAt("2026-01-01T00:01:01Z");
    expect(await lastUsed()).toEqual(new Date("2026-01-01T00:01:01Z"));
  });

  it("revokes the caller's own key at once; another account's key is not found and keeps working", async () => {
    const uid = await newAccount();
    const other = await newAccount();
    const mine = await make(uid);
    const theirs = await make(other);

    expect(await revokeApiKey(database.db, { uid, keyId: theirs.view.id })).toMatchObject({ kind: "ERROR", code: "not-found", reason: "KEY_NOT_FOUND" });
    expect(await revokeApiKey(database.db, { uid, keyId: "key_doesnotexist0000" })).toMatchObject({ kind: "ERROR", reason: "KEY_NOT_FOUND" });
    expect((await authenticateApiKey(database.db, { key: theirs.key, pepper: PEPPER, mode: "live" })).kind).toBe("SUCCESS");

    expect((await authenticateApiKey(database.db, { key: mine.key, pepper: PEPPER, mode: "live" })).kind).toBe("SUCCESS");
    const revokedAt = new Date("2026-05-05T05:05:05Z");
    expect(await revokeApiKey(database.db, { uid, keyId: mine.view.id, now: revokedAt })).toMatchObject({ kind: "SUCCESS", view: { revokedAt } });
    expect(await authenticateApiKey(database.db, { key: mine.key, pepper: PEPPER, mode: "live" })).toMatchObject({ kind: "ERROR", reason: "REVOKED_KEY" });
    // Revoking again keeps the first time.
    expect(await revokeApiKey(database.db, { uid, keyId: mine.view.id, now: new Date("2026-06-06T00:00:00Z") })).toMatchObject({ kind: "SUCCESS", view: { revokedAt } });
  });

  it(`allows at most ${MAX_API_KEYS_PER_ACCOUNT} keys that are not revoked; revoking one makes room`, async () => {
    const uid = await newAccount();
    const made = [];
    for (let i = 0; i < MAX_API_KEYS_PER_ACCOUNT; i++) made.push(await make(uid, { name: `Key ${i}` }));
    expect(await createApiKey(database.db, { uid, mode: "live", pepper: PEPPER }, input())).toMatchObject({ kind: "ERROR", code: "resource-exhausted", reason: "TOO_MANY_KEYS" });
    // Another account is not affected.
    await make(await newAccount());
    await revokeApiKey(database.db, { uid, keyId: made[0]!.view.id });
    expect((await createApiKey(database.db, { uid, mode: "live", pepper: PEPPER }, input())).kind).toBe("SUCCESS");
  });

  it("a key works only under its own mode and its own pepper", async () => {
    const uid = await newAccount();
    const live = await make(uid, {}, { mode: "live" });
    expect(await authenticateApiKey(database.db, { key: live.key, pepper: PEPPER, mode: "test" })).toMatchObject({ kind: "ERROR", reason: "WRONG_MODE" });
    expect(await authenticateApiKey(database.db, { key: live.key, pepper: apiKeyPepper("another-session-secret-0123456789abcdef"), mode: "live" })).toMatchObject({ kind: "ERROR", reason: "UNKNOWN_KEY" });
    expect(await authenticateApiKey(database.db, { key: live.key, pepper: PEPPER, mode: "live" })).toMatchObject({ kind: "SUCCESS", caller: { uid, keyId: live.view.id, mode: "live", scopes: ["opportunities:read"] } });
  });
});
