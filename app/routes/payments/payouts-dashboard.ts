import { redirect } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { openPayoutsDashboard } from "#server/features/operations/payments/payouts-dashboard";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { MY_PAYMENTS_PATH } from "#app/components/payments/PayoutSetup";
import { readForm } from "#page-kit/form.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { Route } from "./+types/payouts-dashboard";

/** Nothing to show here: the dashboard opens from My Payments' button (a POST, as the link is made on demand). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireVerifiedUser(request, context);
  throw redirect(MY_PAYMENTS_PATH);
}

/** SPEC §7.1 createLoginLink: a short-lived link to the provider's payouts dashboard for the person's own account (the openPayoutsDashboard operation). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  if (read.kind === "ERROR") return redirectWithToast(request, context.sessionSecret, MY_PAYMENTS_PATH, { kind: "error", message: read.message });
  const result = await runForPage(openPayoutsDashboard, { caller: pageCaller(user), input: null, context, notFound: "answer" });
  if (result.kind === "ERROR") return redirectWithToast(request, context.sessionSecret, MY_PAYMENTS_PATH, { kind: "error", message: result.message });
  // The provider's own page (an absolute URL it gave us), not a path of ours.
  throw redirect(result.url);
}
