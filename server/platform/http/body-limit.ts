import type { IncomingMessage } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { sendRefusal } from "./refusal";

const KB = 1024;

/**
 * The most each kind of request body may weigh. The largest legitimate form is
 * the opportunity form (server/domains/opportunities/form.ts): about 3,600 characters
 * at most, which percent-encoded as 4-byte UTF-8 is ~43 KB; forms get three
 * times that. Multipart only adds its field framing: the forms that upload
 * files have their own rules. Anything else (text/plain, no type) has no use here but a small one.
 */
export const BODY_LIMITS = {
  form: 128 * KB,
  multipart: 256 * KB,
  json: 128 * KB,
  other: 16 * KB,
} as const;

export type BodyKind = keyof typeof BODY_LIMITS;

/** How long a refused upload may keep sending (read and thrown away) so that it can read the 413 first. */
const LINGER_MS = 2_000;

export type BodyLimitRule = {
  /** Path prefix (or pattern of whole paths) the rule applies to; the first matching rule wins. */
  prefix: string | RegExp;
  /** Only bodies of this kind; others to the same path keep their common cap. */
  kind?: BodyKind;
  limit: number;
  refuse(req: Request, res: Response, limit: number): void;
};

export function bodyKind(contentType: string | undefined): BodyKind {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type === "multipart/form-data") return "multipart";
  if (type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type)) return "json";
  return "other";
}

export function formatSize(bytes: number): string {
  return bytes >= 1024 * KB ? `${bytes / (1024 * KB)} MB` : `${Math.round(bytes / KB)} KB`;
}

const refuseDefault = (req: Request, res: Response, limit: number) =>
  sendRefusal(
    req,
    res,
    413,
    "That was too much to send",
    `The request body is larger than ${formatSize(limit)}, the most this site accepts for it. Shorten what you entered and try again.`,
  );

/**
 * Caps every request body before anything reads it. A Content-Length above the
 * cap is refused at once; a body sent without one (chunked) is counted as it
 * arrives, below every reader (body-parser, React Router's web Request, better-auth),
 * and refused the moment it passes the cap. A refused body is never handed on
 * as complete: readers see the request aborted, the bytes already on their way
 * are thrown away for a moment, and the connection closes.
 */
export function capRequestBodies(rules: BodyLimitRule[] = []): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req)) return next();
    const kind = bodyKind(req.get("content-type"));
    const rule = rules.find(({ prefix, kind: only }) => (typeof prefix === "string" ? req.path.startsWith(prefix) : prefix.test(req.path)) && (only === undefined || only === kind));
    const limit = rule?.limit ?? BODY_LIMITS[kind];
    const refuse = () => (rule?.refuse ?? refuseDefault)(req, res, limit);

    const declared = req.get("content-length");
    if (declared !== undefined && Number(declared) > limit) {
      discardBody(req, res);
      refuse();
      return;
    }
    countBody(req, res, limit, refuse);
    next();
  };
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

type Pushable = IncomingMessage & { push(chunk: unknown, encoding?: BufferEncoding): boolean };

/**
 * Node's HTTP parser hands each piece of the body to `req.push` before any
 * reader sees it; counting there limits every reader at once, whether it
 * listens for "data", reads in paused mode or iterates.
 */
function countBody(req: IncomingMessage, res: Response, limit: number, refuse: () => void) {
  const incoming = req as Pushable;
  const push = incoming.push;
  // Bytes that came in the same packet as the headers may already be buffered.
  let received = req.readableLength;
  incoming.push = function (chunk, encoding) {
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Buffer).length;
      if (received > limit) {
        discardBody(req, res);
        refuse();
        return true;
      }
    }
    return push.call(this, chunk, encoding);
  };
}

/**
 * From now on the body's bytes are dropped as they arrive (memory stays flat) and
 * its end is never delivered: a reader must not take a cut-off body for a whole
 * one. Once the sender has finished, or after a short grace period in which it
 * can read our answer, the request is aborted, which closes the connection.
 */
function discardBody(req: IncomingMessage, res: Response) {
  const incoming = req as Pushable;
  const socket = req.socket;
  const abort = () => {
    clearTimeout(timer);
    // Readers see an error, never an end; IncomingMessage emits it only to listeners.
    if (!req.destroyed) req.destroy(new Error("request body too large"));
    if (!socket.destroyed) socket.destroy();
  };
  incoming.push = (chunk) => {
    if (chunk === null) setImmediate(abort);
    return true;
  };
  // The answer says Connection: close, after which Node would destroy the socket at once;
  // a client still sending would then get a reset, often before it read the answer. Close
  // our side only, keep throwing away what comes in, and let `abort` end it (lingering close).
  res.setHeader("Connection", "close");
  (socket as typeof socket & { destroySoon(): void }).destroySoon = () => {
    if (socket.writable) socket.end();
  };
  const timer = setTimeout(abort, LINGER_MS);
  timer.unref();
  // After our answer Node no longer aborts the request when the socket closes: do it here.
  socket.once("close", abort);
  req.resume();
}
