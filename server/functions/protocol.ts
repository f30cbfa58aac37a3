/**
 * Callable functions (SPEC §7.1, §8): POST /api/functions/<name> with { "data": ... },
 * answered { "result": ... } or { "error": { status, message, details? } }.
 */

/** Each error code and the HTTP status it is sent with. */
export const FUNCTION_ERROR_HTTP_STATUS = {
  "invalid-argument": 400,
  unauthenticated: 401,
  "permission-denied": 403,
  "not-found": 404,
  aborted: 409,
  "resource-exhausted": 429,
  cancelled: 499,
  unimplemented: 501,
  unavailable: 503,
  "deadline-exceeded": 504,
  internal: 500,
} as const satisfies Record<string, number>;

export type FunctionErrorCode = keyof typeof FUNCTION_ERROR_HTTP_STATUS;

/** A failure the caller is meant to see: its code, message and details are sent as they are. */
export class FunctionError extends Error {
  constructor(
    readonly code: FunctionErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "FunctionError";
  }

  get httpStatus(): number {
    return FUNCTION_ERROR_HTTP_STATUS[this.code];
  }

  /** The wire name: "permission-denied" → "PERMISSION_DENIED". */
  get statusName(): string {
    return functionErrorStatusName(this.code);
  }
}

export function functionErrorStatusName(code: FunctionErrorCode): string {
  return code.toUpperCase().replaceAll("-", "_");
}

export type FunctionContext = {
  /** The signed-in user, or null. */
  user: { id: string; emailVerified: boolean } | null;
  /** The client's address as Express sees it (honours TRUST_PROXY). */
  ip: string;
};

export type CallableFunction = (data: unknown, context: FunctionContext) => Promise<unknown>;
