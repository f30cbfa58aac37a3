import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "#server/domains/api-keys/keys";
import { apiKeyPepper } from "#server/domains/api-keys/key-format";
import type { Config } from "#server/platform/config";
import { user } from "#server/platform/db/schema";
import { loadTagCatalogue } from "#server/domains/opportunities/tags";
import { TEST_API_CONFIG, testMailer } from "#tests/support/api";
import { migratedDatabase } from "#tests/support/databases";
import { silentLogger, TEST_SESSION_SECRET } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { publicApi } from "./http";

const OVERLAY = "https://overlay.example";
const ELSEWHERE = "https://evil.example";

/** The API as the server mounts it (publicApi), with API_CORS_ORIGINS as given. */
describe.each([
  ["closed (the default)", [] as string[]],
  ["open to one site", [OVERLAY]],
  ["open to any site", "*" as const],
])("the API's CORS when %s", (_name, origins) => {
  const database = migratedDatabase("pglite");
  const sandbox = testSandbox(database);
  let server: http.Server;
  let base = "";
  let key = "";

  beforeAll(async () => {
    const db = database.db;
    const config = { ...TEST_API_CONFIG, API_CORS_ORIGINS: origins, API_RATE_LIMIT_PER_MINUTE: 600 } as Config;
    const app = express();
    app.use(publicApi({ deps: { db, payments: sandbox.provider, config, logger: silentLogger, tagCatalogue: () => loadTagCatalogue(db), searchLog: { record: () => {} }, sessionSecret: TEST_SESSION_SECRET, webhooks: { kick: () => {} }, mailer: testMailer(db) } }));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    await db.insert(user).values({ id: "cors_owner", name: "Cora", email: "cora@api.example", emailVerified: true });
    const made = await createApiKey(db, { uid: "cors_owner", mode: "test", pepper: apiKeyPepper(TEST_SESSION_SECRET) }, { name: "overlay", scopes: ["notifications:read"], expiresInDays: null });
    if (made.kind === "ERROR") throw new Error(made.message);
    key = made.key;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const preflight = (origin: string, method = "GET") =>
    fetch(`${base}/me`, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization,content-type,idempotency-key" } });
  const me = (origin: string) => fetch(`${base}/me`, { headers: { origin, authorization: `Bearer ${key}` } });
  const opensTo = (origin: string) => origins === "*" || origins.includes(origin);

  it("answers a listed site's preflight with what a browser needs to send a key, never with credentials", async () => {
    const answer = await preflight(OVERLAY, "POST");
    if (!opensTo(OVERLAY)) {
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
      return;
    }
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(origins === "*" ? "*" : OVERLAY);
    expect(answer.headers.get("access-control-allow-methods")).toBe("GET,POST,PATCH,DELETE");
    expect(answer.headers.get("access-control-allow-headers")?.toLowerCase()).toBe("authorization,content-type,idempotency-key");
    expect(answer.headers.get("access-control-max-age")).toBe("600");
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("lets a listed site read an answer and its limits; any other site's page gets no permission to", async () => {
    const listed = await me(OVERLAY);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe(opensTo(OVERLAY) ? (origins === "*" ? "*" : OVERLAY) : null);
    if (opensTo(OVERLAY)) expect(listed.headers.get("access-control-expose-headers")).toContain("RateLimit");

    const other = await me(ELSEWHERE);
    expect(other.status).toBe(200); // CORS is the browser's to enforce: the server only withholds the permission
    expect(other.headers.get("access-control-allow-origin")).toBe(origins === "*" ? "*" : null);
    expect((await preflight(ELSEWHERE)).headers.get("access-control-allow-origin")).toBe(origins === "*" ? "*" : null);
  });

  it("serves the OpenAPI document under the same rule", async () => {
    const answer = await fetch(`${base}/openapi.json`, { headers: { origin: OVERLAY } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe(opensTo(OVERLAY) ? (origins === "*" ? "*" : OVERLAY) : null);
  });
});
