// The public API in tests: the real `/api/v1` router on loopback over a test database, a way to
// make keys, and a client whose every answer is checked against the OpenAPI document (status
// documented for the operation, body valid against its schema) — so the document is a contract.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import express from "express";
import { afterAll, beforeAll, expect } from "vitest";
import { createApiKey } from "#server/domains/api-keys/keys";
import { apiKeyPepper } from "#server/domains/api-keys/key-format";
import { openApiDocument } from "#server/features/api/openapi";
import { API_OPERATIONS } from "#server/features/api/operations/index";
import type { AnyApiOperation } from "#server/features/api/operation";
import { apiRouter } from "#server/features/api/router";
import type { RateLimitRule } from "#server/platform/abuse/rate-limit";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { user } from "#server/platform/db/schema";
import { loadTagCatalogue } from "#server/domains/opportunities/tags";
import type { PaymentProvider } from "#server/providers/payments/port";
import { API_SCOPES, type ApiScope } from "#isomorphic/api-scopes";
import { createMailer } from "#server/platform/email/mailer";
import { silentLogger, TEST_SESSION_SECRET } from "./payments";
import type { TestDb } from "./databases";
import { TEST_ORIGIN } from "./test-sandbox";

export const TEST_API_CONFIG = {
  PUBLIC_ORIGIN: TEST_ORIGIN,
  NODE_ENV: "test",
  WEBHOOK_TARGETS: "public",
  APP_NAME: "Sponsorgrid",
  SUPPORT_EMAIL: "support@test.example",
  PLATFORM_FEE_PERCENT: 5,
} as unknown as Config;

/** The outbox mailer: a deal's mail lands in email_outbox with the move that sent it. */
export const testMailer = (db: Db) => createMailer({ db, from: "Sponsorgrid <no-reply@test.example>", logger: silentLogger });

type Document = ReturnType<typeof openApiDocument>;

/** Checks answers against the document: which statuses each operation documents, and each body's schema. */
export function contractOf(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document as object, "openapi");
  const routes = Object.entries(document.paths ?? {}).map(([template, item]) => ({
    template,
    item: item as Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  return {
    /** Throws (fails the test) when the answer is not what the document says this request may get. */
    check(method: string, path: string, status: number, body: unknown) {
      const route = routes.find((candidate) => candidate.regex.test(path) && candidate.item[method.toLowerCase()]);
      if (!route) throw new Error(`${method} ${path} is not in the OpenAPI document`);
      const responses = route.item[method.toLowerCase()]!.responses;
      if (!responses[String(status)]) throw new Error(`${method} ${route.template} answered ${status}, which the document does not list (${Object.keys(responses).join(", ")})`);
      const pointer = `openapi#/paths/${route.template.replaceAll("~", "~0").replaceAll("/", "~1")}/${method.toLowerCase()}/responses/${status}`;
      const hasBody = responses[String(status)]!.content?.["application/json"] !== undefined;
      if (!hasBody) {
        if (body !== null) throw new Error(`${method} ${route.template} ${status} documents no body but sent one`);
        return;
      }
      const validate = ajv.getSchema(`${pointer}/content/application~1json/schema`) ?? ajv.compile({ $ref: `${pointer}/content/application~1json/schema` });
      if (!validate(body)) throw new Error(`${method} ${route.template} ${status}: body does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
    },
    /** Throws (fails the test) when a webhook delivery's body is not what the document's `webhooks` says its type sends. */
    checkWebhook(payload: unknown) {
      const type = (payload as { type?: unknown } | null)?.type;
      if (typeof type !== "string" || !document.webhooks?.[type]) throw new Error(`The event type ${String(type)} is not in the document's webhooks`);
      const pointer = `openapi#/webhooks/${type.replaceAll("~", "~0").replaceAll("/", "~1")}/post/requestBody/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
      if (!validate(payload)) throw new Error(`A ${type} delivery does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(payload).slice(0, 500)}`);
    },
  };
}

/** The served document's contract: what the producers' tests check each queued event against. */
export const webhookContract = () => contractOf(openApiDocument(API_OPERATIONS, { serverUrl: TEST_ORIGIN, version: "test" }));

// Answers are JSON a test reads freely; their shape was checked against the document already.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiAnswer<Body = any> = { status: number; headers: Headers; body: Body };

export type ApiHarness = {
  readonly baseUrl: string;
  readonly db: Db;
  /** Searches the operations logged, as the search log would have written them. */
  readonly searches: readonly { uid: string | null; collection: string; terms: string[] }[];
  /** An account with nothing in it yet. */
  newAccount(name?: string): Promise<string>;
  /** A key of `uid`'s with these scopes (all of them by default). */
  keyFor(uid: string, scopes?: readonly ApiScope[], options?: { expiresInDays?: number | null }): Promise<string>;
  /** Calls the API; the answer is checked against the OpenAPI document before it is returned. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call<Body = any>(method: string, path: string, options?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<ApiAnswer<Body>>;
};

/**
 * The API router on loopback for one test file. `provider` is the payment provider its
 * operations use (a test sandbox), and `operations` the operations mounted (all by default).
 */
export function apiHarness(database: TestDb, options: { provider: () => PaymentProvider; operations?: readonly AnyApiOperation[]; rateLimits?: { key: RateLimitRule; unauthenticatedNetwork: RateLimitRule } }): ApiHarness {
  const operations = options.operations ?? API_OPERATIONS;
  const document = openApiDocument(operations, { serverUrl: TEST_ORIGIN, version: "test" });
  const contract = contractOf(document);
  const pepper = apiKeyPepper(TEST_SESSION_SECRET);
  let server: http.Server;
  let baseUrl = "";
  let counter = 0;
  const searches: { uid: string | null; collection: string; terms: string[] }[] = [];

  beforeAll(async () => {
    const app = express();
    let requests = 0;
    app.use((req, _res, next) => {
      (req as { id?: string }).id = `req_${++requests}`;
      next();
    });
    app.use(
      "/api/v1",
      apiRouter({
        operations,
        deps: { db: database.db, payments: options.provider(), config: TEST_API_CONFIG, logger: silentLogger, tagCatalogue: () => loadTagCatalogue(database.db), searchLog: { record: (uid, collection, terms) => void searches.push({ uid, collection, terms }) }, sessionSecret: TEST_SESSION_SECRET, webhooks: { kick: () => {} }, mailer: testMailer(database.db) },
        pepper,
        mode: "test",
        rateLimits: options.rateLimits,
        requestIdOf: (req) => String((req as { id?: string }).id),
      }),
    );
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  return {
    get baseUrl() {
      return baseUrl;
    },
    get db() {
      return database.db;
    },
    get searches() {
      return searches;
    },
    async newAccount(name = "API Tester") {
      const uid = `api_user_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
      await database.db.insert(user).values({ id: uid, name, email: `${uid}@api.example`, emailVerified: true });
      return uid;
    },
    async keyFor(uid, scopes = API_SCOPES, { expiresInDays = null } = {}) {
      const made = await createApiKey(database.db, { uid, mode: "test", pepper }, { name: `test key ${++counter}`, scopes, expiresInDays });
      if (made.kind === "ERROR") throw new Error(made.message);
      return made.key;
    },
    async call(method, path, { key, body, rawBody, headers = {} } = {}) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined || rawBody !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      const text = await response.text();
      const parsed = text === "" ? null : JSON.parse(text);
      const pathOnly = path.split("?")[0]!;
      contract.check(method, pathOnly, response.status, parsed);
      if (response.status >= 400) expect(parsed?.error?.requestId, "every error names its request").toMatch(/^req_/);
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
}
