/**
 * Callable functions (SPEC §7.1, §8): POST /api/functions/<name> with { "data": ... },
 * answered { "result": ... } or { "error": { status, message, details? } }. A function answers a
 * `Result` of the one error vocabulary (server/platform/errors.ts): `success({ result })`, or a refusal
 * whose code gives the HTTP status. Only a bug or a lost database throws (a 500 "internal").
 */
import type { DomainError, ErrorCode, Success } from "#server/platform/errors";


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
