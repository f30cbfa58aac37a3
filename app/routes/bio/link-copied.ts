import { redirect } from "react-router";
import { refuse } from "#page-kit/respond.server";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { recordLinkCopied } from "#server/domains/bio/readiness";
import { CHECKLIST_PATH } from "#app/components/bio/SetupChecklist";
import type { Route } from "./+types/link-copied";

/**
 * The setup checklist's "Copy your link" step, ticked: posted by the checklist when its Copy
 * button worked, or by "I've copied it" without JavaScript. Back to the checklist either way.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  if (!(await recordLinkCopied(context.db, user.id, params.pageId))) refuse("not-found", "No such page of yours.");
  return redirect(CHECKLIST_PATH);
}
