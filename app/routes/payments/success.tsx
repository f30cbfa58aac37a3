import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { sessionReceipt } from "#server/payments/checkout";
import { isSponsorSessionId } from "#server/payments/sponsor-checkout";
import { FormNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/success";

/** Seconds between looks while the provider's event is on its way. */
export const CONFIRMING_REFRESH_SECONDS = 3;
/** Looks before the page stops by itself (about two minutes) and leaves a "Check again" link. */
export const CONFIRMING_MAX_CHECKS = 40;

/**
 * SPEC §2.5 "a success page shows a payment receipt message", open to guests
 * (SPEC §2.1). Everything shown comes from our session row as the webhook
 * left it, never from the address: until the provider's event has completed
 * the row (or for an id we don't know), the page only says it is confirming.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const id = search.get("session");
  const found = isSponsorSessionId(id) ? await sessionReceipt(context.db, id) : null;
  const receipt = found && found.status !== "pending" ? found : null;
  const checks = Math.min(Number.parseInt(search.get("check") ?? "0", 10) || 0, CONFIRMING_MAX_CHECKS);
  // Only an id of our own shape goes back into the page (it is written into a <noscript> refresh below).
  const again = `/app/payments/success?session=${isSponsorSessionId(id) ? id : ""}`;
  const nextCheck = !receipt && checks < CONFIRMING_MAX_CHECKS ? `${again}&check=${checks + 1}` : null;
  return { receipt, bioOrigin: context.config.BIO_ORIGIN, again, nextCheck };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data?.receipt ? "Payment receipt" : "Confirming your payment", noindex: true });

/** With JavaScript: the loader runs again every few seconds until the receipt is there (no page reload). */
function useConfirmingPoll(active: boolean) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    let checks = 0;
    const timer = setInterval(() => {
      checks += 1;
      if (checks > CONFIRMING_MAX_CHECKS) clearInterval(timer);
      else void revalidate();
    }, CONFIRMING_REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [active, revalidate]);
}

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const { receipt, bioOrigin, again, nextCheck } = loaderData;
  useConfirmingPoll(!receipt);
  if (!receipt) {
    return (
      <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
        {nextCheck ? (
          // Without JavaScript the browser looks again by itself, at most CONFIRMING_MAX_CHECKS times.
          // Inside <noscript> only: with JavaScript the poll above reloads data, never the page.
          <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${CONFIRMING_REFRESH_SECONDS}; url=${nextCheck.replaceAll("&", "&amp;")}">` }} />
        ) : null}
        <h1 className="text-3xl font-bold">We're confirming your payment</h1>
        <div className="mt-6">
          <FormNotice kind="info">
            <p>The payment provider is telling us about your payment. Your receipt appears here as soon as it is confirmed, usually within seconds.</p>
          </FormNotice>
        </div>
        <p className="mt-6">
          <a href={again}>Check again</a>
        </p>
      </div>
    );
  }
  const what = `${receipt.kind === "tip" ? "tip" : "sponsorship payment"} of ${receipt.formattedAmount} to ${receipt.payeeName}`;
  const paid = receipt.status === "completed" || receipt.status === "refunded" || receipt.status === "disputed";
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">{paid ? "Thank you for your payment" : "Your payment did not go through"}</h1>
      <section aria-labelledby="receipt-heading" className="mt-6 rounded-2xl border border-primary/15 bg-secondary/20 p-5">
        <h2 id="receipt-heading" className="text-lg font-bold">
          Payment receipt
        </h2>
        <p className="mt-2">
          {paid
            ? `Your ${what} was successful.`
            : receipt.status === "expired"
              ? `The checkout for your ${what} expired before it was paid. Nothing was charged.`
              : `Your ${what} did not go through. Nothing was charged.`}
        </p>
        {receipt.status === "refunded" ? <p className="mt-2">This payment has since been refunded.</p> : null}
        {receipt.status === "disputed" ? <p className="mt-2">This payment is disputed with your card issuer.</p> : null}
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-semibold">Amount</dt>
          <dd>{receipt.formattedAmount}</dd>
          <dt className="font-semibold">To</dt>
          <dd>{receipt.payeeName}</dd>
          <dt className="font-semibold">Reference</dt>
          <dd className="break-all font-mono">{receipt.reference}</dd>
        </dl>
      </section>
      <p className="mt-6 flex flex-wrap gap-4">
        {receipt.pageEnding ? <a href={`${bioOrigin}/${receipt.pageEnding}`}>Back to {receipt.payeeName}'s page</a> : null}
        <Link to="/">Home</Link>
      </p>
    </div>
  );
}
