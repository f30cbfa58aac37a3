import { API_RATE_LIMITS } from "#server/platform/abuse/rules";
import { BODY_LIMITS, formatSize } from "#server/platform/http/body-limit";
import { API_RESOURCES } from "#isomorphic/api-scopes";
import { API_PATH_PREFIX } from "./operation";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./paging";
import { servedApiDocument, type ApiDocument } from "./served-document";

/**
 * What the reference page at /developers/api shows, read from the OpenAPI document itself (not
 * from the operations), so the page says exactly what /api/v1/openapi.json says.
 */
export type FieldRow = { name: string; depth: number; type: string; required: boolean; description: string | null };
export type ParameterRow = { name: string; in: string; type: string; required: boolean; description: string | null };
export type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  scope: string | null;
  parameters: ParameterRow[];
  body: FieldRow[] | null;
  success: { status: string; description: string; schemaName: string | null; fields: FieldRow[] };
  errors: { status: string; description: string }[];
  curl: string;
};
export type ReferenceView = {
  baseUrl: string;
  openApiPath: string;
  version: string;
  /** One per tag, in the document's order: each is a page of its own at /developers/api/<slug>. */
  groups: { tag: string; slug: string; operations: OperationView[] }[];
  scopes: { scope: string; allows: string }[];
  errorCodes: { code: string; status: number; meaning: string }[];
  paging: { defaultSize: number; maxSize: number };
  rateLimit: { perKey: number; keyless: number; windowSeconds: number };
};

export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  example?: unknown;
  default?: unknown;
  additionalProperties?: Schema | boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  const?: unknown;
};
export type Components = Record<string, Schema>;

/** The codes every operation may answer with; an operation's own (`already_refunded` …) are in its error list. */
const ERROR_CODES: ReferenceView["errorCodes"] = [
  { code: "missing_key", status: 401, meaning: "No Authorization: Bearer header." },
  { code: "malformed_key", status: 401, meaning: "Not a Sponsorgrid key, or mistyped (its checksum does not add up)." },
  { code: "unknown_key", status: 401, meaning: "No such key (it may have been deleted with its account)." },
  { code: "revoked_key", status: 401, meaning: "The key was revoked in My Account." },
  { code: "expired_key", status: 401, meaning: "The key is past its expiry date." },
  { code: "wrong_mode", status: 401, meaning: "A test key on the live site, or a live key on a test site." },
  { code: "account_disabled", status: 401, meaning: "The key's account is suspended." },
  { code: "insufficient_scope", status: 403, meaning: "The key lacks the permission the operation needs." },
  { code: "invalid_request", status: 400, meaning: "A parameter or body field is not valid; `fields` says which." },
  { code: "invalid_json", status: 400, meaning: "The body is not valid JSON." },
  { code: "not_found", status: 404, meaning: "No such object, or another account's (they do not exist for you)." },
  { code: "route_not_found", status: 404, meaning: "No such path in the API." },
  { code: "method_not_allowed", status: 405, meaning: "The path exists with other methods; `Allow` lists them." },
  { code: "idempotency_key_in_use", status: 409, meaning: "A request with this Idempotency-Key is still being answered." },
  { code: "payload_too_large", status: 413, meaning: `The body is larger than ${formatSize(BODY_LIMITS.json)}.` },
  { code: "unsupported_media_type", status: 415, meaning: "The body is not sent as application/json." },
  { code: "idempotency_key_reused", status: 422, meaning: "This Idempotency-Key was used with a different request." },
  { code: "rate_limited", status: 429, meaning: "Too many requests; wait the seconds in Retry-After." },
  { code: "internal", status: 500, meaning: "Something failed on our side; retry later and quote requestId if it persists." },
];

const MAX_DEPTH = 6;

function refName(ref: string): string {
  return ref.replace("#/components/schemas/", "");
}

function resolve(schema: Schema, components: Components): { schema: Schema; name: string | null } {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return { schema: components[name] ?? {}, name };
  }
  return { schema, name: null };
}

/** "string or null" out of `anyOf: [X, {type: null}]`; the non-null part, and whether null is allowed. */
function withoutNull(schema: Schema): { schema: Schema; nullable: boolean } {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const rest = options.filter((option) => option.type !== "null");
    if (rest.length === 1 && rest.length < options.length) return { schema: { ...rest[0]!, description: schema.description ?? rest[0]!.description }, nullable: true };
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const rest = schema.type.filter((type) => type !== "null");
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  return { schema, nullable: false };
}

function bounds(schema: Schema): string {
  if (schema.minimum !== undefined && schema.maximum !== undefined && Math.abs(schema.maximum) < 1e15) return ` ${schema.minimum}–${schema.maximum}`;
  if (schema.minLength !== undefined && schema.maxLength !== undefined) return `, ${schema.minLength}–${schema.maxLength} characters`;
  if (schema.maxLength !== undefined) return `, at most ${schema.maxLength} characters`;
  return "";
}

/** A type as a reader says it: "integer", "string (date-time)", "one of: a, b", "array of Opportunity", "… or null". */
export function typeText(raw: Schema, components: Components): string {
  const { schema: plain, nullable } = withoutNull(raw);
  const { schema, name } = resolve(plain, components);
  let text: string;
  if (name) text = name;
  else if (schema.enum) text = `one of: ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  else if (schema.const !== undefined) text = JSON.stringify(schema.const);
  else if (schema.type === "array") text = `array of ${schema.items ? typeText(schema.items, components) : "anything"}`;
  else if (schema.anyOf ?? schema.oneOf) text = (schema.anyOf ?? schema.oneOf)!.map((option) => typeText(option, components)).join(" or ");
  else if (schema.type === "object" && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === "object") text = `map of ${typeText(schema.additionalProperties, components)}`;
  else if (typeof schema.type === "string") text = `${schema.type}${schema.format ? ` (${schema.format})` : ""}${bounds(schema)}`;
  else text = "any";
  return nullable ? `${text} or null` : text;
}

/** The object's fields, then the fields of each nested object or array of objects under it, indented. */
export function fieldRows(raw: Schema | undefined, components: Components, prefix = "", depth = 0, seen: ReadonlySet<string> = new Set()): FieldRow[] {
  if (!raw || depth > MAX_DEPTH) return [];
  const { schema: plain } = withoutNull(raw);
  const { schema, name } = resolve(plain, components);
  if (name && seen.has(name)) return [];
  const visited = name ? new Set([...seen, name]) : seen;
  if (schema.type === "array" && schema.items) return fieldRows(schema.items, components, `${prefix}[]`, depth, visited);
  const rows: FieldRow[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    const description = property.description ?? resolve(withoutNull(property).schema, components).schema.description ?? null;
    rows.push({ name: path, depth, type: typeText(property, components), required: (schema.required ?? []).includes(key), description });
    rows.push(...fieldRows(property, components, path, depth + 1, visited));
  }
  return rows;
}

function placeholderOf(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/** A value to show in an example body: the schema's own example or default, else one of its type. */
function exampleOf(raw: Schema, components: Components, depth = 0): unknown {
  const { schema: plain, nullable } = withoutNull(raw);
  const { schema } = resolve(plain, components);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (depth > MAX_DEPTH) return nullable ? null : {};
  if (schema.type === "object" || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, exampleOf(property, components, depth + 1)]));
  }
  if (schema.type === "array") return schema.items ? [exampleOf(schema.items, components, depth + 1)] : [];
  if (schema.type === "integer" || schema.type === "number") return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 0;
  if (schema.type === "boolean") return false;
  if (schema.format === "date-time") return "2026-01-31T12:00:00.000Z";
  if (schema.format === "uri") return "https://example.com";
  if (schema.format === "email") return "you@example.com";
  if (schema.type === "string") return "…";
  return null;
}

type DocOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  "x-required-scope"?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};

function curlOf(method: string, path: string, operation: DocOperation, baseUrl: string, components: Components): string {
  const address = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => placeholderOf(name));
  const query = (operation.parameters ?? []).filter((parameter) => parameter.in === "query" && parameter.required);
  const search = query.length ? `?${query.map((parameter) => `${parameter.name}=${placeholderOf(parameter.name)}`).join("&")}` : "";
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${baseUrl}${address}${search}"`, `-H "Authorization: Bearer $SPONSORGRID_API_KEY"`];
  if ((operation.parameters ?? []).some((parameter) => parameter.in === "header" && parameter.name === "idempotency-key")) lines.push(`-H "Idempotency-Key: $(uuidgen)"`);
  const body = operation.requestBody?.content["application/json"]?.schema;
  if (body) {
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d '${JSON.stringify(exampleOf(body, components)).replaceAll("'", "'\\''")}'`);
  }
  return lines.join(" \\\n  ");
}

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"] as const;

/** The reference page's whole content, drawn from an OpenAPI document (this server's, in production). */
export function referenceView(served: ApiDocument, { publicOrigin }: { publicOrigin: string }): ReferenceView {
  const document = served as unknown as {
    info: { version: string };
    paths?: Record<string, Partial<Record<(typeof METHOD_ORDER)[number], DocOperation>>>;
    components?: { schemas?: Components };
    tags?: { name: string }[];
  };
  const components = document.components?.schemas ?? {};
  const baseUrl = `${publicOrigin}${API_PATH_PREFIX}`;
  const byTag = new Map<string, OperationView[]>((document.tags ?? []).map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHOD_ORDER) {
      const operation = item[method];
      if (!operation) continue;
      const [successStatus, success] = Object.entries(operation.responses).find(([status]) => status.startsWith("2"))!;
      const successSchema = success.content?.["application/json"]?.schema;
      const body = operation.requestBody?.content["application/json"]?.schema;
      const view: OperationView = {
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
        description: operation.description ?? null,
        scope: operation["x-required-scope"] ?? null,
        parameters: (operation.parameters ?? []).map((parameter) => ({
          name: parameter.name,
          in: parameter.in,
          type: parameter.schema ? typeText(parameter.schema, components) : "string",
          required: parameter.required === true,
          description: parameter.description ?? parameter.schema?.description ?? null,
        })),
        body: body ? fieldRows(body, components) : null,
        success: {
          status: successStatus,
          description: success.description,
          schemaName: successSchema ? resolve(successSchema, components).name : null,
          fields: fieldRows(successSchema, components),
        },
        errors: Object.entries(operation.responses)
          .filter(([status]) => !status.startsWith("2"))
          .map(([status, response]) => ({ status, description: response.description })),
        curl: curlOf(method, path, operation, baseUrl, components),
      };
      const tag = operation.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), view]);
    }
  }
  return {
    baseUrl,
    openApiPath: `${API_PATH_PREFIX}/openapi.json`,
    version: document.info.version,
    groups: [...byTag].filter(([, list]) => list.length > 0).map(([tag, list]) => ({ tag, slug: resourceSlug(tag), operations: list })),
    scopes: API_RESOURCES.flatMap((resource) => [
      { scope: `${resource.id}:read`, allows: resource.read },
      { scope: `${resource.id}:write`, allows: resource.write },
    ]),
    errorCodes: ERROR_CODES,
    paging: { defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE },
    rateLimit: { perKey: API_RATE_LIMITS.key.limit, keyless: API_RATE_LIMITS.unauthenticatedNetwork.limit, windowSeconds: API_RATE_LIMITS.key.windowSeconds },
  };
}

/** A tag's page address: "Webhook endpoints" → "webhook-endpoints". */
export function resourceSlug(tag: string): string {
  return tag.toLowerCase().replace(/\W+/g, "-").replace(/^-|-$/g, "");
}

let built: { origin: string; view: ReferenceView } | null = null;

/** The reference of the API this server answers: every registered operation. Built once per origin, as the document is. */
export function apiReference(publicOrigin: string): ReferenceView {
  if (built?.origin !== publicOrigin) built = { origin: publicOrigin, view: referenceView(servedApiDocument(publicOrigin), { publicOrigin }) };
  return built.view;
}

/** A resource's page in the reference's order: what the navigation lists, and the pages either side. */
export type ResourceLink = { tag: string; slug: string; operations: { id: string; summary: string }[] };

/** Every resource page, for the navigation and the sitemap: its tag, its address and its operations' names. */
export function apiResourceLinks(publicOrigin: string): ResourceLink[] {
  return apiReference(publicOrigin).groups.map((group) => ({ tag: group.tag, slug: group.slug, operations: group.operations.map((operation) => ({ id: operation.id, summary: operation.summary })) }));
}
