import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { ownerTotals } from "#server/domains/payments/ledger/ledger";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { recentActivity, recentSponsors } from "#server/domains/payments/records/sponsor-sessions";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { RefundButton } from "#app/components/sponsor-payments/RefundButton";
import { PrivateMark } from "#app/components/sponsor-payments/PrivateMark";
import { NO_NAME_GIVEN, SUPPORTERS_PATH, supporterHref } from "#isomorphic/supporters";
import { StatusBadge } from "#app/components/sponsor-payments/StatusBadge";
import { useRefundFollowUp } from "#app/components/sponsor-payments/use-refund-follow-up";
import { primaryButton } from "#page-kit/forms";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/dashboard";
import { ACTIVITY_LABELS, PAYMENTS_PATH, SPONSORS_DASHBOARD_PATH } from "#app/components/sponsor-payments/paths";
import { cardView, recentView } from "./view.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const [sponsors, activity, totals] = await Promise.all([recentSponsors(context.db, user.id), recentActivity(context.db, user.id), ownerTotals(context.db, user.id)]);
  return {
    sponsors: sponsors.map(cardView),
    activity: activity.map((a) => recentView(a, PAYMENTS_PATH)),
    totals: totals.map((t) => ({
      currency: t.currency.toUpperCase(),
      gross: formatMoney(t.gross, t.currency),
      platformFee: formatMoney(t.platformFee, t.currency),
      net: formatMoney(t.net, t.currency),
    })),
    appName: context.config.APP_NAME,
    locale: localeFrom(request.headers.get("Accept-Language")),
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Sponsors Dashboard", noindex: true });

export default function SponsorsDashboard({ loaderData }: Route.ComponentProps) {
  const { sponsors, activity, totals, appName, locale } = loaderData;
  useRefundFollowUp(sponsors.some((s) => s.refundPending));
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Sponsors Dashboard</h1>
      <p className="mt-2 text-muted">
        Who supported you, your earnings, and every movement of that money. Each supporter's name, message and Refund, and the CSV, are on{" "}
        <Link to={SUPPORTERS_PATH}>Supporters</Link>.
      </p>

      {totals.length > 0 ? (
        <section aria-labelledby="totals-heading" className="mt-8">
          <h2 id="totals-heading" className="sr-only">
            Totals
          </h2>
          {totals.map((t) => (
            <dl key={t.currency} className="grid grid-cols-1 gap-3 sm:grid-cols-3">
              <div className="rounded-2xl bg-primary/5 p-4">
                <dt className="text-sm text-muted">Supporters paid (gross){totals.length > 1 ? ` (${t.currency})` : ""}</dt>
                <dd className="text-2xl font-bold">{t.gross}</dd>
              </div>
              <div className="rounded-2xl bg-primary/5 p-4">
                <dt className="text-sm text-muted">{appName} platform fee</dt>
                <dd className="text-2xl font-bold">{t.platformFee}</dd>
              </div>
              <div className="rounded-2xl bg-primary/5 p-4">
                <dt className="text-sm text-muted">You receive (net)</dt>
                <dd className="text-2xl font-bold">{t.net}</dd>
              </div>
            </dl>
          ))}
          <p className="mt-2 text-sm text-muted">After refunds and disputes. Card processing fees are paid by {appName}, not taken from your payments.</p>
        </section>
      ) : null}

      <section aria-labelledby="sponsors-heading" className="mt-10">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="sponsors-heading" className="text-2xl font-bold">
            My Sponsors
          </h2>
          <Link to={PAYMENTS_PATH} className={`${primaryButton} no-underline`}>
            View All Sponsorships
          </Link>
        </div>
        {sponsors.length === 0 ? (
          <div className="mt-4 rounded-2xl bg-primary/5 p-6">
            <p className="text-lg font-semibold">You haven't gotten any sponsors yet.</p>
            <p className="mt-1 text-muted">
              Share your <Link to="/app/account/bizbio">bio page</Link>: anyone can tip you or sponsor your opportunities there by card.
            </p>
          </div>
        ) : (
          <ul className="mt-4 divide-y divide-ink/10 rounded-2xl border border-ink/15" aria-label="Recent sponsors">
            {sponsors.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 p-4">
                <div className="min-w-0">
                  <p id={`sponsor-${s.id}`} className="break-words font-semibold">
                    <Link to={supporterHref(s.id)} className={s.supporterName ? "text-ink" : "text-muted"}>
                      {s.supporterName ?? NO_NAME_GIVEN}
                    </Link>
                    {s.private ? <PrivateMark /> : null}
                  </p>
                  <p className="break-all text-sm">{s.sponsorEmail ?? "Not provided"}</p>
                  <p className="text-sm text-muted">
                    <LocalDateTime iso={s.created} serverLocale={locale} />
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3" aria-live="polite">
                  <span className="font-semibold">{s.amount}</span>
                  <StatusBadge status={s.status} refundPending={s.refundPending} />
                  <RefundButton sessionId={s.id} status={s.status} refundPending={s.refundPending} returnTo={SPONSORS_DASHBOARD_PATH} describedBy={`sponsor-${s.id}`} amount={s.amount} sponsor={s.supporterName ?? s.sponsorEmail} />
                  <Link to={`${PAYMENTS_PATH}/${s.id}`}>
                    Info<span className="sr-only"> about the payment from {s.supporterName ?? s.sponsorEmail ?? "a supporter"}</span>
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="activity-heading" className="mt-10">
        <h2 id="activity-heading" className="text-2xl font-bold">
          Recent Activity
        </h2>
        {activity.length === 0 ? (
          <p className="mt-4 text-muted">No money has moved yet.</p>
        ) : (
          <ul className="mt-4 divide-y divide-ink/10 rounded-2xl border border-ink/15" aria-label="Recent activity">
            {activity.map((a, index) => (
              <li key={`${a.href}-${a.kind}-${index}`} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 p-4">
                <div className="min-w-0">
                  <p className="break-words font-semibold">{a.label ?? ACTIVITY_LABELS[a.kind]}</p>
                  <p className="text-sm text-muted">
                    <LocalDateTime iso={a.created} serverLocale={locale} />
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className={`font-semibold ${a.gross.startsWith("-") ? "text-red-800" : ""}`}>{a.gross}</span>
                  <Link to={a.href}>
                    {a.label ? (
                      <>
                        Deal<span className="sr-only"> page of {a.label}</span>
                      </>
                    ) : (
                      <>
                        Info<span className="sr-only"> about this {ACTIVITY_LABELS[a.kind].toLowerCase()}</span>
                      </>
                    )}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
