import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ClicksChart } from "./ClicksChart";
import { clicksSummary } from "./insights-format";

const LINKS = [
  { type: "youtube", label: "YouTube", url: "https://youtube.com/@a", lastDays: 9, allTime: 13 },
  { type: "website", label: "Website", url: "https://a.example", lastDays: 2, allTime: 2 },
  { type: "instagram", label: "Instagram", url: "https://instagram.com/a", lastDays: 0, allTime: 0 },
  { type: "tiktok", label: "TikTok", url: null, lastDays: 0, allTime: 40 },
];

describe("ClicksChart (server render)", () => {
  const html = renderToStaticMarkup(createElement(ClicksChart, { links: LINKS, windowDays: 30 }));

  it("is one SVG image whose label sums up the clicks", () => {
    expect(html.match(/<svg/g)).toHaveLength(1);
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="Clicks per link: 11 in the last 30 days, most on YouTube (9); 55 in all"');
  });

  it("draws two bars per link in the page's order, as long as their counts", () => {
    const groups = [...html.matchAll(/data-link="(\w+)"/g)].map((m) => m[1]);
    expect(groups).toEqual(["youtube", "website", "instagram", "tiktok"]);
    const bars = [...html.matchAll(/width="([\d.]+)"[^>]*data-bar="(\w+)"/g)].map((m) => ({ width: Number(m[1]), kind: m[2] }));
    expect(bars).toHaveLength(8);
    expect(bars.filter((b) => b.kind === "lastDays")).toHaveLength(4);
    // Widths share one scale: the longest bar is the biggest count, and 0 is no bar at all.
    const longest = Math.max(...bars.map((b) => b.width));
    expect(bars[7]!.width).toBe(longest);
    expect(bars[1]!.width).toBeCloseTo((longest * 13) / 40, 5);
    expect(bars[4]!.width).toBe(0);
    expect(html).toContain("TikTok (removed)");
  });

  it("sums up a page nobody has clicked, or clicked only long ago", () => {
    expect(clicksSummary(LINKS.map((l) => ({ ...l, lastDays: 0, allTime: 0 })), 30)).toBe("Clicks per link: no clicks yet");
    expect(clicksSummary([{ label: "Website", lastDays: 0, allTime: 1234 }], 30)).toBe("Clicks per link: none in the last 30 days; 1,234 in all");
    expect(renderToStaticMarkup(createElement(ClicksChart, { links: [], windowDays: 30 }))).toBe("");
  });
});
