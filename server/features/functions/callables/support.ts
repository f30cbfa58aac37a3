import { z } from "zod";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { domainError, success, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { CallableRefusal, FunctionContext } from "#server/features/functions/protocol";

/** What the SPEC §7.1 callables need: the same handles and settings the pages get from their context. */
export type CallableDeps = {
  db: Db;
  payments: PaymentProvider;
  config: Pick<Config, "PUBLIC_ORIGIN" | "PLATFORM_FEE_PERCENT">;
};

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
  if (!context.user) return domainError("unauthenticated", "Sign in first.");
  if (!context.user.emailVerified) return domainError("permission-denied", "Verify your email address first.");
  return success({ caller: context.user });
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

/** A domain function's refusal as the protocol sends it: code and message, never the domain's own fields. */
export function refusedWith(refused: { code: CallableRefusal["code"]; message: string }, details?: unknown): CallableRefusal {
  return details === undefined ? domainError(refused.code, refused.message) : domainError(refused.code, refused.message, { details });
}

/** The session id refundSponsorship and sponsorPaymentInfo take (SPEC §7.1); one that is not the caller's is not-found. */
export const sponsorSessionIdInput = z.object(
  {
    sponsorSessionId: z
      .string({ error: "sponsorSessionId must be a string." })
      .min(1, "sponsorSessionId must not be empty.")
      .max(100, "sponsorSessionId must be at most 100 characters."),
  },
  { error: "data must be an object with a sponsorSessionId string." },
);
