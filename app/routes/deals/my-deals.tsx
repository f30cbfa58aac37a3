import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { decodeTimeKeyset, encodeTimeKeyset } from "#server/platform/db/keyset";
import { listMyDeals } from "#server/features/operations/deals/read";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { DealStateBadge } from "#app/components/deals/DealStateBadge";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { formatMoney, localeFrom } from "#isomorphic/format";
import { primaryButton, secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/my-deals";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const url = new URL(request.url);
  const waitingOnly = url.searchParams.get("show") === "waiting";
  const { items, next } = await runForPage(listMyDeals, { caller: pageCaller(user), input: { waitingOnly, after: decodeTimeKeyset(url.searchParams.get("after")) }, context });
  // `after` is the last row's place: a cursor a person can bookmark, ignored when it is not one.
  return { items, next: next ? encodeTimeKeyset(next) : null, waitingOnly, first: !url.searchParams.has("after"), locale: localeFrom(request.headers.get("Accept-Language")) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "My deals" });

export default function MyDeals({ loaderData }: Route.ComponentProps) {
  const { items, next, waitingOnly, first, locale } = loaderData;
  const show = waitingOnly ? "show=waiting&" : "";
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">My deals</h1>
      <p className="mt-2 text-muted">Every application, offer and agreed deal you are part of, most recent activity first.</p>
      <nav aria-label="Which deals" className="mt-6 flex flex-wrap gap-2">
        <Link to="/app/deals" className={`${waitingOnly ? secondaryButton : primaryButton} no-underline`} aria-current={waitingOnly ? undefined : "page"}>
          All
        </Link>
        <Link to="/app/deals?show=waiting" className={`${waitingOnly ? primaryButton : secondaryButton} no-underline`} aria-current={waitingOnly ? "page" : undefined}>
          Waiting on you
        </Link>
      </nav>
      {items.length === 0 && first ? (
        <div className="mt-8 rounded-2xl border border-dashed border-ink/20 p-8 text-center">
          <p className="font-semibold">{waitingOnly ? "Nothing is waiting on you." : "No deals yet."}</p>
          <p className="mt-2 text-muted">
            {waitingOnly ? "When someone applies, makes an offer or answers your terms, it shows here." : "Apply to a sponsor's brief or make an offer on a creator's request to start one."}
          </p>
          <Link to="/app/opportunities" className={`${primaryButton} mt-4 inline-block no-underline`}>
            Browse opportunities
          </Link>
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-ink/10 rounded-2xl border border-ink/10">
          {items.map((deal) => (
            <li key={deal.id}>
              <Link to={`/app/deals/${deal.id}`} className="flex flex-wrap items-center justify-between gap-3 p-4 text-ink no-underline hover:bg-secondary/30">
                <span className="min-w-0">
                  <span className="block font-semibold">{deal.title}</span>
                  <span className="block text-sm text-muted">
                    {deal.side === "creator" ? "With sponsor" : "With creator"} {deal.otherName} · {formatMoney(deal.price, deal.currency)} · <LocalDateTime iso={deal.updatedAt} serverLocale={locale} />
                  </span>
                </span>
                <span className="flex flex-wrap items-center gap-2">
                  {deal.unread > 0 ? (
                    <span className="rounded-full bg-accent px-3 py-1 text-sm font-semibold text-on-accent">{deal.unread === 1 ? "1 new message" : `${deal.unread} new messages`}</span>
                  ) : null}
                  <DealStateBadge state={deal.state} waitingOnYou={deal.waitingOnYou} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {next ? (
        <Link to={`/app/deals?${show}after=${next}`} className={`${secondaryButton} mt-6 inline-block no-underline`}>
          Older deals
        </Link>
      ) : null}
    </div>
  );
}
