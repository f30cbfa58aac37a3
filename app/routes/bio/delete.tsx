import { data, redirect } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { deleteBioPage } from "#server/domains/bio/pages";
import { isBioPageId } from "#server/domains/bio/endings";
import { formText } from "#app/lib/identity.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { Route } from "./+types/delete";
import { DASHBOARD_PATH } from "./editor.server";
import { answerRefusal, refuseWith, requireForm } from "#page-kit/respond.server";
import type { DeleteAnswer } from "#app/components/bio/BioPageRow";

/**
 * POST /app/account/bizbio/delete (SPEC §2.2) deletes one of the reader's
 * pages with its views record. The dashboard's Yes asks from the page and
 * shows 'Done!'; a browser without JavaScript posts a plain form and comes
 * back to the dashboard with a toast.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const form = await requireForm(request);
  const viaPage = formText(form, "via") === "fetcher";
  const result = await deleteBioPage(context.db, { uid: user.id }, formText(form, "pageId"));
  if (result.kind === "ERROR") {
    if (viaPage) return answerRefusal<DeleteAnswer>(result, { kind: "ERROR", message: result.message });
    refuseWith(result);
  }
  if (viaPage) return data<DeleteAnswer>({ kind: "SUCCESS" });
  const address = `${new URL(context.config.BIO_ORIGIN).host}/${result.customEnding}`;
  return redirectWithToast(request, context.sessionSecret, DASHBOARD_PATH, { kind: "success", message: `Deleted ${address}.` });
}

/** A link here (or a reload after the form) asks the same question on the dashboard. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireVerifiedUser(request, context);
  const pageId = new URL(request.url).searchParams.get("page") ?? "";
  throw redirect(isBioPageId(pageId) ? `${DASHBOARD_PATH}?confirm=${pageId}` : DASHBOARD_PATH);
}
