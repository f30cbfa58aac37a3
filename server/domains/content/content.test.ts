import { proPriceText } from "#isomorphic/pro-plans";
import { describe, expect, it } from "vitest";
import { homeCopy } from "./home";
import { findContent, listBlogPosts, listContent, renderContent } from "./library";
import { fillPlaceholders, parseFrontMatter, renderMarkdown } from "./markdown";

const values = {
  APP_NAME: "Sponsorgrid",
  SUPPORT_EMAIL: "help@sponsorgrid.example",
  COMPANY_NAME: "Sponsorgrid Labs",
  PRO_LAUNCHPAD_PRICE: proPriceText("launchpad"),
  PRO_STAR_POWER_PRICE: proPriceText("star_power"),
  PRO_LIMITLESS_PRICE: proPriceText("limitless"),
};
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe("content library", () => {
  it("has the four guides, each a substantive guide of 600+ words", () => {
    const guides = listContent("guides");
    expect(guides.map((g) => g.slug).sort()).toEqual([
      "finding-the-best-sponsorships", "gamer-sponsorships", "podcast-sponsorships", "youtube-sponsorships",
    ]);
    for (const guide of guides) expect(words(guide.markdown), guide.slug).toBeGreaterThanOrEqual(600);
  });

  it("lists at least three dated blog posts, newest first", () => {
    const posts = listBlogPosts();
    expect(posts.length).toBeGreaterThanOrEqual(3);
    const dates = posts.map((p) => p.date ?? "");
    expect(dates.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("gives every page a title and a meta description, and never an h1 in the body", () => {
    for (const entry of [...listContent("pages"), ...listContent("guides"), ...listContent("blog")]) {
      if (entry.slug === "home") continue;
      expect(entry.title, entry.slug).not.toBe(entry.slug);
      expect(entry.description.length, entry.slug).toBeGreaterThan(50);
      expect(entry.markdown, entry.slug).not.toMatch(/^# /m);
    }
  });

  it("answers at least 10 questions on the Support page", () => {
    const support = findContent("pages", "support")!;
    expect(support.markdown.match(/^## .+\?$/gm)?.length).toBeGreaterThanOrEqual(10);
  });

  it("states the content policy in the Code of Conduct", () => {
    const html = renderContent(findContent("pages", "code-of-conduct")!, values).html;
    expect(html).toContain("Keep your language professional and polite.");
    expect(html).toContain("Every post must follow this Code of Conduct.");
    expect(html).toContain("We may remove content that breaks these rules.");
  });

  it("fills placeholders everywhere and links the support address", () => {
    const html = renderContent(findContent("pages", "reporting")!, values).html;
    expect(html).not.toContain("{{");
    expect(html).toContain('href="mailto:help@sponsorgrid.example"');
  });

  it("reads the home page copy blocks", () => {
    const copy = homeCopy(values);
    expect(copy.headline.length).toBeGreaterThan(10);
    expect(copy.creators).toHaveLength(3);
    expect(copy.sponsors).toHaveLength(3);
    expect(copy.steps).toHaveLength(3);
  });
});

describe("markdown helpers", () => {
  it("parses front matter", () => {
    expect(parseFrontMatter("---\ntitle: A: B\ndate: 2026-01-02\n---\nBody")).toEqual({
      meta: { title: "A: B", date: "2026-01-02" },
      body: "Body",
    });
  });

  it("escapes raw HTML and HTML in placeholder values", () => {
    expect(renderMarkdown("<script>alert(1)</script>")).not.toContain("<script>");
    expect(fillPlaceholders("{{APP_NAME}}", { ...values, APP_NAME: "<b>x</b>" }, true)).toBe("&lt;b&gt;x&lt;/b&gt;");
  });

  it("quotes the Pro prices from the plans themselves, so a guide never shows an old price", () => {
    const guide = findContent("guides", "finding-the-best-sponsorships")!;
    expect(guide.markdown).toContain("{{PRO_LAUNCHPAD_PRICE}}");
    expect(renderContent(guide, values).html).toContain(
      "Plans start at $2 per month with Launchpad, or $15 per year with Star Power, and Limitless is $50 one-time.",
    );
  });
});
