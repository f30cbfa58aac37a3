import { redirect } from "react-router";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { sessionReceipt } from "#server/domains/payments/checkout/sponsor-session";
import { isSponsorSessionId } from "#server/domains/payments/checkout/start-checkout";
import { FormNotice } from "#page-kit/forms";
import { CreatorFrame } from "#app/components/payments/CreatorFrame";
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
  return { look: receipt?.look ?? null, bioOrigin: context.config.BIO_ORIGIN, appName: context.config.APP_NAME };
}

/** The creator's look, not the marketing site's (app/root.tsx). */
export const handle = { siteChrome: false };

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payment cancelled", noindex: true });

export default function PaymentCancelled({ loaderData }: Route.ComponentProps) {
  const { look, bioOrigin, appName } = loaderData;
  return (
    <CreatorFrame look={look} bioOrigin={bioOrigin} appName={appName}>
      <h1 className="text-2xl font-bold sm:text-3xl">Payment cancelled</h1>
      <div className="mt-6">
        <FormNotice kind="info">
          <p>You cancelled the checkout. Nothing was charged.</p>
        </FormNotice>
      </div>
      {look ? <p className="mt-4">Changed your mind? You can go back to {look.name}'s page and support them any time.</p> : null}
    </CreatorFrame>
  );
}
