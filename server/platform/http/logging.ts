import type { IncomingMessage, ServerResponse } from "node:http";
import pino, { type DestinationStream, type Logger } from "pino";
import { pinoHttp } from "pino-http";
import { redactAccountTokens } from "#server/platform/http/log-redaction";
import { newRequestCost } from "./request-cost";
import { newRequestId, REQUEST_ID_HEADER, type RequestIds, type WithId } from "./request-id";

/** The process's logger; each line written while a request is answered carries its `requestId`. */
export function createLogger(level: string, requestIds?: RequestIds, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: "sponsorgrid" },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const requestId = requestIds?.current();
      return requestId ? { requestId } : {};
    },
    // The second net: no code should log these, but a header or form object passed whole would hold them.
    redact: { paths: SECRET_LOG_PATHS, censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Fields that hold a secret wherever they appear at the top of a line or one object down
 * (pino's redaction has no deep wildcard): credentials and session cookies in headers, passwords,
 * tokens and keys in form values, card details. Their values are replaced, their names kept.
 */
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "secret",
  "clientSecret",
  "apiKey",
  "signature",
  "cardNumber",
  "number",
  "cvc",
  "cvv",
  "expiry",
];
const SECRET_HEADERS = ["authorization", "cookie", "set-cookie", "x-test-routes-secret", "stripe-signature", "sandbox-signature"];
export const SECRET_LOG_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];

/** Express keeps the path as received in `originalUrl` while routers rewrite `url`. */
const fullPath = (req: IncomingMessage & { originalUrl?: string }) => req.originalUrl ?? req.url;

/**
 * Gives each request its id (the X-Request-Id response header), answers it inside that id's
 * scope, and writes one structured JSON line per request when the response finishes.
 */
export function requestLogger(logger: Logger, requestIds?: RequestIds) {
  const log = pinoHttp({
    logger,
    quietReqLogger: true,
    // Only when nothing in front gave it one (server/platform/http/request-id.ts gives every request its id first).
    genReqId: (req, res) => {
      const id = newRequestId();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // By the answer: a client's mistake (404, 405, 413…) is a warning, never an error; 503 while
    // the database is away is a warning too (the outage itself is logged once, where it is met).
    customLogLevel: (_req, res) => (res.statusCode === 503 ? "warn" : res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    // The full path, as the client asked it: a router mounted at /api/v1 sees `/me` in req.url.
    customSuccessMessage: (req, res) => `${req.method} ${redactAccountTokens(fullPath(req))} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${redactAccountTokens(fullPath(req))} ${res.statusCode}`,
    // The access line is written when the response finishes, which may be outside the request's scope
    // (a socket drained later): it names the request itself rather than rely on the mixin. With it,
    // what answering it cost (server/platform/http/request-cost.ts).
    customSuccessObject: (req: WithId, _res, line: object) => ({ ...line, requestId: req.id, cost: req.cost }),
    customErrorObject: (req: WithId, _res, _error, line: object) => ({ ...line, requestId: req.id, cost: req.cost }),
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        // Emailed links carry account keys in their query: never in the access log.
        url: redactAccountTokens(fullPath(req)),
        ip: req.remoteAddress,
        userAgent: req.headers["user-agent"],
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
  return (req: WithId, res: ServerResponse, next: (error?: unknown) => void) => {
    log(req, res);
    const id = String(req.id);
    if (!requestIds) return next();
    // Already in its scope when the process's listener gave it its id; else (an app on its own, in tests) here.
    if (req.cost) return next();
    req.cost = newRequestCost();
    requestIds.run(id, () => next(), req.cost);
  };
}

/**
 * One access line for a request answered before Express (the bio host, a profile photo, a guest
 * page kept in memory), when LOG_FAST_PATHS is on: the same message and fields as Express's lines,
 * plus which fast path served it. `servedHere()` says false when the fast path handed the
 * request on to Express, whose own line then stands for it.
 */
export function logFastPath(logger: Logger, req: WithId, res: ServerResponse, served: () => string, servedHere: () => boolean = () => true): void {
  const started = performance.now();
  res.once("finish", () => {
    if (!servedHere()) return;
    const url = redactAccountTokens(req.url);
    const level = res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info";
    logger[level](
      { requestId: req.id, req: { method: req.method, url, host: req.headers.host }, res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started), served: served(), cost: req.cost },
      `${req.method} ${url} ${res.statusCode}`,
    );
  });
}
