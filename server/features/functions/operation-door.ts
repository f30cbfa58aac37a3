import { success, type DomainError, type Success } from "#server/platform/errors";
import type { z } from "zod";
import { admit, runOperation, type Answer, type Caller, type Operation, type OperationDeps, type Who_ } from "#server/features/operations/operation";
import { callableRefusalOf, type CallableFunction, type CallableRefusal, type FunctionContext } from "./protocol";

/** How a callable reaches an operation: what its data becomes, and what its answer is. */
export type CallableDoor<Output extends Answer> = {
  /** What `data` must be when it is not even an object of the right shape (the operation's root problem). */
  shape: string;
  /**
   * The call's data as the operation's input. Absent: the data is the input as it is. A payload typed
   * otherwise than the operation's input (amounts in cents) is decoded here, with the protocol's own messages.
   */
  input?(data: unknown): Success<{ input: unknown }> | DomainError;
  /** The `result` of a successful call (SPEC §7.1's payload). */
  answer(value: Extract<Output, { kind: "SUCCESS" }>): unknown;
};

/** The caller as the functions router resolved them: a signed-in person (verified or not), or a guest. */
export function callerOf(context: FunctionContext): Caller {
  return context.user ? { kind: "person", uid: context.user.id, emailVerified: context.user.emailVerified } : { kind: "guest" };
}

/**
 * A SPEC §7.1 callable over an operation: the caller from the session, admitted before the data is
 * read (a guest is asked to sign in whatever they sent), the data as the operation's input, and the
 * answer in the functions protocol (protocol.ts). A call has no browser cookie: no checkout reuse token.
 */
export function callableOperation<Input extends z.ZodType, Who extends Who_, Output extends Answer>(
  operation: Operation<Input, Who, Output>,
  deps: OperationDeps,
  door: CallableDoor<Output>,
): CallableFunction {
  return async (data, context) => {
    const caller = callerOf(context);
    const admitted = admit(operation.who, caller);
    if (admitted.kind === "ERROR") return callableRefusalOf(admitted);
    const decoded = door.input ? door.input(data) : success({ input: data });
    if (decoded.kind === "ERROR") return callableRefusalOf(decoded);
    const result = await runOperation(operation, { caller, input: decoded.input, deps, client: { ip: context.ip, browserToken: null } });
    if (result.kind === "SUCCESS") return success({ result: door.answer(result as Extract<Output, { kind: "SUCCESS" }>) });
    if ("reason" in result && result.reason === "INVALID_INPUT") return invalidData(result.issues, door.shape);
    return callableRefusalOf(result);
  };
}

/** The first problem with the data: the door's own words when the data is not the object it takes, else the field's. */
function invalidData(issues: { field: string; message: string }[], shape: string): CallableRefusal {
  const first = issues[0];
  return callableRefusalOf({ code: "invalid-argument", message: !first || first.field === "" ? shape : first.message });
}
