import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type express from "express";
import { API_SCOPES, type ApiScope } from "#isomorphic/api-scopes";
import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";
import { apiHarness, contractOf } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { openApiDocument } from "./openapi";
import { API_OPERATIONS } from "./operations/index";
import { apiRouter } from "./router";
import type { ApiDeps } from "./operation";

/** Each route the router answers, as `METHOD /path` in the document's style. */
function mountedRoutes(router: express.Router): string[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean>; stack: unknown[] } };
  const routes: string[] = [];
  for (const layer of router.stack as Layer[]) {
    if (!layer.route) continue;
    const methods = Object.keys(layer.route.methods).filter((method) => method !== "_all");
    for (const method of methods) routes.push(`${method.toUpperCase()} ${layer.route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`);
  }
  return routes;
}

describe("the OpenAPI document", () => {
  const document = openApiDocument(API_OPERATIONS, { serverUrl: "http://app.test", version: "test" });
  const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item as object)
      .filter((key) => ["get", "post", "patch", "put", "delete"].includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

  it("has every route the API router answers, and nothing it does not", () => {
    const router = apiRouter({ operations: API_OPERATIONS, deps: {} as ApiDeps, pepper: "p", mode: "test", requestIdOf: () => "r" });
    const mounted = mountedRoutes(router);
    expect(mounted.length).toBeGreaterThan(0);
    expect(new Set(mounted)).toEqual(new Set(documented));
  });

  it("is the only way into /api/v1: no page route is mounted there", () => {
    expect(fs.readFileSync("app/routes.ts", "utf8")).not.toMatch(/["'`]\/?api\/v1/);
  });

  it("is OpenAPI 3.1 with a unique operationId, a security requirement and the error shape on every operation", () => {
    expect(document.openapi).toBe("3.1.0");
    const ids = API_OPERATIONS.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of API_OPERATIONS) {
      const described = (document.paths as Record<string, Record<string, { security: unknown; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>)[operation.path]![operation.method]!;
      expect(described.security, operation.id).toEqual([{ apiKey: [] }]);
      for (const status of ["401", "429", "500", ...(operation.scope ? ["403"] : [])]) {
        expect(described.responses[status]?.content?.["application/json"]?.schema, `${operation.id} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });
});

describe("the OpenAPI document's webhooks", () => {
  const document = openApiDocument(API_OPERATIONS, { serverUrl: "http://app.test", version: "test" });
  const contract = contractOf(document);
  const membership = { plan: "launchpad", planName: "Launchpad", status: "active", currentPeriodEnd: "2026-12-01T00:00:00.000Z", cancelAtPeriodEnd: false };

  it("describe every event type an endpoint can subscribe to, and nothing else", () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual(WEBHOOK_EVENT_TYPES.map((event) => event.type).sort());
  });

  it("carry an example of each that the schema holds", () => {
    for (const event of WEBHOOK_EVENT_TYPES) {
      const example = (document.webhooks?.[event.type] as { post: { requestBody: { content: Record<string, { example?: unknown }> } } }).post.requestBody.content["application/json"]!.example;
      expect(example, event.type).toMatchObject({ type: event.type });
      expect(() => contract.checkWebhook(example), event.type).not.toThrow();
    }
  });

  it("hold a delivery to its type's data schema: a body of another shape, type or with fields we never send is refused", () => {
    expect(() => contract.checkWebhook({ type: "pro.started", timestamp: "2026-11-26T10:00:00.000Z", data: membership })).not.toThrow();
    expect(() => contract.checkWebhook({ type: "pro.started", timestamp: "2026-11-26T10:00:00.000Z", data: { ...membership, plan: "gold" } })).toThrow(/does not match/);
    expect(() => contract.checkWebhook({ type: "pro.started", timestamp: "2026-11-26T10:00:00.000Z", data: { ...membership, secret: 1 } })).toThrow(/does not match/);
    expect(() => contract.checkWebhook({ type: "payment.succeeded", timestamp: "2026-11-26T10:00:00.000Z", data: membership })).toThrow(/does not match/);
    expect(() => contract.checkWebhook({ type: "pro.paused", timestamp: "2026-11-26T10:00:00.000Z", data: membership })).toThrow(/not in the document/);
  });
});

describe.each(ENGINES)("scopes on every route on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider });
  /** A path that names an object of nobody's: a scope check must come before looking for it. */
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "does_not_exist_0");
  /** A body of the right type but no valid content: refused after the scope check, never acted on. */
  const bodyOf = (method: string) => (method === "post" || method === "patch" ? {} : undefined);

  it.each(API_OPERATIONS.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))(
    "%s: refused without its scope, let through with only its scope",
    async (_name, operation) => {
      const uid = await api.newAccount();
      if (operation.scope === null) {
        for (const scope of API_SCOPES) {
          const answer = await api.call(operation.method.toUpperCase(), concrete(operation.path), { key: await api.keyFor(uid, [scope]), body: bodyOf(operation.method) });
          expect(answer.status, `${scope} alone`).toBeLessThan(300);
        }
        return;
      }
      const allBut = API_SCOPES.filter((scope) => scope !== operation.scope) as ApiScope[];
      const refused = await api.call(operation.method.toUpperCase(), concrete(operation.path), { key: await api.keyFor(uid, allBut), body: bodyOf(operation.method) });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("insufficient_scope");
      const allowed = await api.call(operation.method.toUpperCase(), concrete(operation.path), { key: await api.keyFor(uid, [operation.scope]), body: bodyOf(operation.method) });
      expect([401, 403]).not.toContain(allowed.status);
    },
  );
});
