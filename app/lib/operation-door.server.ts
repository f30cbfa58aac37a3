/**
 * The pages' door onto an operation (server/features/operations/), and the one place their wire
 * format for it is written down. A page answers in HTML, so:
 * - who asks is the page's guard's answer (requireVerifiedUser, getSessionUser, requireStaff),
 *   which sends a guest to sign in before the operation is reached;
 * - input a page read from its address that does not parse names nothing: the 404 page, as an
 *   unknown id (a form's fields are strings; their content is the domain's to check);
 * - not-found stops the request with the 404 page (someone else's payment is no one's), unless
 *   the operation is about something of the caller's own (`notFound: "answer"`);
 * - every other refusal comes back to the action, which shows it beside the form with
 *   `answerRefusal` (the status is the refusal's code's, #page-kit/respond.server) or moves on
 *   with a toast; a success is the page's data or a redirect (303).
 */
import type { z } from "zod";
import type { SessionUser } from "#server/domains/auth/session";
import type { StaffUser } from "#server/domains/auth/staff-guard";
import type { DomainError } from "#server/platform/errors";
import { admit, runOperation, type Answer, type Caller, type Client, type Operation, type Who_ } from "#server/features/operations/operation";
import { refuse } from "#page-kit/respond.server";

/** The signed-in person a page's guard found, or a guest. */
export function pageCaller(user: SessionUser | null): Caller {
  return user ? { kind: "person", uid: user.id, emailVerified: user.emailVerified } : { kind: "guest" };
}

/** Staff, as the back office's guard found them. */
export function staffCaller(staff: StaffUser): Caller {
  return { kind: "staff", uid: staff.id, actor: staff.actor };
}

/** `context`: the page's own (AppLoadContext), which holds every service an operation uses. */
type PageArgs<Deps> = { caller: Caller; input: unknown; context: Deps; client?: Client };

/**
 * Runs an operation for a loader or action (the rules above): its success, or a refusal the page
 * shows. `notFound: "answer"` hands not-found back too, for an operation about something of the
 * caller's own rather than what the page's address names (no payout account yet is said, not a 404).
 */
export async function runForPage<Input extends z.ZodType, Who extends Who_, Output extends Answer, Deps extends object>(
  operation: Operation<Input, Who, Output, Deps>,
  args: PageArgs<Deps> & { notFound?: "404 page" },
): Promise<Exclude<Output, DomainError<"not-found">>>;
export async function runForPage<Input extends z.ZodType, Who extends Who_, Output extends Answer, Deps extends object>(
  operation: Operation<Input, Who, Output, Deps>,
  args: PageArgs<Deps> & { notFound: "answer" },
): Promise<Output>;
export async function runForPage<Input extends z.ZodType, Who extends Who_, Output extends Answer, Deps extends object>(
  operation: Operation<Input, Who, Output, Deps>,
  args: PageArgs<Deps> & { notFound?: "404 page" | "answer" },
): Promise<Output> {
  // A page's guard has admitted the caller already; this is the operation's own word on it.
  const admitted = admit(operation.who, args.caller);
  if (admitted.kind === "ERROR") refuse(admitted.code, admitted.message);
  const result = await runOperation(operation, { caller: args.caller, input: args.input, deps: args.context, client: args.client });
  if (result.kind === "SUCCESS") return result;
  if ("reason" in result && result.reason === "INVALID_INPUT") refuse("not-found");
  if (result.code === "not-found" && args.notFound !== "answer") refuse("not-found");
  return result as Output;
}
