import { Link } from "react-router";
import { sessionReceipt } from "#server/payments/checkout";
import { isSponsorSessionId } from "#server/payments/sponsor-checkout";
import { FormAlert } from "#app/components/forms";
import { pageMeta } from "#app/lib/meta";
import type { Route } from "./+types/success";

/** Seconds between looks while the provider's event is on its way (a meta refresh: no script needed). */
export const CONFIRMING_REFRESH_SECONDS = 3;

/**
 * SPEC §2.5 "a success page shows a payment receipt message", open to guests
 * (SPEC §2.1). Everything shown comes from our session row as the webhook
 * left it, never from the address: until the provider's event has completed
 * the row (or for an id we don't know), the page only says it is confirming.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("session");
  const receipt = isSponsorSessionId(id) ? await sessionReceipt(context.db, id) : null;
  return { receipt: receipt && receipt.status !== "pending" ? receipt : null, bioOrigin: context.config.BIO_ORIGIN };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: args.data?.receipt ? "Payment receipt" : "Confirming your payment", noindex: true }),
  ...(args.data?.receipt ? [] : [{ httpEquiv: "refresh", content: String(CONFIRMING_REFRESH_SECONDS) } as const]),
];

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const { receipt, bioOrigin } = loaderData;
  if (!receipt) {
    return (
      <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
        <h1 className="text-3xl font-bold">We're confirming your payment</h1>
        <div className="mt-6">
          <FormAlert kind="info">
            <p>The payment provider is telling us about your payment. This page refreshes by itself and shows your receipt as soon as it is confirmed.</p>
          </FormAlert>
        </div>
      </div>
    );
  }
  const to = receipt.kind === "tip" ? `tip to ${receipt.payeeName}` : `sponsorship of ${receipt.payeeName}`;
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
            ? `Your ${to} of ${receipt.formattedAmount} was successful.`
            : receipt.status === "expired"
              ? `The checkout for your ${to} of ${receipt.formattedAmount} expired before it was paid. Nothing was charged.`
              : `Your ${to} of ${receipt.formattedAmount} was declined. Nothing was charged.`}
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
