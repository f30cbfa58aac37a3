import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listSponsorSessions, statusFilterFrom, type StatusFilter } from "#server/domains/payments/records/sponsor-sessions";
import { SponsorPaymentCard } from "#app/components/sponsor-payments/SponsorPaymentCard";
import { useCardsHeldAfterRefund } from "#app/components/sponsor-payments/use-cards-held-after-refund";
import { useRefundFollowUp } from "#app/components/sponsor-payments/use-refund-follow-up";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/payments";
import { PAYMENTS_PATH, SPONSORS_DASHBOARD_PATH } from "#app/components/sponsor-payments/paths";
import { SUPPORTERS_PATH } from "#isomorphic/supporters";
import { cardView } from "./view.server";

const FILTERS: { value: StatusFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "completed", label: "Completed" },
  { value: "pending", label: "Pending" },
  { value: "refunded", label: "Refunded" },
];

const pageFrom = (value: string | null) => {
  const page = Number(value ?? 0);
  return Number.isInteger(page) && page >= 0 && page <= 10_000 ? page : 0;
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const url = new URL(request.url);
  const status = statusFilterFrom(url.searchParams.get("status"));
  const page = pageFrom(url.searchParams.get("page"));
  const { sessions, hasMore } = await listSponsorSessions(context.db, user.id, { status, page });
  return { status, page, hasMore, cards: sessions.map(cardView), returnTo: `${url.pathname}${url.search}`, locale: localeFrom(request.headers.get("Accept-Language")) };
}

/** A person's payments: never kept by a shared cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "My Sponsorships", noindex: true });

const href = (status: StatusFilter, page = 0) => {
  const params = new URLSearchParams();
  if (status !== "all") params.set("status", status);
  if (page > 0) params.set("page", String(page));
  const query = params.toString();
  return query ? `${PAYMENTS_PATH}?${query}` : PAYMENTS_PATH;
};

const tab = "rounded-full border px-4 py-2 text-sm font-semibold no-underline";

export default function MySponsorships({ loaderData }: Route.ComponentProps) {
  const { status, page, hasMore, cards, returnTo, locale } = loaderData;
  const { shown, hold } = useCardsHeldAfterRefund(cards);
  useRefundFollowUp(cards.some((card) => card.refundPending));

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <p className="text-sm">
        <Link to={SPONSORS_DASHBOARD_PATH}>Sponsors Dashboard</Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">My Sponsorships</h1>
      <p className="mt-2 text-muted">
        Every payment supporters made to you, newest first. A completed payment can be refunded in full. The same payments, with each supporter's
        name first and the CSV, are on <Link to={SUPPORTERS_PATH}>Supporters</Link>.
      </p>

      <nav aria-label="Filter by status" className="mt-6">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((filter) => {
            const current = filter.value === status;
            return (
              <li key={filter.value}>
                <Link
                  to={href(filter.value)}
                  aria-current={current ? "page" : undefined}
                  className={`${tab} ${current ? "border-primary bg-primary text-white" : "border-ink/20 bg-white text-ink hover:border-primary"}`}
                >
                  {filter.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {status === "all" ? <p className="mt-3 text-sm text-muted">Checkouts that were opened but never paid are under Pending.</p> : null}

      {shown.length === 0 ? (
        <p className="mt-8 rounded-2xl bg-primary/5 p-6 text-lg font-semibold">
          {status === "all" && page === 0 ? "You haven't gotten any sponsors yet." : `There are no ${status === "all" ? "more" : status} payments to show.`}
        </p>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="Payments">
          {shown.map((card) => (
            <SponsorPaymentCard key={card.id} card={card} locale={locale} returnTo={returnTo} onRefunded={hold} />
          ))}
        </ul>
      )}

      {page > 0 || hasMore ? (
        <nav aria-label="Pages" className="mt-8 flex justify-between gap-4">
          {page > 0 ? <Link to={href(status, page - 1)}>Newer payments</Link> : <span />}
          {hasMore ? <Link to={href(status, page + 1)}>Older payments</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
