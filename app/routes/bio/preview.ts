import { requireVerifiedUser } from "#server/domains/auth/session";
import { previewOwnPage } from "#server/domains/bio/host/preview";
import { readForm } from "#page-kit/form.server";
import { plainTextRefusal, rawAnswer } from "#page-kit/respond.server";
import type { AppContext } from "#server/main/context";
import type { Route } from "./+types/preview";

/**
 * The editor's phone preview of the owner's page, framed by the edit page:
 * GET draws the saved page (the frame's address, so it works without
 * JavaScript and shows a save after the reload); POST draws it with the
 * editor's unsaved fields laid over it, and saves nothing. Owner only, never
 * cached or indexed, no script, framed only by the app itself.
 */
const HEADERS = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
  "X-Frame-Options": "SAMEORIGIN",
  "X-Content-Type-Options": "nosniff",
};

async function answer(context: Pick<AppContext, "db" | "config">, uid: string, pageId: string, edits: FormData | null) {
  const site = { bioOrigin: context.config.BIO_ORIGIN, publicOrigin: context.config.PUBLIC_ORIGIN, appName: context.config.APP_NAME };
  const result = await previewOwnPage(context.db, { uid }, pageId, site, edits);
  if (result.kind === "ERROR") return plainTextRefusal(result, { ...HEADERS, "Content-Security-Policy": "default-src 'none'; frame-ancestors 'self'" });
  return rawAnswer(result.html, { ...HEADERS, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": result.csp });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return answer(context, user.id, params.pageId, null);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  if (read.kind === "ERROR") return plainTextRefusal(read, HEADERS);
  return answer(context, user.id, params.pageId, read.form);
}
