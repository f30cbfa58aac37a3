import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiHarness } from "#tests/support/api";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { API_OPERATIONS } from "./operations/index";

/**
 * Hostile input on every operation, with a key that has every scope: odd ids, queries and
 * bodies (wrong types, huge numbers, lone surrogates, prototype keys, broken JSON) are answered
 * below 500, with a status the document lists for the operation and a body in its shape (the
 * harness checks both on every answer).
 */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("", "__proto__", "constructor", "\u0000", "\ud800", "-1", "1e308", "NaN", "null", "../../etc", "%00", "x".repeat(600)),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(text, tie("value"), { maxKeys: 4 })),
})).value;
const query = fc.dictionary(fc.oneof(fc.constantFrom("limit", "cursor", "tags", "status", "unread", "__proto__"), text), fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxKeys: 4 });
const body = fc.oneof(
  fc.record({ json: fc.dictionary(fc.oneof(fc.constantFrom("title", "name", "links", "deadline", "minContribution", "tags", "bullets", "__proto__"), text), jsonValue, { maxKeys: 6 }) }),
  fc.record({ json: jsonValue }),
  fc.record({ raw: fc.constantFrom("{", "[1,", "nul", "{\"a\":}", "\"\\ud800\"", "{\"__proto__\":{\"x\":1}}") }),
);

/** Every byte escaped: a lone surrogate too (encodeURIComponent would throw on it). */
const percentEncoded = (value: string) => [...Buffer.from(value, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
/**
 * "." and ".." cannot be a path parameter: even escaped (%2e) they are dot segments, which every
 * URL parser (fetch's too) removes before the request is sent — `/payments/%2e/refund` goes out as
 * `/payments/refund`, another route. The server never sees them, so they stand for an empty id.
 */
const asPathParameter = (id: string) => ([".", ".."].includes(id) ? "" : percentEncoded(id)) || "x";

describe.each(ENGINES)("hostile input to every API operation on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const api = apiHarness(database, { provider: () => sandbox.provider, rateLimits: { key: { limit: 1_000_000, windowSeconds: 60 }, unauthenticatedNetwork: { limit: 1_000_000, windowSeconds: 60 } } });

  it.each(API_OPERATIONS.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))("%s", async (_name, operation) => {
    const key = await api.keyFor(await api.newAccount());
    await fc.assert(
      fc.asyncProperty(text, query, body, async (id, search, sent) => {
        const path = operation.path.replace(/\{[^}]+\}/g, asPathParameter(id));
        const params = new URLSearchParams();
        for (const [name, value] of Object.entries(search)) for (const one of [value].flat()) params.append(name, one);
        const withBody = operation.method === "post" || operation.method === "patch";
        const answer = await api.call(operation.method.toUpperCase(), `${path}?${params}`, {
          key,
          ...(withBody ? ("raw" in sent ? { rawBody: sent.raw } : { body: sent.json }) : {}),
        });
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: engine === "postgres" ? 40 : 25 },
    );
  });
});
