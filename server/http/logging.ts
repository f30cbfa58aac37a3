import type { IncomingMessage, ServerResponse } from "node:http";
import pino, { type DestinationStream, type Logger } from "pino";
import { pinoHttp } from "pino-http";
import { redactAccountTokens } from "#server/http/log-redaction";
import { newRequestId, REQUEST_ID_HEADER, type RequestIds } from "./request-id";

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
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Gives each request its id (the X-Request-Id response header), answers it inside that id's
 * scope, and writes one structured JSON line per request when the response finishes.
 */
export function requestLogger(logger: Logger, requestIds?: RequestIds) {
  const log = pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req, res) => {
      const id = newRequestId();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    customSuccessMessage: (req, res) => `${req.method} ${redactAccountTokens(req.url)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${redactAccountTokens(req.url)} ${res.statusCode}`,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        // Emailed links carry account keys in their query: never in the access log.
        url: redactAccountTokens(req.url),
        ip: req.remoteAddress,
        userAgent: req.headers["user-agent"],
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
  return (req: IncomingMessage & { id?: unknown }, res: ServerResponse, next: (error?: unknown) => void) => {
    log(req, res);
    const id = String(req.id);
    if (!requestIds) return next();
    requestIds.run(id, () => next());
  };
}
