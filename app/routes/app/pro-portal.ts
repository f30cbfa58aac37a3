import { redirect } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { openProPortal } from "#server/features/operations/pro/pro-portal";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { readForm } from "#page-kit/form.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { Route } from "./+types/pro-portal";
import { seeOther } from "#page-kit/respond.server";

const ACCOUNT = "/app/account";

/** Nothing to show here: the portal opens from My Account's Pro Portal button (a POST: the link is made on demand). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireVerifiedUser(request, context);
  throw redirect(ACCOUNT);
}

/**
 * SPEC §2.5 My Account's Pro Portal (the openProPortal operation): the provider's billing portal
 * for someone who has bought before (it returns to My Account); the plans for someone who has not.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  if (read.kind === "ERROR") return redirectWithToast(request, context.sessionSecret, ACCOUNT, { kind: "error", message: read.message });
  const link = await runForPage(openProPortal, { caller: pageCaller(user), input: { returnTo: ACCOUNT }, context, notFound: "answer" });
  if (link.kind === "ERROR" && "reason" in link && link.reason === "NO_CUSTOMER") throw seeOther(`/app/pro?returnTo=${encodeURIComponent(ACCOUNT)}`);
  if (link.kind === "ERROR") return redirectWithToast(request, context.sessionSecret, ACCOUNT, { kind: "error", message: link.message });
  throw seeOther(link.url);
}
