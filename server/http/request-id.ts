import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";

/**
 * The id of the request being answered, wherever its work goes (loaders, domain functions,
 * the mailer, webhook handling): the logger's mixin reads it, so every line written while a
 * request is answered names it. Made by the composition root's caller once per process and
 * handed to the logger and the request log; the storage holds nothing between requests.
 */
export type RequestIds = {
  /** Runs `answer` (and everything it starts) as the request `id`. */
  run<T>(id: string, answer: () => T): T;
  /** The id of the request this code runs for, if any. */
  current(): string | undefined;
};

export function createRequestIds(): RequestIds {
  const storage = new AsyncLocalStorage<string>();
  return { run: (id, answer) => storage.run(id, answer), current: () => storage.getStore() };
}

/**
 * A new id for each request. A client's X-Request-Id is never taken: no proxy in front of us is
 * trusted to set one (server/http/forwarding.ts trusts only X-Forwarded-* from TRUST_PROXY),
 * and a caller's own value could mix its lines into another request's.
 */
export function newRequestId(): string {
  return crypto.randomUUID();
}

export const REQUEST_ID_HEADER = "X-Request-Id";
