import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { windowDays } from "#server/domains/bio/stats";
import { viewsSummary } from "./insights-format";
import { labelEvery, ViewsChart } from "./ViewsChart";

const DAYS = windowDays(new Date("2026-11-22T10:00:00Z")).map((day, i) => ({ day, views: i === 20 ? 17 : i % 3 }));

describe("ViewsChart (server render)", () => {
  const html = renderToStaticMarkup(createElement(ViewsChart, { days: DAYS }));

  it("is one SVG image whose label sums up the 30 days", () => {
    const total = DAYS.reduce((sum, d) => sum + d.views, 0);
    expect(html.match(/<svg/g)).toHaveLength(1);
    expect(html).toContain('role="img"');
    expect(html).toContain(`aria-label="Views per day, last 30 days: ${total} in total, most on 13 Nov (17)"`);
  });

  it("draws a point per day, oldest on the left, and a line and area through them", () => {
    const points = [...html.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="2.5" data-point="([\d-]+)"/g)];
    expect(points.map((p) => p[3])).toEqual(DAYS.map((d) => d.day));
    const xs = points.map((p) => Number(p[1]));
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    // The busiest day is the highest point (SVG's y grows downwards).
    const ys = points.map((p) => Number(p[2]));
    expect(Math.min(...ys)).toBe(ys[20]);
    expect(html.match(/<path d="M/g)).toHaveLength(2);
    expect(html).toContain("<title>Fri, 13 Nov 2026: 17 views</title>");
  });

  it("names the newest day on the axis and counts in whole views", () => {
    expect(html).toContain(">22 Nov</text>");
    const ticks = [...html.matchAll(/text-anchor="end">(\d+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toContain("0");
    expect(ticks.every((t) => Number.isInteger(Number(t)))).toBe(true);
  });

  it("says 'none' for a month without views, and draws nothing without days", () => {
    const quiet = DAYS.map((d) => ({ ...d, views: 0 }));
    expect(viewsSummary(quiet)).toBe("Views per day, last 30 days: none");
    expect(renderToStaticMarkup(createElement(ViewsChart, { days: quiet }))).toContain('aria-label="Views per day, last 30 days: none"');
    expect(renderToStaticMarkup(createElement(ViewsChart, { days: [] }))).toBe("");
  });

  it("dates the x axis at every period, newest day always named, labels never on top of each other", () => {
    expect([7, 30, 90, 365].map(labelEvery)).toEqual([2, 7, 21, 77]);
    for (const [length, labels] of [[7, 4], [30, 4], [90, 5], [365, 4]] as const) {
      const days = windowDays(new Date("2026-11-22T10:00:00Z"), length).map((day, i) => ({ day, views: i % 4 }));
      const chart = renderToStaticMarkup(createElement(ViewsChart, { days }));
      const dates = [...chart.matchAll(/<text x="([\d.]+)" y="201" text-anchor="(middle|end)">([^<]+)<\/text>/g)];
      expect(dates.map((d) => d[3]).at(-1), `${length} days`).toBe("22 Nov");
      expect(dates, `${length} days`).toHaveLength(labels);
      const xs = dates.map((d) => Number(d[1]));
      for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!, `${length} days`).toBeGreaterThanOrEqual(60);
      // A point (with its tooltip) per day up to 90 days; a year is the line alone.
      expect(chart.match(/data-point=/g)?.length ?? 0).toBe(length <= 90 ? length : 0);
    }
  });
});

