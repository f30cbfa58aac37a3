import { redirect } from "react-router";
import { safeRedirectPath, signInPath } from "#server/platform/http/redirects";
import { getSessionUser } from "#server/domains/auth/session";
import { toggleHeart } from "#server/domains/opportunities/hearts";
import { readForm } from "#page-kit/form.server";
import { formText } from "#app/lib/identity.server";
import { plainTextRefusal, refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/heart";

/**
 * POST /app/opportunities/:docId/heart. With JavaScript (a fetcher) it
 * answers the new state; a plain form is sent back where it came from.
 * Guests go to sign in and return to the page they were on.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const read = await readForm(request);
  // No page of its own to show the reason on: the reason itself, as text.
  if (read.kind === "ERROR") throw plainTextRefusal(read);
  const form = read.form;
  const returnTo = safeRedirectPath(formText(form, "returnTo"), detailPath(params.docId));
  const user = await getSessionUser(request, context);
  if (!user) throw redirect(signInPath(returnTo));
  if (!user.emailVerified) throw redirect("/app/verify");
  const result = await toggleHeart(context.db, params.docId, user.id);
  if (result.kind === "ERROR") refuse(result.code);
  const state = { liked: result.result === "added", totalHearts: result.totalHearts };
  // The hydrated button asks for the new state; a browser without JavaScript gets a redirect back.
  return formText(form, "via") === "fetcher" ? state : redirect(returnTo);
}

export function loader({ params }: Route.LoaderArgs) {
  throw redirect(detailPath(params.docId));
}

/**
 * The post's page, encoded: a Location header with raw non-ASCII or CR/LF
 * fails to send (a 500), and encodeURIComponent throws on a lone surrogate.
 */
function detailPath(docId: string): string {
  return `/app/opportunities/${encodeURIComponent(docId.replace(/\p{Cs}/gu, "\uFFFD"))}`;
}
