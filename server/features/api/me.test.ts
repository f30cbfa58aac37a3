import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys, user } from "#server/platform/db/schema";
import { revokeApiKey } from "#server/domains/api-keys/keys";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";

describe.each(ENGINES)("the API's front door on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 5, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1000, windowSeconds: 60 } } });

  it("GET /me answers who the key acts for and what it may do", async () => {
    const uid = await api.newAccount("Ada Creator");
    const key = await api.keyFor(uid, ["opportunities:read"]);
    const answer = await api.call("GET", "/me", { key });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: uid, name: "Ada Creator", key: { mode: "test", scopes: ["opportunities:read"], expiresAt: null } });
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a missing, mistyped, unknown, revoked or expired key with 401 and a stable code", async () => {
    const uid = await api.newAccount();
    const key = await api.keyFor(uid);
    expect((await api.call("GET", "/me")).body.error.code).toBe("missing_key");
    const mistyped = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    expect((await api.call("GET", "/me", { key: mistyped })).body.error.code).toBe("malformed_key");
    const other = await api.keyFor(uid);
    await api.db.delete(apiKeys).where(eq(apiKeys.uid, uid));
    expect((await api.call("GET", "/me", { key: other })).body.error.code).toBe("unknown_key");

    const revoked = await api.keyFor(uid);
    const [row] = await api.db.select().from(apiKeys).where(eq(apiKeys.uid, uid));
    expect(await revokeApiKey(api.db, { uid, keyId: row!.id })).toMatchObject({ kind: "SUCCESS" });
    const refused = await api.call("GET", "/me", { key: revoked });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("revoked_key");
    expect(refused.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("a suspended account's keys stop working at once", async () => {
    const uid = await api.newAccount();
    const key = await api.keyFor(uid);
    expect((await api.call("GET", "/me", { key })).status).toBe(200);
    await api.db.update(user).set({ disabled: true }).where(eq(user.id, uid));
    const refused = await api.call("GET", "/me", { key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("account_disabled");
  });

  it("counts requests per key with RateLimit headers, and answers 429 with Retry-After past the limit", async () => {
    const uid = await api.newAccount();
    const key = await api.keyFor(uid);
    const first = await api.call("GET", "/me", { key });
    expect(first.headers.get("ratelimit-policy")).toBe('"per-key";q=5;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"per-key";r=4;t=\d+$/);
    for (let i = 0; i < 4; i++) await api.call("GET", "/me", { key });
    const refused = await api.call("GET", "/me", { key });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another key of the same account has its own budget.
    expect((await api.call("GET", "/me", { key: await api.keyFor(uid) })).status).toBe(200);
  });

  it("an unknown path or method gets the error shape, never an HTML page", async () => {
    const key = await api.keyFor(await api.newAccount());
    const response = await fetch(`${api.baseUrl}/nothing-here`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "route_not_found" } });
    const wrongMethod = await fetch(`${api.baseUrl}/me`, { method: "PUT", headers: { authorization: `Bearer ${key}` } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
  });
});
