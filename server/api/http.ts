import express from "express";
import type { BodyLimitRule } from "#server/http/body-limit";
import { BODY_LIMITS, formatSize } from "#server/http/body-limit";
import { apiKeyPepper } from "#server/api-keys/key-format";
import { API_RATE_LIMITS } from "#server/abuse/rules";
import { openApiDocument } from "./openapi";
import { API_OPERATIONS } from "./operations/index";
import { API_PATH_PREFIX, type ApiDeps } from "./operation";
import { apiRouter } from "./router";

/** The API's own version (not the app's): a breaking change would be /api/v2. */
export const API_VERSION = "1.0.0";

/** Where the document is served, without a key (it is public, like any API reference). */
export const OPENAPI_PATH = `${API_PATH_PREFIX}/openapi.json`;

/** The API's bodies are JSON, capped as everywhere, but refused in the API's own error shape. */
export const apiBodyRule: BodyLimitRule = {
  prefix: `${API_PATH_PREFIX}/`,
  limit: BODY_LIMITS.json,
  refuse: (req, res) =>
    void res.status(413).json({ error: { code: "payload_too_large", message: `The request body is larger than ${formatSize(BODY_LIMITS.json)}.`, requestId: String(req.id ?? "") } }),
};

/** `/api/v1`: the OpenAPI document, then every operation (server/api/router.ts). */
export function publicApi({ deps, sessionSecret }: { deps: ApiDeps; sessionSecret: string }): express.Router {
  const router = express.Router();
  let document: string | null = null;
  router.get(OPENAPI_PATH, (_req, res) => {
    document ??= JSON.stringify(openApiDocument(API_OPERATIONS, { serverUrl: deps.config.PUBLIC_ORIGIN, version: API_VERSION }), null, 2);
    res.set("Cache-Control", "public, max-age=300").type("application/json").send(document);
  });
  router.use(
    API_PATH_PREFIX,
    apiRouter({
      operations: API_OPERATIONS,
      deps,
      pepper: apiKeyPepper(sessionSecret),
      mode: deps.payments.name === "sandbox" ? "test" : "live",
      rateLimits: { ...API_RATE_LIMITS, key: { limit: deps.config.API_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 } },
      requestIdOf: (req) => String(req.id ?? ""),
    }),
  );
  return router;
}
