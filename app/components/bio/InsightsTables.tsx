import type { ReactNode } from "react";
import { DIRECT_SITE } from "#isomorphic/insights-periods";
import { count, longDay, percent } from "./insights-format";

/** The numbers behind a chart, folded away under "Show as table"; <details> opens without JavaScript. */
export function InsightsTableToggle({ children }: { children: ReactNode }) {
  return (
    <details className="group mt-4">
      <summary className="inline-flex cursor-pointer items-center gap-1 text-sm font-semibold text-primary underline underline-offset-2">
        <span aria-hidden="true" className="group-open:hidden">
          ▸
        </span>
        <span aria-hidden="true" className="hidden group-open:inline">
          ▾
        </span>
        Show as table
      </summary>
      <div className="mt-3">{children}</div>
    </details>
  );
}

const cell = "border-b border-primary/10 px-2 py-1.5";
const number = `${cell} text-right tabular-nums`;

export function ViewsTable({ days }: { days: { day: string; views: number }[] }) {
  return (
    <table className="w-full text-sm">
      <caption className="mb-2 text-left font-semibold">Views per day, last {days.length} days (UTC)</caption>
      <thead>
        <tr>
          <th scope="col" className={`${cell} text-left`}>
            Day
          </th>
          <th scope="col" className={`${number}`}>
            Views
          </th>
        </tr>
      </thead>
      <tbody>
        {/* Newest first: the day the owner most likely looks for. */}
        {[...days].reverse().map((d) => (
          <tr key={d.day}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              <time dateTime={d.day}>{longDay(d.day)}</time>
            </th>
            <td className={number}>{count(d.views)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Link = { type: string; label: string; url: string | null; shown?: boolean; lastDays: number; allTime: number };

export function ClicksTable({ links, windowDays }: { links: Link[]; windowDays: number }) {
  return (
    <table className="w-full text-sm">
      <caption className="mb-2 text-left font-semibold">Clicks per link</caption>
      <thead>
        <tr>
          <th scope="col" className={`${cell} text-left`}>
            Link
          </th>
          <th scope="col" className={number}>
            Last {windowDays} days
          </th>
          <th scope="col" className={number}>
            All time
          </th>
        </tr>
      </thead>
      <tbody>
        {links.map((link) => (
          <tr key={link.type}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              {link.label}
              {link.url === null ? <span className="text-muted"> (removed from the page)</span> : link.shown === false ? <span className="text-muted"> (switched off)</span> : null}
            </th>
            <td className={number}>{count(link.lastDays)}</td>
            <td className={number}>{count(link.allTime)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Sites = { sites: { site: string; views: number }[]; otherSites: number; unrecordedSites: number; views: number; period: number };

/**
 * The sites the period's views came from, most first, each with its share of
 * the views and a bar of that share (decoration: the numbers are in the cells).
 */
export function SitesTable({ sites, otherSites, unrecordedSites, views, period }: Sites) {
  const rows = [
    ...sites.map((row) => ({ key: row.site, label: row.site === DIRECT_SITE ? "Direct (no site passed on)" : row.site, views: row.views })),
    ...(otherSites > 0 ? [{ key: "other", label: "Other sites", views: otherSites }] : []),
    ...(unrecordedSites > 0 ? [{ key: "unrecorded", label: "Not recorded (counted before sites were)", views: unrecordedSites }] : []),
  ];
  return (
    <table className="w-full text-sm" data-table="sites">
      <caption className="mb-2 text-left font-semibold">Views by referring site, last {period} days</caption>
      <thead>
        <tr>
          <th scope="col" className={`${cell} text-left`}>
            Site
          </th>
          <th scope="col" className={`${number} whitespace-nowrap`}>
            Views
          </th>
          <th scope="col" className={`${number} whitespace-nowrap`}>
            Share
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const share = views > 0 ? row.views / views : 0;
          return (
            <tr key={row.key}>
              <th scope="row" className={`${cell} text-left font-normal [overflow-wrap:anywhere]`}>
                {row.label}
                <span aria-hidden="true" className="mt-1 block h-1.5 rounded-full bg-primary" style={{ width: `${Math.round(share * 100)}%` }} />
              </th>
              <td className={number}>{count(row.views)}</td>
              <td className={number}>{percent(views > 0 ? share : null)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
