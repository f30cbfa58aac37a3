import { data, redirect } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { safeRedirectPath } from "#server/http/redirects";
import { refundSponsorship } from "#server/payments/refunds";
import { readForm } from "#page-kit/form.server";
import { formText } from "#app/lib/identity.server";
import { redirectWithToast } from "#server/http/toast-cookie";
import { PAYMENTS_PATH } from "#app/components/sponsor-payments/paths";
import type { Route } from "./+types/refund";
import { answerRefusal, refuse, refuseWith } from "#page-kit/respond.server";
import type { RefundAnswer } from "#app/components/sponsor-payments/RefundButton";

const REQUESTED = "Refund requested. The payment shows as refunded once the payment provider confirms it.";

/**
 * POST /app/account/sponsors/payments/:sessionId/refund (SPEC §7.1
 * refundSponsorship): the owner only, a completed payment only, one refund at
 * the provider however many clicks. The card asks from the page and shows
 * 'Refunded'; without JavaScript the form comes back to the list with a toast.
 * Someone else's payment is not found (404), as on the Info page.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  if (read.kind === "ERROR") refuseWith(read);
  const viaPage = formText(read.form, "via") === "fetcher";
  const back = safeRedirectPath(formText(read.form, "returnTo"), PAYMENTS_PATH);
  const result = await refundSponsorship(context.db, context.payments, { uid: user.id, sessionId: params.sessionId });
  if (result.kind === "ERROR") {
    if (result.code === "not-found") refuse("not-found");
    if (viaPage) return answerRefusal<RefundAnswer>(result, { refunded: false, message: result.message });
    return redirectWithToast(request, context.sessionSecret, back, { kind: "error", message: result.message });
  }
  if (viaPage) return data<RefundAnswer>({ refunded: true, status: result.status });
  return redirectWithToast(request, context.sessionSecret, back, { kind: "success", message: REQUESTED });
}

/** A reload of the form's address shows the payment. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireVerifiedUser(request, context);
  throw redirect(`${PAYMENTS_PATH}/${encodeURIComponent(params.sessionId)}`);
}
