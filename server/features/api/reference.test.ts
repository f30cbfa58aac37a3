import { describe, expect, it } from "vitest";
import { z } from "zod";
import { success } from "#server/platform/errors";
import { API_OPERATIONS } from "./operations/index";
import { defineApiOperation } from "./operation";
import { openApiDocument } from "./openapi";
import { pageOf, pageQuery } from "./paging";
import { referenceView, resourceSlug } from "./reference";

const money = z.object({ amount: z.number().int().meta({ description: "In minor units." }), currency: z.string() });
const thing = z.object({ id: z.string(), title: z.string(), price: money, tags: z.array(z.string()), status: z.enum(["open", "closed"]).nullable() }).meta({ id: "Thing" });

const updateThing = defineApiOperation({
  id: "updateThing",
  method: "patch",
  path: "/things/{thingId}",
  tag: "Things",
  summary: "Change a thing",
  scope: "opportunities:write",
  params: z.object({ thingId: z.string() }),
  body: z.object({ title: z.string().meta({ description: "The new title.", example: "Hello" }), price: money.optional() }),
  idempotent: true,
  success: { status: 200, description: "The thing as it is now.", schema: thing },
  async handle() {
    return success({ body: undefined as never });
  },
});
const listThings = defineApiOperation({
  id: "listThings",
  method: "get",
  path: "/things",
  tag: "Things",
  summary: "List things",
  scope: "opportunities:read",
  query: pageQuery,
  success: { status: 200, description: "A page of things.", schema: pageOf(thing, "ThingPage") },
  async handle() {
    return success({ body: undefined as never });
  },
});

describe("the API reference's view of the OpenAPI document", () => {
  const view = referenceView(openApiDocument([...API_OPERATIONS, listThings, updateThing], { serverUrl: "https://sponsorgrid.example", version: "1.0.0" }), { publicOrigin: "https://sponsorgrid.example" });
  const operation = (id: string) => view.groups.flatMap((group) => group.operations).find((candidate) => candidate.id === id)!;

  it("lists every registered operation, grouped by tag, with the base URL and the document's address", () => {
    expect(view.baseUrl).toBe("https://sponsorgrid.example/api/v1");
    expect(view.openApiPath).toBe("/api/v1/openapi.json");
    const ids = view.groups.flatMap((group) => group.operations.map((candidate) => candidate.id));
    for (const registered of API_OPERATIONS) expect(ids).toContain(registered.id);
    expect(view.groups.find((group) => group.tag === "Things")!.operations.map((candidate) => candidate.id)).toEqual(["listThings", "updateThing"]);
  });

  it("gives each tag the address of its page, unique across the reference", () => {
    expect(view.groups.find((group) => group.tag === "Things")!.slug).toBe("things");
    expect(resourceSlug("Webhook endpoints")).toBe("webhook-endpoints");
    expect(resourceSlug("Bio pages")).toBe("bio-pages");
    const slugs = view.groups.map((group) => group.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("resolves $ref into component schemas and flattens nested objects and arrays of objects", () => {
    const list = operation("listThings");
    expect(list.success.schemaName).toBe("ThingPage");
    expect(list.success.fields.map((row) => [row.name, row.depth, row.type])).toEqual([
      ["data", 0, "array of Thing"],
      ["data[].id", 1, "string"],
      ["data[].title", 1, "string"],
      ["data[].price", 1, "object"],
      ["data[].price.amount", 2, "integer"],
      ["data[].price.currency", 2, "string"],
      ["data[].tags", 1, "array of string"],
      ["data[].status", 1, 'one of: "open", "closed" or null'],
      ["nextCursor", 0, "string or null"],
    ]);
    expect(list.success.fields.find((row) => row.name === "data[].price.amount")!.description).toBe("In minor units.");
  });

  it("says the scope, the parameters, the body, the errors and a curl line with the key, idempotency and an example body", () => {
    const update = operation("updateThing");
    expect(update).toMatchObject({ method: "PATCH", path: "/things/{thingId}", scope: "opportunities:write" });
    expect(update.parameters).toEqual([
      { name: "thingId", in: "path", type: "string", required: true, description: null },
      expect.objectContaining({ name: "idempotency-key", in: "header", required: false }),
    ]);
    expect(update.body).toEqual([
      { name: "title", depth: 0, type: "string", required: true, description: "The new title." },
      { name: "price", depth: 0, type: "object", required: false, description: null },
      { name: "price.amount", depth: 1, type: "integer", required: true, description: "In minor units." },
      { name: "price.currency", depth: 1, type: "string", required: true, description: null },
    ]);
    expect(update.errors.map((error) => error.status)).toEqual(["400", "401", "403", "404", "409", "413", "415", "422", "429", "500"]);
    expect(update.curl).toContain('curl -X PATCH "https://sponsorgrid.example/api/v1/things/THING_ID"');
    expect(update.curl).toContain('-H "Authorization: Bearer $SPONSORGRID_API_KEY"');
    expect(update.curl).toContain('-H "Idempotency-Key: $(uuidgen)"');
    expect(update.curl).toContain(`-d '{"title":"Hello","price":{"amount":0,"currency":"…"}}'`);
    expect(operation("getMe").curl).toBe('curl "https://sponsorgrid.example/api/v1/me" \\\n  -H "Authorization: Bearer $SPONSORGRID_API_KEY"');
    expect(operation("getMe").scope).toBeNull();
  });

  it("has a row per scope and the limits the router uses", () => {
    expect(view.scopes.map((row) => row.scope)).toContain("payments:write");
    expect(view.rateLimit.windowSeconds).toBe(60);
    expect(view.errorCodes.map((row) => row.code)).toEqual(expect.arrayContaining(["insufficient_scope", "revoked_key", "rate_limited", "not_found"]));
  });
});
