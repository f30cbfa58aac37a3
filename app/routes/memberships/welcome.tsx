import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { readJoinCookie, readWelcome } from "#server/domains/memberships/join";
import { CreatorFrame, themedButtonClass, themedButtonStyle } from "#app/components/payments/CreatorFrame";
import { welcomePath } from "#isomorphic/membership-join";
import { FormNotice } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/welcome";

/** Seconds between looks while the provider confirms the first payment, and how many looks before a "Check again" link. */
const REFRESH_SECONDS = 3;
const MAX_CHECKS = 40;

/**
 * Where the provider sends a new member after paying (the checkout's success address), open to
 * guests: thanks them, shows the tier's welcome message and says where their member link went.
 * Everything comes from our row (and the provider, while the row still waits for its event),
 * never from the address; until the payment is confirmed the page only says so.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const id = search.get("membership") ?? "";
  const welcome = await readWelcome(context.db, context.payments, id, readJoinCookie(request.headers.get("Cookie")));
  const checks = Math.min(Number.parseInt(search.get("check") ?? "0", 10) || 0, MAX_CHECKS);
  // Only an id we know goes back into the page (it is written into a <noscript> refresh below).
  const again = welcome ? welcomePath(id) : null;
  const nextCheck = again && welcome?.state === "confirming" && checks < MAX_CHECKS ? `${again}&check=${checks + 1}` : null;
  return { welcome, bioOrigin: context.config.BIO_ORIGIN, appName: context.config.APP_NAME, again, nextCheck };
}

/** The creator's look, not the marketing site's (app/root.tsx). */
export const handle = { siteChrome: false };

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data?.welcome?.state === "joined" ? "Welcome" : "Confirming your membership", noindex: true });

/** With JavaScript: the loader runs again every few seconds until the payment is confirmed. */
function useConfirmingPoll(active: boolean) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    let checks = 0;
    const timer = setInterval(() => {
      checks += 1;
      if (checks > MAX_CHECKS) clearInterval(timer);
      else void revalidate();
    }, REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [active, revalidate]);
}

export default function Welcome({ loaderData }: Route.ComponentProps) {
  const { welcome, bioOrigin, appName, again, nextCheck } = loaderData;
  useConfirmingPoll(welcome?.state === "confirming");
  if (!welcome || welcome.state !== "joined") {
    return (
      <CreatorFrame look={welcome?.look ?? null} bioOrigin={bioOrigin} appName={appName}>
        {nextCheck ? (
          // Without JavaScript the browser looks again by itself, at most MAX_CHECKS times.
          <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${REFRESH_SECONDS}; url=${nextCheck.replaceAll("&", "&amp;")}">` }} />
        ) : null}
        <h1 className="text-2xl font-bold sm:text-3xl">{welcome?.state === "lapsed" ? "This membership didn't start" : "We're confirming your membership"}</h1>
        <div className="mt-6">
          <FormNotice kind="info">
            <p>
              {welcome?.state === "lapsed"
                ? "The checkout closed before it was paid, or the membership has ended. Nothing more will be charged."
                : "The payment provider is telling us about your payment. Your welcome appears here as soon as it is confirmed, usually within seconds."}
            </p>
          </FormNotice>
        </div>
        {again && welcome?.state === "confirming" ? (
          <p className="mt-6">
            <a href={again}>Check again</a>
          </p>
        ) : null}
      </CreatorFrame>
    );
  }
  const pageUrl = welcome.ending ? `${bioOrigin}/${welcome.ending}` : null;
  return (
    <CreatorFrame look={welcome.look} bioOrigin={bioOrigin} appName={appName} backLink={!pageUrl}>
      <h1 className="text-xl font-bold sm:text-3xl">Welcome to {welcome.tierName}!</h1>
      <p className="mt-2">
        Thank you for becoming a member of {welcome.payeeName}, at {welcome.price}.
      </p>
      {welcome.welcomeMessage ? (
        <figure className="mt-5 rounded-2xl bg-secondary/30 p-4">
          <blockquote className="whitespace-pre-line break-words text-lg">{welcome.welcomeMessage}</blockquote>
          <figcaption className="mt-2 text-sm font-semibold text-muted">— {welcome.payeeName}</figcaption>
        </figure>
      ) : null}
      <section aria-labelledby="link-heading" className="mt-6 rounded-2xl border border-primary/15 p-5">
        <h2 id="link-heading" className="text-lg font-bold">
          Your member link
        </h2>
        <p className="mt-2 break-words">
          {welcome.memberEmail
            ? `We mailed your member link to ${welcome.memberEmail}. It opens your member page, where you can change your tier, update your card or cancel, with no account needed.`
            : "We mailed your member link to the address you gave. It opens your member page, where you can change your tier, update your card or cancel."}
        </p>
      </section>
      {pageUrl && welcome.look ? (
        <div className="mt-6">
          <a href={pageUrl} className={themedButtonClass} style={themedButtonStyle(welcome.look.theme)}>
            Back to {welcome.payeeName}'s page
          </a>
        </div>
      ) : null}
    </CreatorFrame>
  );
}
