import cors from "cors";
import express from "express";
import type { BodyLimitRule } from "#server/platform/http/body-limit";
import { BODY_LIMITS, formatSize } from "#server/platform/http/body-limit";
import { apiKeyPepper } from "#server/domains/api-keys/key-format";
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency";
import { API_RATE_LIMITS } from "#server/platform/abuse/rules";
import { API_OPERATIONS } from "./operations/index";
import { servedApiDocument } from "./served-document";
import { API_PATH_PREFIX, type ApiDeps } from "./operation";
import { apiRouter } from "./router";

/** Where the document is served, without a key (it is public, like any API reference). */
export const OPENAPI_PATH = `${API_PATH_PREFIX}/openapi.json`;

/** The API's bodies are JSON, capped as everywhere, but refused in the API's own error shape. */
export const apiBodyRule: BodyLimitRule = {
  prefix: `${API_PATH_PREFIX}/`,
  limit: BODY_LIMITS.json,
  refuse: (req, res) =>
    void res.status(413).json({ error: { code: "payload_too_large", message: `The request body is larger than ${formatSize(BODY_LIMITS.json)}.`, requestId: String(req.id ?? "") } }),
};

/**
 * CORS for `/api/v1`, off unless API_CORS_ORIGINS names sites (ADR 0056). Browsers may then send
 * a key and the headers the API reads, and read the answers and their limits; never cookies
 * (no credentials), so a listed site reaches nothing with a visitor's session.
 */
export function apiCors(origins: "*" | readonly string[]): express.RequestHandler | null {
  if (origins !== "*" && origins.length === 0) return null;
  return cors({
    origin: origins === "*" ? "*" : [...origins],
    methods: ["GET", "POST", "PATCH", "DELETE"],
    allowedHeaders: ["Authorization", "Content-Type", IDEMPOTENCY_KEY_HEADER],
    exposedHeaders: ["RateLimit", "RateLimit-Policy", "Retry-After", "Idempotent-Replayed", "WWW-Authenticate", "Allow"],
    credentials: false,
    maxAge: 600,
  });
}

/** `/api/v1`: CORS if opened, the OpenAPI document, then every operation (server/features/api/router.ts). */
export function publicApi({ deps }: { deps: ApiDeps }): express.Router {
  const router = express.Router();
  const corsHandler = apiCors(deps.config.API_CORS_ORIGINS);
  if (corsHandler) router.use(API_PATH_PREFIX, corsHandler);
  let document: string | null = null;
  router.get(OPENAPI_PATH, (_req, res) => {
    document ??= JSON.stringify(servedApiDocument(deps.config.PUBLIC_ORIGIN), null, 2);
    res.set("Cache-Control", "public, max-age=300").type("application/json").send(document);
  });
  router.use(
    API_PATH_PREFIX,
    apiRouter({
      operations: API_OPERATIONS,
      deps,
      pepper: apiKeyPepper(deps.sessionSecret),
      mode: deps.payments.moneyMode,
      rateLimits: { ...API_RATE_LIMITS, key: { limit: deps.config.API_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 } },
      requestIdOf: (req) => String(req.id ?? ""),
    }),
  );
  return router;
}
