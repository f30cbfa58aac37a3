import type { ReactNode } from "react";
import { count, longDay } from "./insights-format";

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
