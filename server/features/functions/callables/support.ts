import { z } from "zod";
import { domainError, success, type Success } from "#server/platform/errors";
import { admit, type OperationDeps } from "#server/features/operations/operation";
import { callerOf } from "#server/features/functions/operation-door";
import { callableRefusalOf, type CallableRefusal, type FunctionContext } from "#server/features/functions/protocol";

/** What the SPEC §7.1 callables need: what an operation needs, the handles and settings the pages get from their context. */
export type CallableDeps = OperationDeps;

export type Caller = NonNullable<FunctionContext["user"]>;

/** The data of a call, read by `schema`; anything else is invalid-argument with the first problem's message. */
export function readData<Schema extends z.ZodType>(schema: Schema, data: unknown): Success<{ input: z.infer<Schema> }> | CallableRefusal {
  const read = schema.safeParse(data);
  if (!read.success) return domainError("invalid-argument", read.error.issues[0]?.message ?? "Invalid data.");
  return success({ input: read.data });
}

/**
 * The pages' requireVerifiedUser for a call: signed in (a disabled account is
 * signed out, server/domains/auth/session.ts) with a verified email.
 */
export function verifiedCaller(context: FunctionContext): Success<{ caller: Caller }> | CallableRefusal {
  // Admitted as every operation admits an account holder (server/features/operations/operation.ts): the same refusals.
  const admitted = admit("account-holder", callerOf(context));
  if (admitted.kind === "ERROR") return callableRefusalOf(admitted);
  return success({ caller: context.user! });
}

/** A verified caller's call: who asks and their data, read by `schema`; else the first refusal (401, 403 or 400). */
export function verifiedCall<Schema extends z.ZodType>(
  context: FunctionContext,
  schema: Schema,
  data: unknown,
): Success<{ caller: Caller; input: z.infer<Schema> }> | CallableRefusal {
  const verified = verifiedCaller(context);
  if (verified.kind === "ERROR") return verified;
  const read = readData(schema, data);
  if (read.kind === "ERROR") return read;
  return success({ caller: verified.caller, input: read.input });
}
