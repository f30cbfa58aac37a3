import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { sessionReceipt } from "#server/domains/payments/checkout/sponsor-session";
import { readCheckoutToken } from "#server/domains/payments/checkout/reuse";
import { isSponsorSessionId } from "#server/domains/payments/checkout/start-checkout";
import { CreatorFrame, themedButtonClass, themedButtonStyle } from "#app/components/payments/CreatorFrame";
import { ShareButton } from "#app/components/payments/ShareButton";
import { FormNotice } from "#page-kit/forms";
import type { WhereYouAppear } from "#server/domains/payments/checkout/where-you-appear";
import type { SponsorSessionKind } from "#server/platform/db/schema";
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
 * It wears the creator's look (the id's session's page), and shows the
 * receipt's address in full only to the browser that sent the checkout.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const id = search.get("session");
  const found = isSponsorSessionId(id) ? await sessionReceipt(context.db, id, readCheckoutToken(request.headers.get("Cookie"))) : null;
  const receipt = found && found.status !== "pending" ? found : null;
  const checks = Math.min(Number.parseInt(search.get("check") ?? "0", 10) || 0, CONFIRMING_MAX_CHECKS);
  // Only an id of our own shape goes back into the page (it is written into a <noscript> refresh below).
  const again = `/app/payments/success?session=${isSponsorSessionId(id) ? id : ""}`;
  const nextCheck = !receipt && checks < CONFIRMING_MAX_CHECKS ? `${again}&check=${checks + 1}` : null;
  return { receipt, look: found?.look ?? null, bioOrigin: context.config.BIO_ORIGIN, appName: context.config.APP_NAME, again, nextCheck };
}

/** The creator's look, not the marketing site's (app/root.tsx). */
export const handle = { siteChrome: false };

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
  const { receipt, look, bioOrigin, appName, again, nextCheck } = loaderData;
  useConfirmingPoll(!receipt);
  if (!receipt) {
    return (
      <CreatorFrame look={look} bioOrigin={bioOrigin} appName={appName}>
        {nextCheck ? (
          // Without JavaScript the browser looks again by itself, at most CONFIRMING_MAX_CHECKS times.
          // Inside <noscript> only: with JavaScript the poll above reloads data, never the page.
          <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${CONFIRMING_REFRESH_SECONDS}; url=${nextCheck.replaceAll("&", "&amp;")}">` }} />
        ) : null}
        <h1 className="text-2xl font-bold sm:text-3xl">We're confirming your payment</h1>
        <div className="mt-6">
          <FormNotice kind="info">
            <p>The payment provider is telling us about your payment. Your receipt appears here as soon as it is confirmed, usually within seconds.</p>
          </FormNotice>
        </div>
        <p className="mt-6">
          <a href={again}>Check again</a>
        </p>
      </CreatorFrame>
    );
  }
  const what = `${receipt.kind === "tip" ? "tip" : "sponsorship payment"} of ${receipt.formattedAmount} to ${receipt.payeeName}`;
  const paid = receipt.status === "completed" || receipt.status === "refunded" || receipt.status === "disputed";
  const thanks = receipt.thankYouMessage.trim() || `Thank you so much for supporting me. It means a lot, and it keeps me making what you enjoy.`;
  const pageUrl = receipt.pageEnding ? `${bioOrigin}/${receipt.pageEnding}` : null;
  const heading = !paid ? "Your payment did not go through" : receipt.kind === "tip" ? "Thank you for your tip!" : `Thank you for sponsoring ${receipt.payeeName}!`;
  return (
    <CreatorFrame look={look} bioOrigin={bioOrigin} appName={appName} backLink={!(paid && pageUrl)}>
      <h1 className="text-xl font-bold sm:text-3xl">{heading}</h1>
      {paid ? (
        <figure className="mt-5 rounded-2xl bg-secondary/30 p-4">
          <blockquote className="whitespace-pre-line break-words text-lg">{thanks}</blockquote>
          <figcaption className="mt-2 text-sm font-semibold text-muted">— {receipt.payeeName}</figcaption>
        </figure>
      ) : null}
      {paid && pageUrl ? <WhereYouAppearNote appears={receipt.appears} payeeName={receipt.payeeName} pageUrl={pageUrl} kind={receipt.kind} /> : null}
      <section aria-labelledby="receipt-heading" className="mt-6 rounded-2xl border border-primary/15 p-5">
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
        {paid && receipt.receiptEmail ? <p className="mt-2 break-words">Receipt sent to {receipt.receiptEmail}</p> : null}
        {receipt.status === "refunded" ? <p className="mt-2">This payment has since been refunded.</p> : null}
        {receipt.status === "disputed" ? <p className="mt-2">This payment is disputed with your card issuer.</p> : null}
      </section>
      {paid && pageUrl && look ? (
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <a href={pageUrl} className={themedButtonClass} style={themedButtonStyle(look.theme)}>
            Back to {receipt.payeeName}'s page
          </a>
          <ShareButton url={pageUrl} name={receipt.payeeName} className={shareButtonClass} />
        </div>
      ) : null}
    </CreatorFrame>
  );
}

/** The page's second action: outlined in the card's own ink, under the themed "Back to …" one. */
const shareButtonClass =
  "inline-flex min-h-12 items-center justify-center rounded-full border-2 border-ink/40 px-6 py-3 text-center font-semibold text-ink no-underline hover:underline";

/**
 * Where the fan now shows, said as it is (server/domains/payments/checkout/where-you-appear.ts):
 * on the supporter wall by name or as a private supporter, or only to the
 * creator when their page shows no wall, or not at all.
 */
function WhereYouAppearNote({ appears, payeeName, pageUrl, kind }: { appears: WhereYouAppear; payeeName: string; pageUrl: string; kind: SponsorSessionKind }) {
  const wallUrl = `${pageUrl}#w`;
  return (
    <section aria-labelledby="appear-heading" className="mt-6">
      <h2 id="appear-heading" className="text-lg font-bold">
        Where you appear
      </h2>
      {appears.kind === "wall" ? (
        <p className="mt-1">
          You're on <a href={wallUrl}>{payeeName}'s supporter wall</a> as “{appears.name ?? "Someone"}”, with your message and amount.
        </p>
      ) : appears.kind === "wall-private" ? (
        <p className="mt-1">
          You kept it private: <a href={wallUrl}>{payeeName}'s supporter wall</a> shows “A private supporter”, without your name, message or amount.{" "}
          {payeeName} still sees them.
        </p>
      ) : appears.kind === "owner-only" ? (
        <p className="mt-1">{payeeName} sees your {kind === "tip" ? "tip" : "payment"} and message. Their page doesn't show a supporter wall, so you don't appear on it.</p>
      ) : (
        <p className="mt-1">This payment isn't shown on {payeeName}'s page.</p>
      )}
    </section>
  );
}