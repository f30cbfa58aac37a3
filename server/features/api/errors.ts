import { z } from "zod";
import { httpStatusOf, type DomainError, type ErrorCode } from "#server/platform/errors";

/**
 * The one shape of every API error: `{ error: { code, message, requestId, fields? } }`. `code`
 * is stable and snake_case, for programs to branch on (a domain refusal's reason, e.g.
 * `already_refunded`, else its kind, e.g. `not_found`); `message` is for people and may change.
 */
export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.string().regex(/^[a-z][a-z0-9_]*$/).meta({ description: "Stable, snake_case: branch on this.", example: "not_found" }),
      message: z.string().meta({ description: "For people; may change.", example: "There is no such opportunity." }),
      requestId: z.string().meta({ description: "Quote it when you write to support." }),
      fields: z.record(z.string(), z.string()).optional().meta({ description: "Per input field, what is wrong with it (`query.limit`, `body.title`)." }),
    }),
  })
  .meta({ id: "Error", description: "Every error answer." });

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export type ApiRefusal = { status: number; code: string; message: string; fields?: Record<string, string> };

export function snakeCase(value: string): string {
  return value.toLowerCase().replaceAll("-", "_");
}

/** A domain function's refusal as the API answers it. */
export function apiRefusalOf(refused: DomainError & { reason?: string; fieldErrors?: object }): ApiRefusal {
  if (refused.reason === "INVALID_FIELDS" && refused.fieldErrors) {
    const fields = Object.fromEntries(Object.entries(refused.fieldErrors).filter(([, message]) => typeof message === "string").map(([field, message]) => [`body.${field}`, message as string]));
    return { status: httpStatusOf("invalid-argument"), code: "invalid_request", message: refused.message, fields };
  }
  // Whatever the domain calls it (ENDPOINT_NOT_FOUND …), a missing object is `not_found`: callers branch on one code.
  if (refused.code === "not-found") return { status: httpStatusOf("not-found"), code: "not_found", message: refused.message };
  return { status: httpStatusOf(refused.code), code: snakeCase(refused.reason ?? refused.code), message: refused.message };
}

export function apiRefusal(code: ErrorCode, apiCode: string, message: string, fields?: Record<string, string>): ApiRefusal {
  return { status: httpStatusOf(code), code: apiCode, message, ...(fields ? { fields } : {}) };
}

/** zod's issues as `fields`: where in the request, and what is wrong there. */
export function fieldsOf(part: "path" | "query" | "body", error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const where = [part, ...issue.path.map(String)].join(".");
    fields[where] ??= issue.message;
  }
  return fields;
}
