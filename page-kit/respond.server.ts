/**
 * The one way a route answers: read the form, call one domain function, and
 * turn its `Result` into a response here — never a status number in a route.
 *
 * - a loader or action that cannot go on (no such thing, not yours, a form it
 *   cannot read) stops with `refuse` / `refuseWith` / `requireForm`: React
 *   Router renders the status's error page with the message;
 * - a form page that shows a refusal beside the person's input returns
 *   `answerRefusal(refusal, actionData)`: the page's data with the status the
 *   refusal's code maps to;
 * - a success moves on with `redirectWithToast` (`#server/platform/http/toast-cookie`) or
 *   returns the page's data.
 */
import { data, redirect } from "react-router";
import { httpStatusOf, type DomainError, type ErrorCode } from "#server/platform/errors";
import { readForm } from "#page-kit/form.server";

type Refused = Pick<DomainError, "code" | "message">;

/** Stops the request with the status `code` maps to; `message` is the error page's text. */
export function refuse(code: ErrorCode, message: string | null = null): never {
  throw data(message, { status: httpStatusOf(code) });
}

/** Stops the request with a domain function's refusal. */
export function refuseWith(refused: Refused): never {
  refuse(refused.code, refused.message);
}

/** The page's action data, sent with the status the refusal's code maps to. */
export function answerRefusal<Payload>(refused: Pick<DomainError, "code">, payload: Payload) {
  return data(payload, { status: httpStatusOf(refused.code) });
}

/** The submitted form, or the request stops with the reader's refusal (415/400 and its message). */
export async function requireForm(request: Request): Promise<FormData> {
  const read = await readForm(request);
  if (read.kind === "ERROR") refuseWith(read);
  return read.form;
}

// --- core helpers

/**
 * A refusal as plain text, for an answer that is not a page: a file download,
 * or a button that shows the reason itself. Throw it to stop a loader or action.
 */
export function plainTextRefusal(refused: Refused, headers: Record<string, string> = {}): Response {
  return rawAnswer(refused.message, { "Content-Type": "text/plain; charset=utf-8", ...headers }, refused);
}

/** A body that is not a page (XML, a file): 200, or the status of the refusal it answers. */
export function rawAnswer(body: BodyInit, headers: Record<string, string>, refused?: Pick<DomainError, "code">): Response {
  return new Response(body, { status: refused ? httpStatusOf(refused.code) : 200, headers });
}

/** After a form is handled, on to another page with GET (303 See Other): a reload does not send the form again. */
export function seeOther(location: string): Response {
  return redirect(location, 303);
}

/** An address that has moved for good (old links in mail and bookmarks): browsers and search engines remember it. */
export function movedPermanently(location: string): Response {
  return redirect(location, 301);
}

// --- payments helpers

/** A refusal that says when to come back (a rate limit's 429): the page's data, its status and Retry-After. */
export function answerRetryLater<Payload>(refused: Pick<DomainError, "code"> & { retryAfterSeconds: number }, payload: Payload) {
  return data(payload, { status: httpStatusOf(refused.code), headers: { "Retry-After": String(refused.retryAfterSeconds) } });
}
