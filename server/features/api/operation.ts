import type { Logger } from "pino";
import type { z } from "zod";
import type { ApiCaller } from "#server/domains/api-keys/keys";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import type { ErrorCode, Result } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { TagCatalogueReader } from "#server/domains/opportunities/tags";
import type { SearchLog } from "#server/platform/search-log/search-log";
import type { ApiScope } from "#isomorphic/api-scopes";
import type { Mailer } from "#server/platform/email/mailer";
import type { Client } from "#server/features/operations/operation";

/** The services an operation may use: the same ones the pages get (server/main/context.ts). */
export type ApiDeps = {
  db: Db;
  payments: PaymentProvider;
  config: Config;
  logger: Logger;
  /** The tag catalogue kept in memory per guest page generation, as the pages read it. */
  tagCatalogue: TagCatalogueReader;
  /** Tag searches, logged as the list page logs them (SPEC §7.2). */
  searchLog: Pick<SearchLog, "record">;
  /** Seals webhook signing secrets, as the pages do (server/platform/outgoing-webhooks/secrets.ts). */
  sessionSecret: string;
  /** The webhook delivery worker: `kick()` sends what was just queued now, not at the next poll. */
  webhooks: { kick(): void };
  /** Mail to the other side of a deal, as the pages send it (server/domains/notifications/send.ts). */
  mailer: Mailer;
};

export type ApiMethod = "get" | "post" | "patch" | "delete";

/** What the handler of an operation is given, every part already validated by its schema. */
export type ApiInput<Params, Query, Body> = {
  caller: ApiCaller;
  params: Params;
  query: Query;
  body: Body;
  deps: ApiDeps;
  requestId: string;
  /** Where the request came from (its client address; no browser token): a deal's acceptance records it. */
  client: Client;
};

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * One `/api/v1` operation: its route, the scope it needs, the zod schemas its input is validated
 * with and its answer is described by (the OpenAPI document is generated from these, so the
 * document and the router cannot disagree), and a thin handler that calls one domain function.
 */
export type ApiOperation<Params extends Schema | undefined = Schema | undefined, Query extends Schema | undefined = Schema | undefined, Body extends Schema | undefined = Schema | undefined, Response extends Schema | undefined = Schema | undefined> = {
  /** operationId in the document: `listOpportunities`. */
  id: string;
  method: ApiMethod;
  /** OpenAPI style, below /api/v1: `/opportunities/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** The scope a key needs; null for operations any valid key may call (`GET /me`). */
  scope: ApiScope | null;
  params?: Params;
  query?: Query;
  body?: Body;
  /** Takes an `Idempotency-Key` header: a retry with the same key gets the first answer back. */
  idempotent?: boolean;
  success: { status: 200 | 201 | 204; description: string; schema?: Response };
  /** Refusals the handler may answer besides the ones every operation has (documented per status). */
  refusals?: readonly ErrorCode[];
  handle(input: ApiInput<Out<Params>, Out<Query>, Out<Body>>): Promise<Result<{ body?: Out<Response> }>>;
};

// The registry holds operations of every shape; each was type-checked where it was defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyApiOperation = ApiOperation<any, any, any, any>;

/** Checks an operation's handler against its own schemas. */
export function defineApiOperation<Params extends Schema | undefined = undefined, Query extends Schema | undefined = undefined, Body extends Schema | undefined = undefined, Response extends Schema | undefined = undefined>(
  operation: ApiOperation<Params, Query, Body, Response>,
): ApiOperation<Params, Query, Body, Response> {
  return operation;
}

/** Where the API answers. */
export const API_PATH_PREFIX = "/api/v1";
