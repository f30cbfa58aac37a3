import express, { type NextFunction, type Request, type Response } from "express";
import type { z } from "zod";
import { authenticateApiKey, type ApiCaller } from "#server/domains/api-keys/keys";
import type { ApiKeyMode } from "#server/domains/api-keys/key-format";
import { consumeMeteredRateLimit, consumeRateLimit, rateLimitKey, type RateLimitRule } from "#server/platform/abuse/rate-limit";
import { API_RATE_LIMITS } from "#server/platform/abuse/rules";
import { rateLimitSubject } from "#server/platform/abuse/client-ip";
import { BODY_LIMITS, formatSize } from "#server/platform/http/body-limit";
import { unsaveableText } from "#server/platform/http/unsaveable-text";
import { apiRefusal, apiRefusalOf, fieldsOf, snakeCase, type ApiRefusal } from "./errors";
import { beginIdempotentCall, finishIdempotentCall, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, requestFingerprint } from "./idempotency";
import type { AnyApiOperation, ApiDeps } from "./operation";
import { expressPathOf } from "./route-patterns";
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from "#server/platform/db/unavailable";

export type ApiRouterOptions = {
  operations: readonly AnyApiOperation[];
  deps: ApiDeps;
  /** Keys are hashed under it (server/domains/api-keys/key-format.ts `apiKeyPepper`). */
  pepper: string;
  /** Which keys this server takes: test keys under the payment sandbox, live ones under Stripe. */
  mode: ApiKeyMode;
  rateLimits?: { key: RateLimitRule; unauthenticatedNetwork: RateLimitRule };
  /** The request's id, for error bodies and logs (server/platform/http/request-id.ts). */
  requestIdOf(req: Request): string;
};

type Locals = { caller?: ApiCaller };

/**
 * `/api/v1`: one Express route per operation. Each request is authenticated by its bearer key
 * (never a cookie, so there is no cross-site request to forge), counted against the key's
 * limit, checked for the operation's scope, validated by the operation's schemas, and answered
 * by its handler in JSON; every refusal in the one error shape (errors.ts). CORS, when the
 * operator opens it, is answered before this router (http.ts `apiCors`).
 */
export function apiRouter(options: ApiRouterOptions): express.Router {
  const { operations, deps, pepper, mode, requestIdOf } = options;
  const limits = options.rateLimits ?? API_RATE_LIMITS;
  const router = express.Router({ caseSensitive: true, strict: false });
  const readJson = express.json({ limit: BODY_LIMITS.json, strict: true, type: () => true });

  const send = (req: Request, res: Response, refused: ApiRefusal) => {
    res.status(refused.status).json({ error: { code: refused.code, message: refused.message, requestId: requestIdOf(req), ...(refused.fields ? { fields: refused.fields } : {}) } });
  };

  router.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });

  // Who is asking, and within their limit: before any operation, so an unknown path costs a guesser as much as a known one.
  const authenticate = async (req: Request, res: Response<unknown, Locals>, next: NextFunction) => {
    const header = req.get("authorization") ?? "";
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
    const known = await authenticateApiKey(deps.db, { key: bearer, pepper, mode });
    if (known.kind === "ERROR") {
      const network = await consumeRateLimit(deps.db, rateLimitKey("api:anonymous", networkOf(req)), limits.unauthenticatedNetwork);
      if (!network.allowed) {
        res.set("Retry-After", String(network.retryAfterSeconds));
        return send(req, res, apiRefusal("resource-exhausted", "rate_limited", "Too many requests without a valid API key from your network. Wait and retry."));
      }
      res.set("WWW-Authenticate", 'Bearer realm="api"');
      return send(req, res, { status: 401, code: snakeCase(known.reason), message: known.message });
    }
    const counted = await consumeMeteredRateLimit(deps.db, rateLimitKey("api:key", known.caller.keyId), limits.key);
    res.set("RateLimit-Policy", `"per-key";q=${counted.limit};w=${limits.key.windowSeconds}`);
    res.set("RateLimit", `"per-key";r=${counted.remaining};t=${counted.resetSeconds}`);
    if (!counted.allowed) {
      res.set("Retry-After", String(counted.resetSeconds));
      return send(req, res, apiRefusal("resource-exhausted", "rate_limited", `This key made more than ${counted.limit} requests in a minute. Retry in ${counted.resetSeconds} s.`));
    }
    res.locals.caller = known.caller;
    next();
  };

  for (const operation of operations) {
    const path = expressPathOf(operation.path);
    const answer = async (req: Request, res: Response<unknown, Locals>) => {
      const caller = res.locals.caller!;
      if (operation.scope && !caller.scopes.includes(operation.scope)) {
        return send(req, res, apiRefusal("permission-denied", "insufficient_scope", `This key lacks the ${operation.scope} permission. Make a key with it in My Account.`));
      }
      const parsed = parseInput(operation, req);
      if (parsed.kind === "refused") return send(req, res, parsed.refused);

      const idempotencyKey = operation.idempotent ? req.get(IDEMPOTENCY_KEY_HEADER) : undefined;
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
        return send(req, res, apiRefusal("invalid-argument", "invalid_request", "The Idempotency-Key header must be 1–255 visible ASCII characters.", { "header.idempotency-key": "1–255 visible ASCII characters." }));
      }
      const remembered = idempotencyKey === undefined ? null : { uid: caller.uid, key: `${operation.id}:${idempotencyKey}` };
      if (remembered) {
        const started = await beginIdempotentCall(deps.db, { ...remembered, fingerprint: requestFingerprint(operation.method, req.path, parsed.input.body) });
        if (started.kind === "ERROR") return send(req, res, apiRefusalOf(started));
        if (started.outcome === "replay") {
          res.set("Idempotent-Replayed", "true");
          return started.status === 204 ? res.status(204).end() : res.status(started.status).json(started.body);
        }
      }

      let status: number;
      let body: unknown;
      try {
        const result = await operation.handle({ caller, ...parsed.input, deps, requestId: requestIdOf(req), client: { ip: req.ip ?? req.socket.remoteAddress ?? "", browserToken: null } });
        if (result.kind === "ERROR") {
          const refused = apiRefusalOf(result);
          status = refused.status;
          body = { error: { code: refused.code, message: refused.message, requestId: requestIdOf(req), ...(refused.fields ? { fields: refused.fields } : {}) } };
        } else {
          status = operation.success.status;
          body = result.body;
        }
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          // Nothing was done: the same call (and its idempotency key) may simply be sent again.
          deps.logger.warn({ err: error, operation: operation.id }, "the database cannot be reached; answered 503");
          res.set("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
          return res.status(503).json({
            error: { code: "unavailable", message: `We cannot reach our database right now. Retry in ${OUTAGE_RETRY_AFTER_SECONDS} seconds.`, requestId: requestIdOf(req) },
          });
        }
        deps.logger.error({ err: error, operation: operation.id }, "API operation failed");
        status = 500;
        body = { error: { code: "internal", message: "Something went wrong on our side. Retry in a moment.", requestId: requestIdOf(req) } };
      }
      if (remembered) await finishIdempotentCall(deps.db, { ...remembered, status, body });
      if (status === 204) return res.status(204).end();
      res.status(status).json(body);
    };
    const needsBody = operation.body !== undefined;
    const handlers = needsBody ? [authenticate, requireJson, readJson, answer] : [authenticate, answer];
    router[operation.method](path, ...(handlers as express.RequestHandler[]));
  }

  // A known path with another method; then anything else under /api/v1.
  const methodsByPath = new Map<string, string[]>();
  for (const operation of operations) {
    const path = expressPathOf(operation.path);
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), operation.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    router.all(path, (req, res) => {
      res.set("Allow", methods.join(", "));
      send(req, res, { status: 405, code: "method_not_allowed", message: `Use ${methods.join(" or ")} here.` });
    });
  }
  router.use((req, res) => send(req, res, apiRefusal("not-found", "route_not_found", `There is no ${req.method} ${req.baseUrl}${req.path} in the API. The reference is at /developers/api.`)));

  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!isBodyParserError(error)) return next(error);
    if (error.type === "entity.too.large") return send(req, res, { status: 413, code: "payload_too_large", message: `The request body is larger than ${formatSize(BODY_LIMITS.json)}.` });
    send(req, res, apiRefusal("invalid-argument", "invalid_json", "The request body is not valid JSON."));
  });

  function requireJson(req: Request, res: Response, next: NextFunction) {
    if (!req.is("application/json")) return send(req, res, apiRefusal("unsupported-media-type", "unsupported_media_type", "Send the request body as JSON with Content-Type: application/json."));
    next();
  }

  return router;
}

type Parsed = { kind: "parsed"; input: { params: unknown; query: unknown; body: unknown } } | { kind: "refused"; refused: ApiRefusal };

function parseInput(operation: AnyApiOperation, req: Request): Parsed {
  const input = { params: undefined as unknown, query: undefined as unknown, body: undefined as unknown };
  const parts = [
    ["path", operation.params, req.params, "params"],
    ["query", operation.query, req.query, "query"],
    ["body", operation.body, req.body, "body"],
  ] as const;
  for (const [part, schema, value, into] of parts) {
    if (!schema) continue;
    const unsaveable = unsaveableText(value);
    if (unsaveable) {
      if (part === "path") return { kind: "refused", refused: apiRefusal("not-found", "not_found", "There is no such object.") };
      return { kind: "refused", refused: apiRefusal("invalid-argument", "invalid_request", unsaveable, { [part]: unsaveable }) };
    }
    const result = (schema as z.ZodType).safeParse(value ?? (part === "query" ? {} : value));
    if (!result.success) {
      const fields = fieldsOf(part, result.error);
      // An id that is not even the shape of one names nothing: 404, as any id that does not exist.
      if (part === "path") return { kind: "refused", refused: apiRefusal("not-found", "not_found", "There is no such object.") };
      return { kind: "refused", refused: apiRefusal("invalid-argument", "invalid_request", `Check ${Object.keys(fields).join(", ")}.`, fields) };
    }
    input[into] = result.data;
  }
  return { kind: "parsed", input };
}

function networkOf(req: Request): string {
  return rateLimitSubject(req.ip ?? req.socket.remoteAddress ?? "");
}

function isBodyParserError(error: unknown): error is { type: string } {
  return typeof error === "object" && error !== null && typeof (error as { type?: unknown }).type === "string";
}
