import type { ReactNode } from "react";
import { Link } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { bioPageAddress, qrSvg } from "#server/domains/bio/qr";
import { readBioPageInsights } from "#server/domains/bio/stats";
import { INSIGHTS_PERIODS, parseInsightsPeriod } from "#isomorphic/insights-periods";
import { ClicksChart, CLICKS_COLOURS } from "#app/components/bio/ClicksChart";
import { count, percent, plural } from "#app/components/bio/insights-format";
import { ClicksTable, InsightsTableToggle, SitesTable, ViewsTable } from "#app/components/bio/InsightsTables";
import { QrCode } from "#app/components/bio/QrCode";
import { ViewsChart } from "#app/components/bio/ViewsChart";
import { secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/insights";

// Read-only numbers and pictures: the page works as plain HTML and ships no JavaScript.
export const handle = { hydrate: false };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  // Any other ?days= (or none) is the default period, never an error: the switch is plain links.
  const period = parseInsightsPeriod(new URL(request.url).searchParams.get("days"));
  const result = await readBioPageInsights(context.db, { uid: user.id }, params.pageId, { period });
  if (result.kind === "ERROR") refuse(result.code);
  const { page, ...stats } = result.insights;
  const address = bioPageAddress(context.config.BIO_ORIGIN, page.customEnding);
  return {
    page: { id: page.id, name: page.name, customEnding: page.customEnding },
    ...stats,
    address,
    qrSvg: await qrSvg(address),
    // The version in the query makes browsers and social networks fetch the image again after an edit.
    shareImage: `${address}/share.png?v=${page.updatedAt.getTime()}`,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data ? `Insights: ${args.data.page.name}` : "Insights", noindex: true });

const card = "rounded-2xl border border-primary/15 bg-white p-4 shadow-sm sm:p-5";

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className={card}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-3xl font-bold tabular-nums text-primary">{value}</dd>
      {note ? <dd className="mt-1 text-sm text-muted">{note}</dd> : null}
    </div>
  );
}

/** Plain links, so the period changes without JavaScript; the chosen one is marked for every reader. */
function PeriodSwitch({ current }: { current: number }) {
  return (
    <nav aria-label="Period" className="mt-6">
      <ul className="grid grid-cols-4 gap-1 rounded-xl border border-primary/15 bg-white p-1 text-center sm:inline-grid">
        {INSIGHTS_PERIODS.map((days) => (
          <li key={days}>
            <Link
              to={`?days=${days}`}
              aria-current={days === current ? "page" : undefined}
              className={`block whitespace-nowrap rounded-lg px-2 py-2 text-sm font-semibold no-underline sm:px-3 ${days === current ? "bg-primary text-white" : "text-primary hover:bg-secondary/50"}`}
            >
              {days} days
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-4 rounded-xl bg-secondary/40 px-4 py-6 text-center">
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm text-muted">{children}</p>
    </div>
  );
}

function Swatch({ colour, children }: { colour: string; children: ReactNode }) {
  return (
    <li className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: colour }} />
      {children}
    </li>
  );
}

export default function BioInsights({ loaderData }: Route.ComponentProps) {
  const { page, period, days, viewsInWindow, totalViews, clicks, clicksInWindow, tipsInWindow, conversion, address, qrSvg, shareImage } = loaderData;
  const windowDays = period;
  const anyClicks = clicks.some((link) => link.allTime > 0);
  const shownAddress = address.replace(/^https?:\/\//, "");
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <Link to="/app/account/bizbio" className="text-sm font-semibold">
        ← Your Pages
      </Link>
      <p className="mt-4 text-sm font-semibold uppercase tracking-wide text-primary">Insights</p>
      <h1 className="text-3xl font-bold leading-tight">{page.name}</h1>
      <p className="mt-1">
        <a href={address} rel="noopener">
          {shownAddress}
        </a>
      </p>

      <PeriodSwitch current={period} />

      <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label={`Views, last ${windowDays} days`} value={count(viewsInWindow)} note={`${plural(totalViews, "view")} all time`} />
        <Stat label={`Link clicks, last ${windowDays} days`} value={count(clicksInWindow)} />
        <Stat label={`Tips, last ${windowDays} days`} value={count(tipsInWindow)} note="Paid tips, refunded ones included" />
        <Stat
          label="Conversion (tips ÷ views)"
          value={percent(conversion)}
          note={conversion === null ? "No views to divide by yet" : `${plural(tipsInWindow, "tip")} per ${plural(viewsInWindow, "view")}`}
        />
      </dl>

      <section aria-labelledby="counting-heading" className="mt-4 rounded-xl bg-secondary/40 px-4 py-3 text-sm">
        <h2 id="counting-heading" className="font-semibold">
          How views are counted
        </h2>
        <p className="mt-1">
          A view is a person opening your page. Each network (a home&rsquo;s Wi-Fi, a phone&rsquo;s mobile connection) counts once per page
          per half hour, however often it reloads, so people sharing one connection count once together. Bots, headless browsers, link
          previews and prefetches are not counted. New views show within a few seconds. Days are UTC days. Counting uses no cookies.
        </p>
      </section>

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-2">
        <section aria-labelledby="views-heading" className={card}>
          <h2 id="views-heading" className="text-xl font-bold">
            Views per day
          </h2>
          <p className="text-sm text-muted">The last {windowDays} days, in UTC days.</p>
          {totalViews === 0 && viewsInWindow === 0 ? (
            <EmptyState title="No views yet">
              Share your page&rsquo;s address or its QR code below: every visit is counted here.
            </EmptyState>
          ) : (
            <>
              <div className="mt-4">
                <ViewsChart days={days} />
              </div>
              <InsightsTableToggle>
                <ViewsTable days={days} />
              </InsightsTableToggle>
            </>
          )}
        </section>

        <section aria-labelledby="clicks-heading" className={card}>
          <h2 id="clicks-heading" className="text-xl font-bold">
            Clicks per link
          </h2>
          <p className="text-sm text-muted">How often people tapped each link on your page.</p>
          {clicks.length === 0 ? (
            <EmptyState title="No links yet">Add links to your page and the taps on each one show here.</EmptyState>
          ) : (
            <>
              {anyClicks ? (
                <>
                  <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted" aria-label="Legend">
                    <Swatch colour={CLICKS_COLOURS.lastDays}>Last {windowDays} days</Swatch>
                    <Swatch colour={CLICKS_COLOURS.allTime}>All time</Swatch>
                  </ul>
                  <div className="mt-3">
                    <ClicksChart links={clicks} windowDays={windowDays} />
                  </div>
                </>
              ) : (
                <EmptyState title="No clicks yet">Share your page: each tap on one of its links is counted here.</EmptyState>
              )}
              <InsightsTableToggle>
                <ClicksTable links={clicks} windowDays={windowDays} />
              </InsightsTableToggle>
            </>
          )}
        </section>

        <SitesSection {...loaderData} />

        <section aria-labelledby="qr-heading" className={card}>
          <h2 id="qr-heading" className="text-xl font-bold">
            QR code
          </h2>
          <p className="text-sm text-muted">Print it on flyers, packaging or a slide: it opens {shownAddress}.</p>
          <div className="mt-4 flex flex-wrap items-end gap-4">
            <QrCode svg={qrSvg} address={address} />
            <div className="flex flex-col gap-2">
              <a href={`/app/account/bizbio/${page.id}/qr.png`} download className={`${secondaryButton} no-underline`}>
                Download PNG
              </a>
              <a href={`/app/account/bizbio/${page.id}/qr.svg`} download className={`${secondaryButton} no-underline`}>
                Download SVG
              </a>
              <p className="text-xs text-muted">PNG: 1024 × 1024 px. SVG: sharp at any size.</p>
            </div>
          </div>
        </section>

        <section aria-labelledby="share-heading" className={card}>
          <h2 id="share-heading" className="text-xl font-bold">
            Share image
          </h2>
          <p className="text-sm text-muted">
            Social networks and chat apps show this picture when someone shares your page. It is rebuilt whenever you edit the page.
          </p>
          <img
            src={shareImage}
            width={1200}
            height={630}
            alt={`Share image of ${page.name}, as shown when ${shownAddress} is shared`}
            className="mt-4 block h-auto w-full rounded-lg border border-primary/15"
            loading="lazy"
            decoding="async"
          />
          <p className="mt-2 text-sm">
            <a href={shareImage}>Open the share image (1200 × 630 px)</a>
          </p>
        </section>
      </div>
    </div>
  );
}

function SitesSection({ sites, otherSites, unrecordedSites, viewsInWindow, period }: Route.ComponentProps["loaderData"]) {
  return (
    <section aria-labelledby="sites-heading" className={`${card} lg:col-span-2`}>
      <h2 id="sites-heading" className="text-xl font-bold">
        Where views came from
      </h2>
      <p className="text-sm text-muted">
        The site each counted view came from, by its name only (never the address of the post or the search). Direct means no site was passed on:
        the address typed or bookmarked, a QR code, or an app that hides it.
      </p>
      {viewsInWindow === 0 ? (
        <EmptyState title="No views in this period">When people follow a link to your page, the sites they came from show here.</EmptyState>
      ) : (
        <div className="mt-4">
          <SitesTable sites={sites} otherSites={otherSites} unrecordedSites={unrecordedSites} views={viewsInWindow} period={period} />
        </div>
      )}
    </section>
  );
}
