import { scaleBand, scaleLinear } from "d3-scale";

/** One UTC month as the page shows it: members at its end (this month: now), who joined and who left. */
export type MemberMonthView = { month: string; label: string; shortLabel: string; members: number; joined: number; lost: number };

const WIDTH = 400;
const HEIGHT = 210;
const MARGIN = { top: 14, right: 10, bottom: 34, left: 36 };

/**
 * Members at each month's end over twelve UTC months, as bars drawn on the server (d3 computes the
 * scales, React writes the SVG, as the home's earnings chart does), with a counted y axis and dated
 * x axis. A screen reader hears `summary`; every figure is in the table under "Show as table".
 */
export function MembersChart({ months, summary }: { months: MemberMonthView[]; summary: string }) {
  if (months.length === 0) return null;
  const x = scaleBand<string>()
    .domain(months.map((m) => m.month))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.25);
  const most = Math.max(...months.map((m) => m.members));
  const y = scaleLinear()
    .domain([0, Math.max(most, 4)])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = y.ticks(4).filter(Number.isInteger);
  const baseline = y(0);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} className="block h-auto w-full" fontSize={13} data-chart="members">
      <g className="text-muted" fill="currentColor">
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} className="stroke-ink/15" />
            <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {tick}
            </text>
          </g>
        ))}
        <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={baseline} y2={baseline} stroke="currentColor" />
      </g>
      {months.map((m, i) => {
        const top = y(m.members);
        const centre = x(m.month)! + x.bandwidth() / 2;
        // Every other month named, the newest always, and the year where it changes or starts: twelve labels do not fit a phone.
        const named = (months.length - 1 - i) % 2 === 0;
        const withYear = named && (i <= 1 || m.month.endsWith("-01") || m.month.endsWith("-02"));
        return (
          <g key={m.month}>
            <rect x={x(m.month)} y={top} width={x.bandwidth()} height={Math.max(baseline - top, m.members === 0 ? 0 : 1.5)} rx={2} className="fill-primary" data-month={m.month}>
              <title>{`${m.label}: ${m.members} ${m.members === 1 ? "member" : "members"}`}</title>
            </rect>
            {named ? (
              <text x={centre} y={HEIGHT - 18} textAnchor="middle" className="fill-muted">
                {m.shortLabel}
              </text>
            ) : null}
            {withYear ? (
              <text x={centre} y={HEIGHT - 4} textAnchor="middle" className="fill-muted" fontSize={11}>
                {m.month.slice(0, 4)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

export function MembersTable({ months }: { months: MemberMonthView[] }) {
  const cell = "border-b border-primary/10 px-2 py-1.5";
  const number = `${cell} text-right tabular-nums`;
  return (
    <table className="w-full text-sm">
      <caption className="mb-2 text-left font-semibold">Members per month (UTC months): at the month&rsquo;s end, this month as of now</caption>
      <thead>
        <tr>
          <th scope="col" className={`${cell} text-left`}>
            Month
          </th>
          <th scope="col" className={number}>
            Members
          </th>
          <th scope="col" className={number}>
            Joined
          </th>
          <th scope="col" className={number}>
            Left
          </th>
        </tr>
      </thead>
      <tbody>
        {[...months].reverse().map((m) => (
          <tr key={m.month}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              {m.label}
            </th>
            <td className={`${number} font-semibold`}>{m.members}</td>
            <td className={number}>{m.joined}</td>
            <td className={number}>{m.lost}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
