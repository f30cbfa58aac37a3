import type { IncomingMessage, ServerResponse } from "node:http";
import pino, { type Logger } from "pino";
import { pinoHttp } from "pino-http";
import { redactAccountTokens } from "#server/auth/log-redaction";

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: "sponsorgrid" }, timestamp: pino.stdTimeFunctions.isoTime });
}

/** One structured JSON line per request, written when the response finishes. */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    quietReqLogger: true,
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
}
