import { openApiDocument } from "./openapi";
import { API_OPERATIONS } from "./operations/index";

/** The API's own version (not the app's), as its OpenAPI document states it: a breaking change would be /api/v2. */
export const API_VERSION = "1.0.0";

export type ApiDocument = ReturnType<typeof openApiDocument>;

let served: { origin: string; document: ApiDocument } | null = null;

/**
 * The OpenAPI document of every registered operation, at this server's origin: what
 * /api/v1/openapi.json serves and what /developers/api and /developers/webhooks are drawn from.
 * Built once (generating it takes tens of milliseconds); it changes only with a deploy.
 */
export function servedApiDocument(publicOrigin: string): ApiDocument {
  if (served?.origin !== publicOrigin) served = { origin: publicOrigin, document: openApiDocument(API_OPERATIONS, { serverUrl: publicOrigin, version: API_VERSION }) };
  return served.document;
}
