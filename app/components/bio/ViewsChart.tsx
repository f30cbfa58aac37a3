import { scaleLinear, scaleUtc } from "d3-scale";
import { area, curveMonotoneX, line } from "d3-shape";
import { count, dayStart, longDay, plural, shortDay, viewsSummary } from "./insights-format";

type Day = { day: string; views: number };
type Point = { x: number; y: number; day: Day };

// The drawing's own units: the SVG scales to its box and keeps this shape. Sized so that its
// 14-unit labels stay readable on a phone (about 10.5 px) and are not huge on a wide screen.
const WIDTH = 400;
const HEIGHT = 210;
const MARGIN = { top: 14, right: 14, bottom: 30, left: 38 };
/** Up to this many days each day is a point with its own tooltip; a longer period is the line alone. */
const MAX_POINTS = 90;
/** The x distance a date label needs from the newest one ("29 Sept" is about 50 units wide). */
const LABEL_ROOM = 80;

/** Days between two date labels: about five labels whatever the period, a week apart on a month. */
export function labelEvery(length: number): number {
  if (length <= 7) return 2;
  if (length <= 31) return 7;
  return Math.ceil(length / 5 / 7) * 7;
}

/**
 * Views per day as an area under a line, drawn on the server: d3 computes the
 * scales and the path, React writes the SVG. A screen reader hears the
 * summary in aria-label; the full numbers are in the table beside it.
 */
export function ViewsChart({ days }: { days: Day[] }) {
  if (days.length === 0) return null;
  const x = scaleUtc()
    .domain([dayStart(days[0]!.day), dayStart(days.at(-1)!.day)])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const most = Math.max(...days.map((d) => d.views));
  const y = scaleLinear()
    .domain([0, Math.max(most, 4)])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const points: Point[] = days.map((day) => ({ x: x(dayStart(day.day)), y: y(day.views), day }));
  const baseline = y(0);
  const areaPath = area<Point>().x((p) => p.x).y0(baseline).y1((p) => p.y).curve(curveMonotoneX)(points) ?? "";
  const linePath = line<Point>().x((p) => p.x).y((p) => p.y).curve(curveMonotoneX)(points) ?? "";
  const yTicks = y.ticks(4).filter(Number.isInteger);
  // Labels at even steps counted back from today, so the newest day is always named; none crowds the y axis.
  const step = labelEvery(points.length);
  // The newest is anchored at its end, so a label too close before it is left out rather than overlap it.
  const newest = points.at(-1)!;
  const labelled = points.filter(
    (p, i) => (points.length - 1 - i) % step === 0 && (p === newest || newest.x - p.x >= LABEL_ROOM) && (i >= Math.min(3, step) || points.length <= 7),
  );
  const busiest = most > 0 ? points.reduce((best, p) => (p.day.views >= best.day.views ? p : best)) : null;

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={viewsSummary(days)}
      className="block h-auto w-full"
      fontSize={14}
      data-chart="views"
    >
      <g className="text-muted" fill="currentColor">
        {yTicks.map((tick) => (
          <g key={tick}>
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} className="stroke-ink/15" />
            <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {count(tick)}
            </text>
          </g>
        ))}
        <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={baseline} y2={baseline} stroke="currentColor" />
        {labelled.map((p) => (
          <line key={`tick-${p.day.day}`} x1={p.x} x2={p.x} y1={baseline} y2={baseline + 4} stroke="currentColor" />
        ))}
        {labelled.map((p) => (
          <text key={p.day.day} x={p.x} y={HEIGHT - 9} textAnchor={p === points.at(-1) ? "end" : "middle"}>
            {shortDay(p.day.day)}
          </text>
        ))}
      </g>
      <path d={areaPath} className="fill-secondary" fillOpacity={0.75} />
      <path d={linePath} fill="none" className="stroke-primary" strokeWidth={2} strokeLinejoin="round" />
      <g className="fill-primary">
        {(points.length <= MAX_POINTS ? points : []).map((p) => (
          <circle key={p.day.day} cx={p.x} cy={p.y} r={2.5} data-point={p.day.day}>
            <title>{`${longDay(p.day.day)}: ${plural(p.day.views, "view")}`}</title>
          </circle>
        ))}
      </g>
      {busiest ? <circle cx={busiest.x} cy={busiest.y} r={5} className="fill-accent stroke-white" strokeWidth={1.5} /> : null}
    </svg>
  );
}
