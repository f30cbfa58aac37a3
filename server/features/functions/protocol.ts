/**
 * The callable functions' wire format (SPEC §7.1, §8), the one place it is written down:
 * POST /api/functions/<name> with { "data": ... }, answered 200 { "result": ... } or
 * { "error": { status, message, details? } } with the HTTP status of the refusal's code and
 * `status` its name (NOT_FOUND …). A function answers a `Result` of the one error vocabulary
 * (server/platform/errors.ts): `success({ result })`, or a refusal, encoded by `callableRefusalOf`:
 * - code and message only, never the domain's own fields (its reason stays on the server);
 * - a form's field problems (`fieldErrors`) as `details: { fieldErrors }`;
 * - bad-gateway, which SPEC §8's list lacks, as unavailable (503): the caller retries either way.
 * Only a bug or a lost database throws (500 "internal"; 503 with Retry-After for the database).
 * The router (router.ts) sends it; operations reach it through operation-door.ts.
 */
import { domainError, type DomainError, type ErrorCode, type Success } from "#server/platform/errors";


export type FunctionContext = {
  /** The signed-in user (a disabled account is none), or null. */
  user: { id: string; email: string; emailVerified: boolean } | null;
  /** The client's address as Express sees it (honours TRUST_PROXY). */
  ip: string;
};

/** A refusal as the protocol sends it; `details` only where the caller can use them (a form's field errors). */
export type CallableRefusal = DomainError<ErrorCode, { details?: unknown }>;

export type CallableAnswer = Success<{ result: unknown }> | CallableRefusal;

export type CallableFunction = (data: unknown, context: FunctionContext) => Promise<CallableAnswer>;

/** A domain refusal as the protocol sends it (the rules above). */
export function callableRefusalOf(refused: { code: ErrorCode; message: string; fieldErrors?: unknown }): CallableRefusal {
  const code = refused.code === "bad-gateway" ? "unavailable" : refused.code;
  return refused.fieldErrors === undefined ? domainError(code, refused.message) : domainError(code, refused.message, { details: { fieldErrors: refused.fieldErrors } });
}
