import { data, Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { refundPayment } from "#server/features/operations/payments/refund";
import { readPaymentInfo } from "#server/features/operations/payments/payment-info";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { readForm } from "#page-kit/form.server";
import { formText } from "#app/lib/identity.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { PAYMENTS_PATH } from "#app/components/sponsor-payments/paths";
import type { Route } from "./+types/refund";
import { answerRefusal, refuseWith, seeOther } from "#page-kit/respond.server";
import { REFUND_CONSEQUENCE, refundPath, refundQuestion, type RefundAnswer } from "#app/components/sponsor-payments/RefundButton";
import { pageMeta } from "#page-kit/meta";

const REQUESTED = "Refund requested. The payment shows as refunded once the payment provider confirms it.";

/**
 * POST /app/account/sponsors/payments/:sessionId/refund (SPEC §7.1
 * refundSponsorship): the owner only, a completed payment only, one refund at
 * the provider however many clicks, and only once the owner said yes to the
 * question (`confirmed=yes`): a post without it is sent to the question. The
 * card asks from the page and shows 'Refunded'; without JavaScript the form
 * comes back to the list with a toast. Someone else's payment is not found
 * (404), as on the Info page. The refundPayment operation (server/features/operations/payments/refund.ts).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  if (read.kind === "ERROR") refuseWith(read);
  const viaPage = formText(read.form, "via") === "fetcher";
  const back = safeRedirectPath(formText(read.form, "returnTo"), PAYMENTS_PATH);
  if (formText(read.form, "confirmed") !== "yes") return seeOther(`${refundPath(params.sessionId)}?${new URLSearchParams({ returnTo: back })}`);
  const result = await runForPage(refundPayment, { caller: pageCaller(user), input: { sponsorSessionId: params.sessionId }, context });
  if (result.kind === "ERROR") {
    if (viaPage) return answerRefusal<RefundAnswer>(result, { refunded: false, message: result.message });
    return redirectWithToast(request, context.sessionSecret, back, { kind: "error", message: result.message });
  }
  if (viaPage) return data<RefundAnswer>({ refunded: true, status: result.status });
  return redirectWithToast(request, context.sessionSecret, back, { kind: "success", message: REQUESTED });
}

/**
 * The question before a refund, as a page (the Refund button without
 * JavaScript comes here). A payment that can't be refunded has nothing to ask:
 * its Info page instead.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const found = await runForPage(readPaymentInfo, { caller: pageCaller(user), input: { sponsorSessionId: params.sessionId }, context });
  const { session } = found.info;
  const info = `${PAYMENTS_PATH}/${encodeURIComponent(session.id)}`;
  if (session.status !== "completed" || session.refundPending) throw seeOther(info);
  return {
    sessionId: session.id,
    question: refundQuestion(formatMoney(session.amount, session.currency), session.supporterName ?? session.sponsorEmail),
    returnTo: safeRedirectPath(new URL(request.url).searchParams.get("returnTo"), PAYMENTS_PATH),
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Refund", noindex: true });

export default function ConfirmRefund({ loaderData }: Route.ComponentProps) {
  const { sessionId, question, returnTo } = loaderData;
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Refund</h1>
      <section aria-labelledby="refund-question" className="mt-6 rounded-2xl border border-red-700/40 bg-red-50 p-5">
        <h2 id="refund-question" className="text-xl font-bold">
          {question}
        </h2>
        <p className="mt-1 text-muted">{REFUND_CONSEQUENCE}</p>
        <form method="post" action={refundPath(sessionId)} className="mt-4 flex flex-wrap gap-2">
          <input type="hidden" name="returnTo" value={returnTo} />
          <input type="hidden" name="confirmed" value="yes" />
          <button
            type="submit"
            className="inline-flex items-center justify-center rounded-full border border-red-700 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
          >
            Yes, refund
          </button>
          <Link to={returnTo} className="inline-flex items-center justify-center rounded-full border border-primary bg-white px-4 py-2 text-sm font-semibold text-primary no-underline hover:bg-primary/5">
            Cancel
          </Link>
        </form>
      </section>
    </div>
  );
}
