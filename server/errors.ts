/**
 * The product's one error vocabulary (SPEC §8, "backend function HTTP statuses").
 *
 * Every failure a caller is meant to see — from an identity flow, a mutation, a
 * callable function or a route — names one of these codes, and the code alone
 * decides the HTTP status. Domain functions return `DomainError`s; the thrown
 * form, `AppError`, is for the few places that must unwind (callable functions).
 */
export const ERROR_HTTP_STATUS = {
  "invalid-argument": 400,
  unauthenticated: 401,
  "permission-denied": 403,
  "not-found": 404,
  aborted: 409,
  "resource-exhausted": 429,
  cancelled: 499,
  internal: 500,
  unimplemented: 501,
  unavailable: 503,
  "deadline-exceeded": 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

/** A failure as domain functions return it: `{ kind: 'ERROR', code, message }` plus what the caller needs. */
export type DomainError<Code extends ErrorCode = ErrorCode, Extra extends object = object> = {
  kind: "ERROR";
  code: Code;
  message: string;
} & Extra;

export function domainError<Code extends ErrorCode>(code: Code, message: string): DomainError<Code>;
export function domainError<Code extends ErrorCode, Extra extends object>(code: Code, message: string, extra: Extra): DomainError<Code, Extra>;
export function domainError(code: ErrorCode, message: string, extra: object = {}): DomainError {
  return { kind: "ERROR", code, message, ...extra };
}

/** The HTTP status a code is answered with. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_HTTP_STATUS[code];
}

/** The wire name of a code in callable-function replies: "permission-denied" → "PERMISSION_DENIED". */
export function errorStatusName(code: ErrorCode): string {
  return code.toUpperCase().replaceAll("-", "_");
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_HTTP_STATUS, value);
}

/** A failure the caller is meant to see, thrown: its code, message and details are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }

  get httpStatus(): number {
    return httpStatusOf(this.code);
  }

  get statusName(): string {
    return errorStatusName(this.code);
  }
}
