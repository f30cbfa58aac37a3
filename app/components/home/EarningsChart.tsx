import { scaleBand, scaleLinear } from "d3-scale";

/** One month as the home shows it: the figures already written in the currency by the server. */
export type MonthView = { month: string; label: string; net: number; gross: string; fee: string; netText: string };

const WIDTH = 400;
const HEIGHT = 200;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 8 };

/**
 * What the creator received per month (net), as bars drawn on the server
 * (d3 computes the scales, React writes the SVG, as ViewsChart does). A month
 * with more refunded than paid goes below the line. A screen reader hears
 * `summary`; every figure is also in the table under "Show as table".
 */
export function EarningsChart({ months, summary }: { months: MonthView[]; summary: string }) {
  if (months.length === 0) return null;
  const x = scaleBand<string>()
    .domain(months.map((m) => m.month))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.25);
  const low = Math.min(0, ...months.map((m) => m.net));
  const high = Math.max(1, ...months.map((m) => m.net));
  const y = scaleLinear().domain([low, high]).nice().range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const zero = y(0);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} className="block h-auto w-full" fontSize={13} data-chart="earnings">
      <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={zero} y2={zero} className="stroke-ink/30" />
      {months.map((m, i) => {
        const top = Math.min(y(m.net), zero);
        const height = Math.max(Math.abs(y(m.net) - zero), m.net === 0 ? 0 : 1.5);
        return (
          <g key={m.month}>
            <rect x={x(m.month)} y={top} width={x.bandwidth()} height={height} rx={2} className={m.net < 0 ? "fill-red-700" : "fill-primary"} data-month={m.month}>
              <title>{`${m.label}: ${m.netText}`}</title>
            </rect>
            {/* Every other month named, newest always: twelve labels don't fit a phone. */}
            {(months.length - 1 - i) % 2 === 0 ? (
              <text x={x(m.month)! + x.bandwidth() / 2} y={HEIGHT - 8} textAnchor="middle" className="fill-muted">
                {m.label.split(" ")[0]}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

export function EarningsTable({ months, currency }: { months: MonthView[]; currency: string }) {
  const cell = "border-b border-primary/10 px-2 py-1.5";
  const number = `${cell} text-right tabular-nums`;
  return (
    <table className="w-full text-sm">
      <caption className="mb-2 text-left font-semibold">Earnings per month in {currency} (UTC months), after refunds</caption>
      <thead>
        <tr>
          <th scope="col" className={`${cell} text-left`}>
            Month
          </th>
          <th scope="col" className={number}>
            Paid
          </th>
          <th scope="col" className={number}>
            Fee
          </th>
          <th scope="col" className={number}>
            You receive
          </th>
        </tr>
      </thead>
      <tbody>
        {[...months].reverse().map((m) => (
          <tr key={m.month}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              {m.label}
            </th>
            <td className={number}>{m.gross}</td>
            <td className={number}>{m.fee}</td>
            <td className={`${number} font-semibold`}>{m.netText}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
