import { publicBioPage } from "#tests/support/public-bio-page";
import { describe, expect, it } from "vitest";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { goalProgress } from "#server/domains/bio/goal";
import type { WallEntry } from "#server/domains/bio/wall";
import { goalSection } from "./goal";
import { WALL_MESSAGE_CHARS, wallMessage, wallSection } from "./wall";

const HOSTILE = `</h2><script>alert("x")</script><img src=x onerror='alert(1)'>&amp;"`;

function page(overrides: Partial<PublicBioPage>): PublicBioPage {
  return publicBioPage(overrides);
}

const entry = (overrides: Partial<WallEntry>): WallEntry => ({
  id: "ss_1",
  private: false,
  name: "Ada",
  message: "Thanks!",
  amount: 500,
  currency: "usd",
  at: new Date("2026-11-20T23:30:00Z"),
  ...overrides,
});

describe("the goal section", () => {
  it("is absent without a goal", () => {
    expect(goalSection(page({}))).toBe("");
  });

  it("draws a labelled progress bar capped at full, with the real figures in text", () => {
    const html = goalSection(page({ goal: goalProgress({ title: "New camera", target: 50_000 }, 60_050) }));
    expect(html).toContain(`<h2 id="g">New camera</h2>`);
    expect(html).toContain(`<progress max="100" value="100" aria-labelledby="g" aria-describedby="gt">`);
    expect(html).toContain(`<p id="gt">$600.50 of $500 raised · 120%</p>`);
  });

  it("escapes the title", () => {
    const html = goalSection(page({ goal: goalProgress({ title: HOSTILE, target: 100 }, 0) }));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;/h2&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;amp;&quot;");
  });
});

describe("the wall section", () => {
  it("is absent while the wall is off, and invites the first supporter while empty", () => {
    expect(wallSection(page({}))).toBe("");
    expect(wallSection(page({ wall: [] }))).toContain("No supporters yet: be the first.");
    expect(wallSection(page({ wall: [], takesPayments: false }))).toContain("No supporters yet.");
  });

  it("shows name, amount, message and the day; 'Someone' without a name; a private supporter without anything they gave", () => {
    const html = wallSection(page({ wall: [entry({}), entry({ id: "ss_2", name: null }), entry({ id: "ss_3", private: true, name: null, message: null, amount: null })] }));
    expect(html).toContain(`<h2 id="w">Supporters</h2>`);
    expect(html).toContain(`<li><b>Ada</b><span>$5</span><p>Thanks!</p><small><time datetime="2026-11-20T23:30:00.000Z">November 20, 2026</time></small></li>`);
    expect(html).toContain("<li><b>Someone</b>");
    expect(html).toContain(`<li><b>A private supporter</b><small>`);
    expect(html.match(/<li>/g)).toHaveLength(3);
  });

  it("escapes names and messages, and cuts long messages", () => {
    const html = wallSection(page({ wall: [entry({ name: HOSTILE, message: `${HOSTILE}\n${"x".repeat(400)}` })] }));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
    expect([...wallMessage("y".repeat(1000))]).toHaveLength(WALL_MESSAGE_CHARS);
    expect(wallMessage("short\r\nlines")).toBe("short\nlines");
  });
});
