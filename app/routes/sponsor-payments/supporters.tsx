import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { listSponsorSessions } from "#server/domains/payments/records/sponsor-sessions";
import { SupporterRow } from "#app/components/sponsor-payments/SupporterRow";
import { useRefundFollowUp } from "#app/components/sponsor-payments/use-refund-follow-up";
import { MY_PAYMENTS_PATH } from "#app/components/payments/PayoutSetup";
import { PAYMENTS_CSV_PATH, SUPPORTERS_PATH } from "#isomorphic/supporters";
import { localeFrom } from "#isomorphic/format";
import { secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/supporters";
import { cardView } from "./view.server";

const pageFrom = (value: string | null) => {
  const page = Number(value ?? 0);
  return Number.isInteger(page) && page >= 0 && page <= 10_000 ? page : 0;
};

/**
 * Supporters: the one place for a creator's money, person by person (every payment where money
 * arrived, whatever happened to it since, newest first), with Refund, Info and the CSV. The header,
 * the home, the notifications and SPEC's own money screens all lead here.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const url = new URL(request.url);
  const page = pageFrom(url.searchParams.get("page"));
  const { sessions, hasMore } = await listSponsorSessions(context.db, user.id, { status: "all", page });
  return { page, hasMore, cards: sessions.map(cardView), returnTo: `${url.pathname}${url.search}`, locale: localeFrom(request.headers.get("Accept-Language")) };
}

/** A person's payments: never kept by a shared cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Supporters", noindex: true });

const pageHref = (page: number) => (page > 0 ? `${SUPPORTERS_PATH}?page=${page}` : SUPPORTERS_PATH);

export default function Supporters({ loaderData }: Route.ComponentProps) {
  const { page, hasMore, cards, returnTo, locale } = loaderData;
  useRefundFollowUp(cards.some((card) => card.refundPending));
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Supporters</h1>
      <p className="mt-2 text-muted">Everyone who paid you through your pages, newest first: the name they gave, what they paid and their message. A completed payment can be refunded in full.</p>
      <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2">
        {/* A file, not a page: a plain link the browser downloads. */}
        <a href={PAYMENTS_CSV_PATH} download className={`${secondaryButton} px-4 py-2 no-underline`}>
          Download CSV
        </a>
        <Link to={MY_PAYMENTS_PATH} className="font-semibold">
          Earnings and payouts
        </Link>
      </div>

      {cards.length === 0 ? (
        <div className="mt-8 rounded-2xl bg-primary/5 p-6">
          <p className="text-lg font-semibold">{page === 0 ? "No supporters yet." : "There are no more supporters to show."}</p>
          {page === 0 ? (
            <p className="mt-1 text-muted">
              Share your <Link to="/app/account/bizbio">bio page</Link>: everyone who tips you or pays for a sponsorship shows up here, with their name and message.
            </p>
          ) : null}
        </div>
      ) : (
        <ul className="mt-8 space-y-4" aria-label="Supporters">
          {cards.map((card) => (
            <SupporterRow key={card.id} card={card} locale={locale} returnTo={returnTo} />
          ))}
        </ul>
      )}

      {page > 0 || hasMore ? (
        <nav aria-label="Pages" className="mt-8 flex justify-between gap-4">
          {page > 0 ? <Link to={pageHref(page - 1)}>Newer supporters</Link> : <span />}
          {hasMore ? <Link to={pageHref(page + 1)}>Older supporters</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
