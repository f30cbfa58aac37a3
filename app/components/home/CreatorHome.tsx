import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Blocker } from "#server/domains/bio/readiness";
import { CopyLink } from "#app/components/bio/CopyLink";
import { count } from "#app/components/bio/insights-format";
import { InsightsTableToggle, ViewsTable } from "#app/components/bio/InsightsTables";
import { QrCode } from "#app/components/bio/QrCode";
import { BLOCKER_TEXT, blockerPath } from "#app/components/bio/SetupChecklist";
import { ViewsChart } from "#app/components/bio/ViewsChart";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { PrivateMark } from "#app/components/sponsor-payments/PrivateMark";
import { NO_NAME_GIVEN, PAYMENTS_CSV_PATH, SUPPORTERS_PATH, supporterHref } from "#isomorphic/supporters";
import { MEMBERS_PATH } from "#isomorphic/members";
import { EarningsChart, EarningsTable, type MonthView } from "./EarningsChart";

export type CreatorHomeView = {
  page: { id: string; name: string; address: string; nextStep: Blocker | null };
  pageCount: number;
  qrSvg: string;
  /** The currency with the most money, charted; null before the first payment. */
  earnings: { currency: string; thisMonth: string; allTime: string; months: MonthView[]; summary: string } | null;
  /** Money sponsors paid for booked deals, held until the work is approved ("$450", "$450 and €20"); null when none. */
  heldInDeals: string | null;
  /** Any other currency's all-time net, as text. */
  otherCurrencies: { currency: string; allTime: string }[];
  views: { days: { day: string; views: number }[]; inWindow: number; allTime: number; windowDays: number };
  supporters: { id: string; name: string | null; private: boolean; amount: string; message: string; created: string; refunded: boolean }[];
  /** Members now, recurring revenue in words and who joined this month; null for a creator with no tier and no member. */
  members: { running: number; newThisMonth: number; mrr: { amount: string; currency: string } | null; otherMrr: string[] } | null;
};

/** Earnings: the money (SPEC's My Payments); Supporters: the people and each payment (isomorphic/supporters.ts). */
export const EARNINGS_PATH = "/app/account/payments";
export const MY_DEALS_PATH = "/app/deals";
export { PAYMENTS_CSV_PATH };

const card = "rounded-2xl border border-primary/15 bg-white p-5 shadow-sm";

function Card({ id, title, children, className = "" }: { id: string; title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={`${card} min-w-0 ${className}`}>
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * A creator's home above SPEC's dashboard (docs/decisions/0036-creator-home.md):
 * what the next setup step is, what came in this month and over the last
 * year (Earnings), page views, the link with Copy and QR code, and the latest
 * supporters, each leading to its row on Supporters, the one list.
 */
export function CreatorHome({ home, locale }: { home: CreatorHomeView; locale: string }) {
  const { page, earnings, views, supporters } = home;
  return (
    <div className="mb-14 space-y-6" data-creator-home>
      {page.nextStep ? (
        <section aria-labelledby="next-step-heading" className="rounded-2xl border-2 border-primary/30 bg-primary/5 p-5">
          <h2 id="next-step-heading" className="text-lg font-bold">
            Next step: {BLOCKER_TEXT[page.nextStep]}
          </h2>
          <p className="mt-1 text-muted">
            {page.name} can't take money yet.{" "}
            <Link to={blockerPath(page.nextStep, page.id)} className="font-semibold">
              {page.nextStep === "owner-disabled" ? "Contact support" : BLOCKER_TEXT[page.nextStep].replace(/^./, (c) => c.toUpperCase())}
            </Link>{" "}
            · <Link to="/app/account/bizbio">See every step</Link>
          </p>
        </section>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <Card id="earnings-heading" title="Earnings" className="lg:col-span-2">
          {earnings ? (
            <>
              <dl className="mt-3 grid grid-cols-2 gap-4">
                <div>
                  <dt className="text-sm text-muted">This month</dt>
                  <dd className="text-3xl font-bold tabular-nums text-primary">{earnings.thisMonth}</dd>
                </div>
                <div>
                  <dt className="text-sm text-muted">All time</dt>
                  <dd className="text-3xl font-bold tabular-nums">{earnings.allTime}</dd>
                </div>
              </dl>
              <p className="mt-1 text-sm text-muted">What you receive in {earnings.currency}, after the platform fee and refunds.</p>
              {home.otherCurrencies.length > 0 ? (
                <p className="mt-1 text-sm text-muted">Also: {home.otherCurrencies.map((c) => `${c.allTime} in ${c.currency}`).join(", ")}.</p>
              ) : null}
              <div className="mt-4">
                <EarningsChart months={earnings.months} summary={earnings.summary} />
              </div>
              <InsightsTableToggle>
                <EarningsTable months={earnings.months} currency={earnings.currency} />
              </InsightsTableToggle>
            </>
          ) : (
            <div className="mt-3 rounded-xl bg-secondary/40 px-4 py-6 text-center">
              <p className="font-semibold">No tips yet</p>
              <p className="mt-1 text-sm text-muted">Share your link: what supporters pay shows here, month by month, and each deal once its work is approved.</p>
            </div>
          )}
          {home.heldInDeals ? (
            <p className="mt-4 flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-xl bg-primary/5 px-4 py-3" data-held-in-deals>
              <span>
                <span className="font-semibold">Held in deals: </span>
                <span className="font-bold tabular-nums">{home.heldInDeals}</span>
              </span>
              <span className="text-sm text-muted">Paid by sponsors, yours once they approve the work.</span>
              <Link to={MY_DEALS_PATH} className="text-sm font-semibold">
                My deals
              </Link>
            </p>
          ) : null}
          <p className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <Link to={EARNINGS_PATH} className="font-semibold">
              Earnings and payouts
            </Link>
            <Link to={SUPPORTERS_PATH}>Supporters</Link>
            <a href={PAYMENTS_CSV_PATH} download>
              Download CSV
            </a>
          </p>
        </Card>

        <Card id="link-heading" title="Your link">
          <p className="mt-1 text-sm">
            {page.nextStep === null ? (
              <span className="inline-flex rounded-full bg-secondary px-3 py-0.5 font-semibold text-ink">Takes tips</span>
            ) : (
              <span className="font-semibold text-red-800">Can't take money yet</span>
            )}
          </p>
          <div className="mt-3">
            <CopyLink address={page.address} label={`Address of ${page.name}`} />
          </div>
          <div className="mt-3 flex items-end gap-3">
            <div className="w-28">
              <QrCode svg={home.qrSvg} address={page.address} />
            </div>
            <a href={`/app/account/bizbio/${page.id}/qr.png`} download className="text-sm">
              Download QR code
            </a>
          </div>
          <p className="mt-3 text-sm">
            <Link to={`/edit/${page.id}`}>Edit {page.name}</Link>
            {home.pageCount > 1 ? (
              <>
                {" "}
                · <Link to="/app/account/bizbio">All {home.pageCount} pages</Link>
              </>
            ) : null}
          </p>
        </Card>

        <Card id="views-heading" title="Page views" className="lg:col-span-2">
          <dl className="mt-3 grid grid-cols-2 gap-4">
            <div>
              <dt className="text-sm text-muted">Last {views.windowDays} days</dt>
              <dd className="text-3xl font-bold tabular-nums text-primary">{count(views.inWindow)}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted">All time</dt>
              <dd className="text-3xl font-bold tabular-nums">{count(views.allTime)}</dd>
            </div>
          </dl>
          {views.inWindow > 0 ? (
            <>
              <div className="mt-4">
                <ViewsChart days={views.days} />
              </div>
              <InsightsTableToggle>
                <ViewsTable days={views.days} />
              </InsightsTableToggle>
            </>
          ) : (
            <p className="mt-3 text-sm text-muted">No views in the last {views.windowDays} days. People who open your link are counted here.</p>
          )}
          <p className="mt-3 text-sm">
            <Link to={`/app/account/bizbio/${page.id}/insights`}>Insights for {page.name}</Link>
          </p>
        </Card>

        {home.members ? (
          <Card id="members-heading" title="Members">
            <dl className="mt-3 grid grid-cols-2 gap-4">
              <div>
                <dt className="text-sm text-muted">Members now</dt>
                <dd className="text-3xl font-bold tabular-nums text-primary" data-members-running>
                  {home.members.running}
                </dd>
              </div>
              <div>
                <dt className="text-sm text-muted">New this month</dt>
                <dd className="text-3xl font-bold tabular-nums">{home.members.newThisMonth}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-sm text-muted">Monthly recurring revenue</dt>
                <dd className="text-2xl font-bold tabular-nums" data-members-mrr>
                  {home.members.mrr ? home.members.mrr.amount : "None yet"}
                </dd>
                {home.members.otherMrr.length > 0 ? <dd className="text-sm text-muted">Also {home.members.otherMrr.join(", ")}</dd> : null}
              </div>
            </dl>
            <p className="mt-3 text-sm">
              <Link to={MEMBERS_PATH} className="font-semibold">
                All members
              </Link>
            </p>
          </Card>
        ) : null}

        <Card id="supporters-heading" title="Supporters">
          {supporters.length === 0 ? (
            <p className="mt-3 text-sm text-muted">Nobody yet. Your first supporter shows up here.</p>
          ) : (
            <ul className="mt-3 divide-y divide-ink/10" aria-label="Latest supporters">
              {supporters.map((s) => (
                <li key={s.id} className="py-3">
                  <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="min-w-0 break-words font-semibold">
                      <Link to={supporterHref(s.id)} className={s.name ? "text-ink" : "text-muted"}>
                        {s.name ?? NO_NAME_GIVEN}
                      </Link>
                      {s.private ? <PrivateMark /> : null}
                    </span>
                    <span className="font-semibold tabular-nums">
                      {s.amount}
                      {s.refunded ? <span className="ml-1 text-xs font-normal text-muted">(refunded)</span> : null}
                    </span>
                  </p>
                  {s.message.trim() ? <p className="mt-1 line-clamp-3 whitespace-pre-line break-words text-sm">{s.message}</p> : null}
                  <p className="mt-1 text-xs text-muted">
                    <LocalDateTime iso={s.created} serverLocale={locale} />
                  </p>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-sm">
            <Link to={SUPPORTERS_PATH} className="font-semibold">
              All supporters
            </Link>
          </p>
        </Card>
      </div>
    </div>
  );
}
