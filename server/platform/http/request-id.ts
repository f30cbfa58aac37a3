import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TrustFn } from "#server/platform/http/forwarding";
import { newRequestCost, type CostKind, type RequestCost } from "./request-cost";

/**
 * The id of the request being answered, wherever its work goes (loaders, domain functions,
 * the mailer, webhook handling): the logger's mixin reads it, so every line written while a
 * request is answered names it. Made by the composition root's caller once per process and
 * handed to the logger and the request log; the storage holds nothing between requests.
 */
export type RequestIds = {
  /** Runs `answer` (and everything it starts) as the request `id`, counting what it costs into `cost`. */
  run<T>(id: string, answer: () => T, cost?: RequestCost): T;
  /** The id of the request this code runs for, if any. */
  current(): string | undefined;
  /** Counts one `kind` (a statement, a render, a provider call) against the request this code runs for; outside one, nothing. */
  charge(kind: CostKind): void;
};

type Scope = { id: string; cost: RequestCost };

export function createRequestIds(): RequestIds {
  const storage = new AsyncLocalStorage<Scope>();
  return {
    run: (id, answer, cost = newRequestCost()) => storage.run({ id, cost }, answer),
    current: () => storage.getStore()?.id,
    charge: (kind) => {
      const scope = storage.getStore();
      if (scope) scope.cost[kind] += 1;
    },
  };
}

export function newRequestId(): string {
  return crypto.randomUUID();
}

export const REQUEST_ID_HEADER = "X-Request-Id";

/** What a proxy's id may look like: a uuid, a hex trace id, nginx's $request_id, "host:1234". */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id a trusted proxy gave this request, or null. Only a proxy TRUST_PROXY trusts (the
 * peer Express and server/platform/http/forwarding.ts believe for X-Forwarded-For) may name it, so that
 * one log line ties its access log to ours; a client's own value could mix its lines into
 * another request's, and a hostile one (a newline, 10 KB, JSON) could forge lines, so neither
 * is taken. A header sent twice is not believed either.
 */
export function trustedRequestId(headers: IncomingHttpHeaders, peer: string, trust: TrustFn): string | null {
  const value = headers["x-request-id"];
  if (typeof value !== "string" || !SANE_ID.test(value)) return null;
  return trust(peer, 0) ? value : null;
}

/** A request as the process's listener sees it: its id, and what answering it has cost so far. */
export type WithId = IncomingMessage & { id?: unknown; cost?: RequestCost };

/**
 * The front of the process's `request` listener: every request, whichever handler answers it
 * (the bio host, photos and guest pages before Express, or Express), gets its id as `req.id`
 * (pino-http takes it from there), sends it back as X-Request-Id, and is answered inside that
 * id's scope, so the lines any of them write carry it.
 */
export function withRequestIds(requestIds: RequestIds, trust: TrustFn, listener: RequestListener): RequestListener {
  return (req: WithId, res: ServerResponse) => {
    const id = trustedRequestId(req.headers, req.socket.remoteAddress ?? "", trust) ?? newRequestId();
    req.id = id;
    req.cost = newRequestCost();
    res.setHeader(REQUEST_ID_HEADER, id);
    requestIds.run(id, () => listener(req, res), req.cost);
  };
}
