import express, { type NextFunction, type Request, type Response } from "express";
import type pino from "pino";
import { domainError, errorStatusName, httpStatusOf, type ErrorCode } from "#server/platform/errors";
import { CROSS_SITE_MESSAGE, isCrossSite } from "#server/platform/http/same-origin";
import { unsaveableText } from "#server/platform/http/unsaveable-text";
import type { CallableFunction, CallableRefusal, FunctionContext } from "./protocol";
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from "#server/platform/db/unavailable";

type FunctionsRouterOptions = {
  functions: Record<string, CallableFunction>;
  resolveUser(req: Request): Promise<FunctionContext["user"]>;
  logger: pino.Logger;
  /** Origins besides the request's own whose pages may call (PUBLIC_ORIGIN); another site's page is refused. */
  allowedOrigins: readonly string[];
};

/** Where the callable functions answer: `${FUNCTIONS_PATH_PREFIX}<name>`. */
export const FUNCTIONS_PATH_PREFIX = "/api/functions/";

/** The largest call body, in bytes; server/main/app.ts caps the stream with it before anything reads it. */
export const FUNCTIONS_BODY_LIMIT = 100 * 1024;
const TOO_LARGE_MESSAGE = "The request body is larger than 100 KB.";

/** POST /api/functions/:name — the callable functions protocol (see protocol.ts). */
export function functionsRouter(options: FunctionsRouterOptions): express.Router {
  const { functions, resolveUser, logger } = options;
  const allowedOrigins = new Set(options.allowedOrigins);
  const router = express.Router();
  // Only application/json is read: a cross-site page cannot send that without a CORS preflight.
  // Not strict: a bare 3 or "x" is valid JSON, and is then refused for having no "data" field.
  const readJson = express.json({ limit: FUNCTIONS_BODY_LIMIT, strict: false });

  router
    .route("/api/functions/:name")
    .post(
      (req, res, next) => {
        res.set("Cache-Control", "no-store");
        // A call acts as the signed-in person: another site's page may not make one (CSRF), whatever it sends.
        if (isCrossSite(req, allowedOrigins)) return sendError(res, refused("permission-denied", CROSS_SITE_MESSAGE));
        if (!Object.hasOwn(functions, req.params.name)) {
          return sendError(res, refused("not-found", `No function named "${req.params.name}".`));
        }
        if (!req.is("application/json")) {
          return sendError(res, refused("invalid-argument", "Send the request body as JSON with Content-Type: application/json."));
        }
        next();
      },
      readJson,
      async (req, res) => {
        const body: unknown = req.body;
        if (typeof body !== "object" || body === null || Array.isArray(body) || !Object.hasOwn(body, "data")) {
          return sendError(res, refused("invalid-argument", 'The request body must be a JSON object with a "data" field.'));
        }
        const name = req.params.name;
        const unsaveable = unsaveableText((body as { data: unknown }).data);
        if (unsaveable) return sendError(res, refused("invalid-argument", unsaveable));
        try {
          const context: FunctionContext = { user: await resolveUser(req), ip: req.ip ?? req.socket.remoteAddress ?? "" };
          const answer = await functions[name]!((body as { data: unknown }).data, context);
          if (answer.kind === "ERROR") return sendError(res, answer);
          // undefined would vanish from the JSON; the protocol always has a result.
          res.status(200).json({ result: answer.result ?? null });
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            logger.warn({ err: error, function: name }, "the database cannot be reached; answered 503");
            res.set("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
            return sendError(res, refused("unavailable", `We cannot reach our database right now. Retry in ${OUTAGE_RETRY_AFTER_SECONDS} seconds.`));
          }
          // Only a bug or lost infrastructure throws: logged, and answered without its details.
          logger.error({ err: error, function: name }, "callable function failed");
          sendError(res, refused("internal", "Internal error"));
        }
      },
    )
    .all((_req, res) => {
      res.set("Allow", "POST");
      sendError(res, refused("unimplemented", "Use POST to call a function."), 405);
    });

  // body-parser's failures (bad JSON, too large, bad charset) are the caller's mistake.
  router.use("/api/functions/:name", (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!isBodyParserError(error)) return next(error);
    const message = error.type === "entity.too.large" ? "The request body is larger than 100kb." : "The request body is not valid JSON.";
    sendError(res, refused("invalid-argument", message));
  });

  return router;
}

/** The functions protocol's answer to a body over FUNCTIONS_BODY_LIMIT, for the stream cap in front of it. */
export function refuseOversizedCall(res: Response): void {
  sendError(res, refused("invalid-argument", TOO_LARGE_MESSAGE), 413);
}

const refused = (code: ErrorCode, message: string): CallableRefusal => domainError(code, message);

function sendError(res: Response, refusal: CallableRefusal, httpStatus = httpStatusOf(refusal.code)) {
  const { message, details } = refusal;
  const status = errorStatusName(refusal.code);
  res.status(httpStatus).json({ error: details === undefined ? { status, message } : { status, message, details } });
}

function isBodyParserError(error: unknown): error is { type: string } {
  return typeof error === "object" && error !== null && typeof (error as { type?: unknown }).type === "string" && "expose" in error;
}
