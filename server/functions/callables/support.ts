import { z } from "zod";
import type { Config } from "#server/config";
import type { Db } from "#server/db/client";
import { AppError, type DomainError } from "#server/errors";
import type { PaymentProvider } from "#server/payments/provider";
import type { FunctionContext } from "#server/functions/protocol";

/** What the SPEC §7.1 callables need: the same handles and settings the pages get from their context. */
export type CallableDeps = {
  db: Db;
  payments: PaymentProvider;
  config: Pick<Config, "PUBLIC_ORIGIN" | "PLATFORM_FEE_PERCENT" | "STRIPE_API_URL">;
};

export type Caller = NonNullable<FunctionContext["user"]>;

/** The data of a call, read by `schema`; anything else is invalid-argument with the first problem's message. */
export function readData<Schema extends z.ZodType>(schema: Schema, data: unknown): z.infer<Schema> {
  const read = schema.safeParse(data);
  if (!read.success) throw new AppError("invalid-argument", read.error.issues[0]?.message ?? "Invalid data.");
  return read.data;
}

/**
 * The pages' requireVerifiedUser for a call: signed in (a disabled account is
 * signed out, server/auth/session.ts) with a verified email.
 */
export function verifiedCaller(context: FunctionContext): Caller {
  if (!context.user) throw new AppError("unauthenticated", "Sign in first.");
  if (!context.user.emailVerified) throw new AppError("permission-denied", "Verify your email address first.");
  return context.user;
}

/** A domain function's error, thrown as the callable protocol sends it; `details` only where the caller can use them. */
export function failWith(error: DomainError, details?: unknown): never {
  throw new AppError(error.code, error.message, details);
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
