import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { httpStatusOf, type ErrorCode } from "#server/platform/errors";
import { API_RESOURCES } from "#isomorphic/api-scopes";
import { apiErrorSchema } from "./errors";
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency";
import { API_PATH_PREFIX, type AnyApiOperation } from "./operation";
import { webhookDataComponents, webhooksSection } from "./webhook-events";

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "The request is not valid: `fields` says where (`invalid_request`, `invalid_json`).",
  401: "No API key, or one that is unknown, revoked, expired or for another mode (`missing_key`, `unknown_key` …).",
  403: "The key lacks the scope this operation needs (`insufficient_scope`).",
  404: "No such object, or not yours (`not_found`): another account's objects do not exist for you.",
  409: "Conflicts with the object's state, or the same Idempotency-Key is still being answered.",
  413: "The body is larger than 128 KB (`payload_too_large`).",
  415: "The body is not `application/json`.",
  422: "This Idempotency-Key was used with another request (`idempotency_key_reused`).",
  429: "Too many requests for this key (`rate_limited`); `Retry-After` says when to retry.",
  500: "Something failed on our side (`internal`).",
  502: "The payment provider did not answer as expected.",
};

/** Every status an operation may answer with an error, from what it takes and what it declares. */
export function errorStatusesOf(operation: AnyApiOperation): number[] {
  const statuses = new Set<number>([401, 429, 500]);
  if (operation.scope) statuses.add(403);
  if (operation.params) statuses.add(404);
  if (operation.query || operation.body) statuses.add(400);
  if (operation.body) for (const status of [413, 415]) statuses.add(status);
  if (operation.idempotent) for (const status of [409, 422]) statuses.add(status);
  for (const code of operation.refusals ?? ([] as ErrorCode[])) statuses.add(httpStatusOf(code));
  return [...statuses].sort((a, b) => a - b);
}

function operationObject(operation: AnyApiOperation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject["responses"] = {
    [operation.success.status]: {
      description: operation.success.description,
      ...(operation.success.schema ? { content: { "application/json": { schema: operation.success.schema } } } : {}),
    },
  };
  for (const status of errorStatusesOf(operation)) {
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = { description: ERROR_DESCRIPTIONS[status] ?? "Refused.", content: { "application/json": { schema: apiErrorSchema } } };
  }
  const header = operation.idempotent
    ? z.object({ [IDEMPOTENCY_KEY_HEADER]: z.string().min(1).max(255).optional().meta({ description: "Any unique string (a UUID): a retry with the same key gets the first answer, and acts once." }) })
    : undefined;
  return {
    operationId: operation.id,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    ...(operation.scope ? { "x-required-scope": operation.scope } : {}),
    security: [{ apiKey: [] }],
    requestParams: {
      ...(operation.params ? { path: operation.params } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(header ? { header } : {}),
    },
    ...(operation.body ? { requestBody: { required: true, content: { "application/json": { schema: operation.body } } } } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of `/api/v1`, generated from the operations' own zod schemas, with
 * the webhook events an endpoint receives under `webhooks`.
 */
export function openApiDocument(operations: readonly AnyApiOperation[], { serverUrl, version }: { serverUrl: string; version: string }) {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
  }
  const tags = [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name }));
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Sponsorgrid API",
      version,
      description:
        "Read and change your opportunities, deals, bio pages, payments and notifications from your own tools. " +
        "Authenticate with an API key from My Account as `Authorization: Bearer sg_live_…`. " +
        `Scopes: ${API_RESOURCES.map((resource) => `\`${resource.id}:read\`, \`${resource.id}:write\``).join(", ")}.`,
    },
    servers: [{ url: `${serverUrl}${API_PATH_PREFIX}` }],
    tags,
    components: {
      schemas: webhookDataComponents(),
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", bearerFormat: "sg_live_… / sg_test_…", description: "An API key from My Account → API keys." },
      },
    },
    paths,
    webhooks: webhooksSection(),
  });
}
