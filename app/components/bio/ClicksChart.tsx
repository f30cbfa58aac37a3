import { scaleLinear } from "d3-scale";
import { clicksSummary, count } from "./insights-format";

type Link = { type: string; label: string; url: string | null; shown?: boolean; lastDays: number; allTime: number };

// The theme's variables, so the bars follow dark mode (app/app.css).
export const CLICKS_COLOURS = { lastDays: "var(--color-primary)", allTime: "var(--color-accent)" } as const;

// Each link is a group: its name on a line of its own (long names never squeeze the bars on a
// phone), then a bar for the window and one for all time, each with its number after it.
const WIDTH = 400;
const ROW = 62;
const LABEL = 15;
const BAR = 15;
const GAP = 4;
const NUMBER_ROOM = 52;

/**
 * Clicks per link as grouped horizontal bars, drawn on the server with a d3
 * scale; the aria-label sums it up and the table beside it has every number.
 */
export function ClicksChart({ links, windowDays }: { links: Link[]; windowDays: number }) {
  if (links.length === 0) return null;
  const most = Math.max(...links.map((l) => l.allTime), 1);
  const x = scaleLinear().domain([0, most]).range([0, WIDTH - NUMBER_ROOM]);
  const height = links.length * ROW;

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={clicksSummary(links, windowDays)}
      className="block h-auto w-full"
      fontSize={15}
      data-chart="clicks"
    >
      {links.map((link, row) => {
        const top = row * ROW;
        const bars = [
          { key: "lastDays", value: link.lastDays, y: top + LABEL + 6 },
          { key: "allTime", value: link.allTime, y: top + LABEL + 6 + BAR + GAP },
        ] as const;
        return (
          <g key={link.type} data-link={link.type}>
            <text x={0} y={top + LABEL} className="text-ink" fill="currentColor" fontWeight={600}>
              {link.url === null ? `${link.label} (removed)` : link.shown === false ? `${link.label} (off)` : link.label}
            </text>
            {bars.map((bar) => (
              <g key={bar.key}>
                <rect
                  x={0}
                  y={bar.y}
                  width={x(bar.value)}
                  height={BAR}
                  rx={3}
                  style={{ fill: CLICKS_COLOURS[bar.key] }}
                  data-bar={bar.key}
                />
                <text x={x(bar.value) + 6} y={bar.y + BAR / 2} dy="0.35em" className="text-muted" fill="currentColor" fontSize={14}>
                  {count(bar.value)}
                </text>
              </g>
            ))}
          </g>
        );
      })}
    </svg>
  );
}
