/**
 * The product's one error vocabulary (SPEC §8, "backend function HTTP statuses").
 *
 * A domain function answers with a `Result`: `{ kind: "SUCCESS", …what it made }`
 * or a `DomainError` — an expected refusal with a code (the code alone decides
 * the HTTP status) and, where a caller must tell refusals of one code apart, a
 * typed `reason` such as `ALREADY_PAID`. `kind` has no other values (a lint
 * rule refuses new ones): a success that comes in several shapes says which in
 * a field of its own (`outcome`, `status`). Throwing is for bugs and
 * infrastructure only (a lost database, a provider that did not answer).
 */
export const ERROR_HTTP_STATUS = {
  "invalid-argument": 400,
  unauthenticated: 401,
  "permission-denied": 403,
  "not-found": 404,
  aborted: 409,
  // Not one of SPEC §8's codes: a request whose body is not a form at all (HTTP's own status for it).
  "unsupported-media-type": 415,
  // Not SPEC §8's either: what the payment pages answer in HTTP's own words — a test card the
  // sandbox declines (402), a checkout or link that expired (410), a sponsor form whose fields are
  // refused (422), a provider that answered with a page we will not send anyone to (502).
  "payment-required": 402,
  gone: 410,
  "unprocessable-content": 422,
  "bad-gateway": 502,
  "resource-exhausted": 429,
  cancelled: 499,
  internal: 500,
  unimplemented: 501,
  unavailable: 503,
  "deadline-exceeded": 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

/** A refusal as domain functions return it: `{ kind: 'ERROR', code, message }` plus what the caller needs (a `reason`, field errors). */
export type DomainError<Code extends ErrorCode = ErrorCode, Extra extends object = object> = {
  kind: "ERROR";
  code: Code;
  message: string;
} & Extra;

/** A refusal a caller branches on by its `reason` (`ALREADY_PAID`), not only by its code. */
export type Refusal<Code extends ErrorCode, Reason extends string, Extra extends object = object> = DomainError<Code, { reason: Reason } & Extra>;

/** What a domain function made. */
export type Success<Value extends object = object> = { kind: "SUCCESS" } & Value;

/** Everything a domain function can answer: what it made, or why not. */
export type Result<Value extends object = object, Failure extends DomainError = DomainError> = Success<Value> | Failure;

export function success(): Success;
export function success<Value extends object>(value: Value): Success<Value>;
export function success(value: object = {}): Success {
  return { kind: "SUCCESS", ...value };
}

/** A refusal with a typed reason: `refusal("aborted", "ALREADY_PAID", "This checkout is already paid.")`. */
export function refusal<Code extends ErrorCode, Reason extends string>(code: Code, reason: Reason, message: string): Refusal<Code, Reason>;
export function refusal<Code extends ErrorCode, Reason extends string, Extra extends object>(
  code: Code,
  reason: Reason,
  message: string,
  extra: Extra,
): Refusal<Code, Reason, Extra>;
export function refusal(code: ErrorCode, reason: string, message: string, extra: object = {}): Refusal<ErrorCode, string> {
  return { kind: "ERROR", code, message, ...extra, reason };
}

export function isRefusal<R extends { kind: string }>(result: R): result is Extract<R, { kind: "ERROR" }> {
  return result.kind === "ERROR";
}

/** A form refused field by field: each message shows beside its field (the `message` is for logs and callers without fields). */
export type FieldRefusal<FieldErrors extends object> = Refusal<"invalid-argument", "INVALID_FIELDS", { fieldErrors: FieldErrors }>;

export function fieldRefusal<FieldErrors extends object>(fieldErrors: FieldErrors): FieldRefusal<FieldErrors> {
  return refusal("invalid-argument", "INVALID_FIELDS", "Some fields need a change.", { fieldErrors });
}

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
