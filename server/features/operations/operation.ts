import type { z } from "zod";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { domainError, refusal, success, type DomainError, type Refusal, type Success } from "#server/platform/errors";
import type { Actor } from "#server/platform/audit/audit-log";
import type { PaymentProvider } from "#server/providers/payments/port";

/**
 * One capability of the product, whichever door it is reached by (a page's action, a SPEC §7.1
 * callable, `/api/v1`, the back office): what it takes (a zod schema), who may call it, the one
 * domain call it makes and the refusals that call may answer. A door authenticates in its own way,
 * turns what it was sent into the operation's input and encodes the answer in its own wire format
 * (README.md beside this file); it decides nothing else (ADRs 0065, 0078).
 */
export type Operation<Input extends z.ZodType, Who extends Who_, Output extends Answer, Deps extends object = OperationDeps> = {
  /** The capability's name, as doors and logs say it: `refundPayment`. */
  name: string;
  /** Who may call it: any caller, a verified account holder (a person or their API key), or staff. */
  who: Who;
  /**
   * What it takes. Field messages are whole sentences naming the field: doors whose field names
   * differ (a path parameter) answer any problem there as "no such object", never with the message.
   */
  input: Input;
  /** The refusals `call` may answer, besides the ones every operation has (who may call, input). */
  refusals: readonly Extract<Output, { kind: "ERROR" }>["code"][];
  /**
   * The one domain call, with the input already parsed and the caller already admitted. A property,
   * not a method, so that its `deps` are checked strictly: only a door that has every service an
   * operation uses can run it (a callable has no webhook worker, a page and `/api/v1` do).
   */
  call: (args: { caller: CallerOf<Who>; input: z.output<Input>; deps: Deps; client: Client | null }) => Promise<Output>;
};

export type Who_ = "anyone" | "account-holder" | "staff";

/** What a domain call answers: a success with its value, or a refusal (server/platform/errors.ts). */
export type Answer = Success<object> | DomainError;

/**
 * The services most operations use: the ones the pages get from their context (server/main/context.ts).
 * An operation that needs others says so in its own `Deps` (the webhook endpoints' signing secret and worker).
 */
export type OperationDeps = {
  db: Db;
  payments: PaymentProvider;
  config: Pick<Config, "PUBLIC_ORIGIN" | "PLATFORM_FEE_PERCENT">;
};

/** Who is asking, as the door authenticated them. */
export type Caller =
  | { kind: "guest" }
  /** A signed-in person (a page's session cookie, a callable's session); a disabled account is a guest. */
  | { kind: "person"; uid: string; emailVerified: boolean }
  /** An API key acts for its account; the API router has checked the key's scope. */
  | { kind: "api-key"; uid: string }
  /** Staff in the back office, through its guard (server/domains/auth/staff-guard.ts). */
  | { kind: "staff"; uid: string; actor: Actor };

/**
 * An admitted account holder. `addressVerifiedNow`: the door read the account's verified address on
 * this very request (a session is read from the account on every request); an API key's account
 * was verified when the key was made, and may not be now (requireAddressVerifiedNow, verified-now.ts).
 */
export type AccountHolder = { uid: string; addressVerifiedNow: boolean };

/** What `call` knows of the caller once admitted. */
export type CallerOf<Who extends Who_> = Who extends "account-holder"
  ? AccountHolder
  : Who extends "staff"
    ? { uid: string; actor: Actor }
    : { uid: string | null };

/** Where the request came from, for rate limits and the reuse of an open checkout (null: the door does not say); doors without a browser send no token. */
export type Client = { ip: string; browserToken: string | null };

/** Caller not admitted: 401 for a guest, 403 for anyone else. The same messages through every door. */
export type AccessRefusal = DomainError<"unauthenticated" | "permission-denied">;

/** The input did not parse: the first problem's message, and every problem by field (`sponsorSessionId`, or "" for the whole input). */
export type InputRefusal = Refusal<"invalid-argument", "INVALID_INPUT", { issues: { field: string; message: string }[] }>;

/** Checks an operation's `call` against its own schema and caller. */
export function defineOperation<Input extends z.ZodType, Who extends Who_, Output extends Answer, Deps extends object = OperationDeps>(
  operation: Operation<Input, Who, Output, Deps>,
): Operation<Input, Who, Output, Deps> {
  return operation;
}

/** Whether `caller` may call an operation open to `who`, and as whom. */
export function admit<Who extends Who_>(who: Who, caller: Caller): Success<{ caller: CallerOf<Who> }> | AccessRefusal {
  const admitted = (as: object) => success({ caller: as as CallerOf<Who> });
  if (who === "anyone") return admitted({ uid: caller.kind === "guest" ? null : caller.uid });
  if (who === "staff") {
    if (caller.kind !== "staff") return domainError("permission-denied", "Only staff may do this.");
    return admitted({ uid: caller.uid, actor: caller.actor });
  }
  // An account holder: the pages' requireVerifiedUser, a callable's session, or a key (made only in a verified account).
  if (caller.kind === "guest") return domainError("unauthenticated", "Sign in first.");
  if (caller.kind === "person" && !caller.emailVerified) return domainError("permission-denied", "Verify your email address first.");
  return admitted({ uid: caller.uid, addressVerifiedNow: caller.kind === "person" });
}

/** The operation's input, or every problem with it. */
export function parseInput<Input extends z.ZodType>(schema: Input, value: unknown): Success<{ input: z.output<Input> }> | InputRefusal {
  const parsed = schema.safeParse(value);
  if (parsed.success) return success({ input: parsed.data });
  const issues = parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message }));
  return refusal("invalid-argument", "INVALID_INPUT", issues[0]?.message ?? "Invalid input.", { issues });
}

/** Admits the caller, parses the input, then makes the operation's one call. Every door runs an operation through this. */
export async function runOperation<Input extends z.ZodType, Who extends Who_, Output extends Answer, Deps extends object = OperationDeps>(
  operation: Operation<Input, Who, Output, Deps>,
  args: { caller: Caller; input: unknown; deps: Deps; client?: Client },
): Promise<Output | AccessRefusal | InputRefusal> {
  const admitted = admit(operation.who, args.caller);
  if (admitted.kind === "ERROR") return admitted;
  const parsed = parseInput(operation.input, args.input);
  if (parsed.kind === "ERROR") return parsed;
  return operation.call({ caller: admitted.caller, input: parsed.input, deps: args.deps, client: args.client ?? null });
}
