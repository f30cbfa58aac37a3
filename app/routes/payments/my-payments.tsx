import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { paymentsOverview } from "#server/domains/payments/records/payments-overview";
import { dealEarningsKeysetFrom, dealEarningsKeysetText } from "#server/domains/payments/records/deal-earnings";
import { primaryButton, secondaryButton } from "#page-kit/forms";
import { PAYMENTS_CSV_PATH, PAYMENT_KIND_LABELS, SUPPORTERS_PATH } from "#isomorphic/supporters";
import { MY_PAYMENTS_PATH, PayoutSetup } from "#app/components/payments/PayoutSetup";
import { dateTimeFormat, localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/my-payments";
import { connectAction, payoutSetupData } from "./payments.server";

const STATUS_LABELS = { pending: "Pending", completed: "Completed", refunded: "Refunded", failed: "Failed", expired: "Expired", disputed: "Disputed" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const url = new URL(request.url);
  // A cursor that does not parse shows the first page, as a page number out of range does elsewhere.
  const dealsAfter = dealEarningsKeysetFrom(url.searchParams.get("dealsAfter"));
  const [overview, setup] = await Promise.all([paymentsOverview(context.db, user.id, { dealsAfter }), payoutSetupData(context, user)]);
  const dates = dateTimeFormat(localeFrom(request.headers.get("Accept-Language")), "mediumDateTimeUtc");
  return {
    setup,
    appName: context.config.APP_NAME,
    received: overview.received.map((t) => ({
      currency: t.currency.toUpperCase(),
      gross: formatMoney(t.gross, t.currency),
      platformFee: formatMoney(t.platformFee, t.currency),
      net: formatMoney(t.net, t.currency),
      providerFee: formatMoney(t.providerFee, t.currency),
    })),
    deals: {
      firstPage: dealsAfter === null,
      next: overview.deals.next ? `${MY_PAYMENTS_PATH}?${new URLSearchParams({ dealsAfter: dealEarningsKeysetText(overview.deals.next) })}#deal-earnings` : null,
      earnings: overview.deals.earnings.map((d) => ({
        id: d.entryId,
        dealId: d.dealId,
        date: `${dates.format(d.released)} UTC`,
        title: d.title,
        sponsor: d.sponsorName,
        gross: formatMoney(d.gross, d.currency),
        fee: formatMoney(d.fee, d.currency),
        net: formatMoney(d.net, d.currency),
      })),
    },
    made: overview.made.map((p) => ({
      id: p.id,
      date: `${dates.format(p.created)} UTC`,
      payee: p.payee,
      kind: PAYMENT_KIND_LABELS[p.kind],
      amount: formatMoney(p.amount, p.currency),
      status: STATUS_LABELS[p.status],
    })),
  };
}

/** The setup form shown here while there is no complete payout account. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireVerifiedUser(request, context);
  return connectAction(request, context, user);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "My Payments" });

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-primary/15 p-5 shadow-sm sm:p-6">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export default function MyPayments({ loaderData, actionData }: Route.ComponentProps) {
  const { setup, received, deals, made, appName } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
      <Link to="/app/account" className="text-sm font-semibold">
        ← My Account
      </Link>
      <h1 className="mt-4 text-3xl font-bold">My Payments</h1>

      <div className="mt-8 space-y-6">
        <Section id="payout-account" title="Payout account">
          {setup.state === "complete" ? (
            <div className="space-y-4">
              <p>
                <strong>Payouts are on.</strong> Your {setup.accountType === "company" ? "company" : "individual"} account at {setup.providerName} takes
                tips and sponsorships from your bio pages, and {setup.providerName} pays them out to your bank.
              </p>
              {/* A plain post in a new tab: the link is made on demand and lasts minutes. */}
              <form method="post" action={`${MY_PAYMENTS_PATH}/dashboard`} target="_blank" rel="noopener">
                <button type="submit" className={primaryButton}>
                  Open your {setup.providerName} payouts dashboard<span className="sr-only"> (opens in a new tab)</span>
                </button>
              </form>
              <p className="text-sm text-muted">Balance, payout schedule and bank details live there.</p>
            </div>
          ) : (
            <div className="space-y-4">
              {setup.state === "none" ? <p>You have no payout account yet. Connect one to take tips and sponsorships from your bio pages.</p> : null}
              <PayoutSetup setup={setup} action={MY_PAYMENTS_PATH} feedback={actionData} />
            </div>
          )}
        </Section>

        <Section id="earnings" title="Earnings">
          {received.length === 0 ? (
            <p>You haven't received any payments yet.</p>
          ) : (
            <div className="space-y-6">
              {received.map((t) => (
                <div key={t.currency} role="group" aria-label={`Earnings in ${t.currency}`}>
                  {received.length > 1 ? <h3 className="mb-2 font-semibold">In {t.currency}</h3> : null}
                  <dl className="grid gap-4 sm:grid-cols-3">
                    <div>
                      <dt className="text-sm text-muted">Supporters paid (gross)</dt>
                      <dd className="text-2xl font-bold">{t.gross}</dd>
                    </div>
                    <div>
                      <dt className="text-sm text-muted">{appName} platform fee</dt>
                      <dd className="text-2xl font-bold">{t.platformFee}</dd>
                    </div>
                    <div>
                      <dt className="text-sm text-muted">You receive (net)</dt>
                      <dd className="text-2xl font-bold text-primary">{t.net}</dd>
                    </div>
                    <div className="sm:col-span-3">
                      <dt className="text-sm text-muted">Card processing fees</dt>
                      <dd>
                        <span className="font-semibold">{t.providerFee}</span>, paid by {appName}: not taken from what you receive.
                      </dd>
                    </div>
                  </dl>
                </div>
              ))}
              <p className="text-sm text-muted">
                Tips, sponsorships and deals whose work was approved; refunds and disputes are already subtracted. Each payment, with the
                supporter's name and message, is on <Link to={SUPPORTERS_PATH}>Supporters</Link>; each deal is below.
              </p>
              <p>
                {/* A file, not a page: a plain link the browser downloads. */}
                <a href={PAYMENTS_CSV_PATH} download className={`${secondaryButton} no-underline`}>
                  Download CSV
                </a>
                <span className="ml-3 text-sm text-muted">Every payment, refund, dispute and deal paid out, with fees and provider ids.</span>
              </p>
            </div>
          )}
        </Section>

        <Section id="deal-earnings" title="Deal earnings">
          {deals.earnings.length === 0 ? (
            deals.firstPage ? (
              <p>
                No deal has paid you yet. When a sponsor approves your work on a booked deal, your share shows here. See <Link to="/app/deals">My deals</Link>.
              </p>
            ) : (
              <p>
                There are no older deal earnings. <Link to={`${MY_PAYMENTS_PATH}#deal-earnings`}>Back to the newest</Link>
              </p>
            )
          ) : (
            <>
              <ul className="divide-y divide-ink/10" aria-label="Deal earnings">
                {deals.earnings.map((d) => (
                  <li key={d.id} className="py-3">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                      <div className="min-w-0">
                        <p className="break-words font-semibold">
                          <Link to={`/app/deals/${d.dealId}`}>Deal: {d.title}</Link>
                        </p>
                        <p className="text-sm text-muted">
                          from {d.sponsor} · released {d.date}
                        </p>
                      </div>
                      <p className="text-right font-semibold tabular-nums text-primary">{d.net}</p>
                    </div>
                    <dl className="mt-1 flex flex-wrap gap-x-4 text-sm text-muted">
                      <div className="flex gap-1">
                        <dt>Sponsor paid</dt>
                        <dd className="tabular-nums">{d.gross}</dd>
                      </div>
                      <div className="flex gap-1">
                        <dt>{appName} fee</dt>
                        <dd className="tabular-nums">{d.fee}</dd>
                      </div>
                      <div className="flex gap-1">
                        <dt>You received</dt>
                        <dd className="tabular-nums">{d.net}</dd>
                      </div>
                    </dl>
                  </li>
                ))}
              </ul>
              {!deals.firstPage || deals.next ? (
                <nav aria-label="Deal earnings pages" className="mt-4 flex justify-between gap-4 text-sm">
                  {!deals.firstPage ? <Link to={`${MY_PAYMENTS_PATH}#deal-earnings`}>Newest deal earnings</Link> : <span />}
                  {deals.next ? <Link to={deals.next}>Older deal earnings</Link> : null}
                </nav>
              ) : null}
            </>
          )}
        </Section>

        <Section id="payments-made" title="Payments you made">
          {made.length === 0 ? (
            <p>You haven't sponsored or tipped anyone yet.</p>
          ) : (
            <ul className="divide-y divide-ink/10">
              {made.map((p) => (
                <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3">
                  <div className="min-w-0">
                    <p className="font-semibold break-words">
                      {p.kind} to {p.payee}
                    </p>
                    <p className="text-sm text-muted">{p.date}</p>
                  </div>
                  <p className="text-right">
                    <span className="font-semibold">{p.amount}</span>{" "}
                    <span className="ml-2 rounded-full bg-primary/10 px-2 py-0.5 text-sm">{p.status}</span>
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </div>
  );
}
