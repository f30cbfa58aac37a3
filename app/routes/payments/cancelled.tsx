import { Link, redirect } from "react-router";
import { safeRedirectPath } from "#server/http/redirects";
import { sessionReceipt } from "#server/payments/checkout";
import { isSponsorSessionId } from "#server/payments/sponsor-checkout";
import { FormNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/cancelled";

/**
 * Where the provider's checkout sends someone who cancels (SPEC §2.1, open
 * to guests): nothing was charged, and the way back to the bio page. A
 * session that was in fact paid (another tab) shows its receipt instead, so
 * this page never says "nothing was charged" about a payment that went through.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("session");
  const receipt = isSponsorSessionId(id) ? await sessionReceipt(context.db, id) : null;
  if (receipt && (receipt.status === "completed" || receipt.status === "refunded" || receipt.status === "disputed")) {
    throw redirect(safeRedirectPath(`/app/payments/success?session=${receipt.reference}`));
  }
  const page = receipt?.pageEnding ? { url: `${context.config.BIO_ORIGIN}/${receipt.pageEnding}`, name: receipt.payeeName } : null;
  return { page };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payment cancelled", noindex: true });

export default function PaymentCancelled({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Payment cancelled</h1>
      <div className="mt-6">
        <FormNotice kind="info">
          <p>You cancelled the checkout. Nothing was charged.</p>
        </FormNotice>
      </div>
      <p className="mt-6 flex flex-wrap gap-4">
        {page ? <a href={page.url}>Back to {page.name}'s page</a> : null}
        <Link to="/">Home</Link>
      </p>
    </div>
  );
}
