/**
 * Callable functions (SPEC §7.1, §8): POST /api/functions/<name> with { "data": ... },
 * answered { "result": ... } or { "error": { status, message, details? } }. Failures are
 * `AppError`s of the one error vocabulary (server/errors.ts), which also gives their HTTP status.
 */

export type FunctionContext = {
  /** The signed-in user (a disabled account is none), or null. */
  user: { id: string; email: string; emailVerified: boolean } | null;
  /** The client's address as Express sees it (honours TRUST_PROXY). */
  ip: string;
};

export type CallableFunction = (data: unknown, context: FunctionContext) => Promise<unknown>;
