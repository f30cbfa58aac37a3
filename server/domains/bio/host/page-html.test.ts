import { publicBioPage } from "#tests/support/public-bio-page";
import crypto from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { LINK_TYPES } from "#server/platform/db/schema";
import { isHumanVisit } from "./human-visit";
import { escapeHtml, renderBioPage, renderNotFound, shownDestination } from "./page-html";
import { shareImageSvg, wrapText } from "./share-image";
import { DEFAULT_THEME, presetById, type BioTheme } from "#isomorphic/bio-theme";
import { bioCspFor, BIO_STYLE, themeStyle } from "./style";
import { MAX_PACKAGE_TITLE, MAX_PACKAGES_PER_PAGE } from "#isomorphic/bio-packages";

const site = { bioOrigin: "https://bio.sponsorgrid.example", publicOrigin: "https://sponsorgrid.example", appName: "Sponsorgrid" };

function page(overrides: Partial<PublicBioPage> = {}): PublicBioPage {
  return publicBioPage({ blurb: "Maker.", links: [{ type: "youtube", url: "https://www.youtube.com/@maya" }], takesPayments: false, ...overrides });
}

const HOSTILE = `</title><script>alert("x")</script><img src=x onerror='alert(1)'>&amp;"`;

describe("bio page themes", () => {
  it("draws every colour from the theme's custom properties: the stylesheet names no colour of its own", () => {
    expect(BIO_STYLE).not.toMatch(/#[0-9a-f]{3,6}\b|\brgba?\(|\bhsla?\(/i);
    for (const name of ["--bg", "--fg", "--btn", "--btn-fg", "--font"]) expect(BIO_STYLE).toContain(`var(${name})`);
  });

  it("sets the page's theme as :root variables, its font stack and its browser colour", () => {
    const ocean = presetById("ocean")!.theme;
    const html = renderBioPage(page({ theme: { ...ocean, font: "mono" } }), site, "v1");
    expect(html).toContain(`<style>:root{--bg:#e0f2fe;--fg:#0c4a6e;--btn:#0369a1;--btn-fg:#ffffff;--font:ui-monospace,`);
    expect(html).toContain('<meta name="theme-color" content="#e0f2fe">');
    expect(bioCspFor(html)).not.toBe(bioCspFor(renderBioPage(page(), site, "v1")));
  });

  it("never lets a stored theme that is not well formed into the CSS: the default is drawn instead", () => {
    const hostile = { ...DEFAULT_THEME, background: "red}</style><script>alert(1)</script>" } as BioTheme;
    for (const theme of [hostile, { ...DEFAULT_THEME, font: "Comic Sans" }, null, { preset: "x" }] as BioTheme[]) {
      const html = renderBioPage(page({ theme }), site, "v1");
      expect(html).not.toMatch(/<script/i);
      expect(html).toContain(themeStyle(DEFAULT_THEME));
    }
  });

  it("paints the share image in the page's colours", () => {
    const candy = presetById("candy")!.theme;
    const svg = shareImageSvg({ ...page(), theme: candy }, site);
    expect(svg).toContain(`fill="${candy.background}"`);
    expect(svg).toContain(`fill="${candy.text}"`);
    expect(svg).toContain(`fill="${candy.buttonText}"`);
    expect(svg).not.toContain("#603f8b");
  });
});

describe("bio page HTML", () => {
  it("escapes hostile names, about texts, link addresses and sponsorship titles everywhere", () => {
    const html = renderBioPage(
      page({
        name: HOSTILE,
        blurb: `${HOSTILE}\nsecond line`,
        links: [{ type: "website", url: `https://evil.example/"><script>alert(1)</script>` }],
        sponsorships: [{ id: "p", title: HOSTILE, minContributionCents: 2500, currency: "usd", benefits: [HOSTILE], description: HOSTILE }],
      }),
      site,
      "v1",
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/onerror='/);
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(html).toContain(`&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;amp;&quot;`);
    // The about text keeps its line break (the CSS shows it: white-space: pre-line).
    expect(html).toContain("&amp;amp;&quot;\nsecond line</p>");
    expect(html).toContain("From $25");
    // Exactly one <title>, two <style>s (the theme, the stylesheet), and those are the ones the page's CSP allows.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect([...html.matchAll(/<style>([^<]*)<\/style>/g)].map((match) => match[1])).toEqual([themeStyle(DEFAULT_THEME), BIO_STYLE]);
    const csp = bioCspFor(html);
    for (const css of [themeStyle(DEFAULT_THEME), BIO_STYLE]) expect(csp).toContain(`'sha256-${crypto.createHash("sha256").update(css).digest("base64")}'`);
    expect(csp.match(/'sha256-/g)).toHaveLength(2);
    expect(csp).not.toMatch(/script-src|unsafe/);
  });

  it("renders only http(s) addresses as links, through the counted redirect, destination shown", () => {
    const html = renderBioPage(
      page({
        links: [
          { type: "website", url: "javascript:alert(1)" },
          { type: "store", url: "data:text/html,hi" },
          { type: "twitter", url: " https://x.com/maya" },
          { type: "youtube", url: "https://www.youtube.com/@maya" },
          { type: "newsletter", url: "https://www.maya.example/letters/" },
        ],
      }),
      site,
      "v1",
    );
    expect(html).not.toMatch(/javascript|data:/);
    expect(html.match(/<a href="\/maya\/go\//g)).toHaveLength(2);
    // A network is an icon named for screen readers; any other link a button with its destination under its title.
    expect(html).toContain('<a href="/maya/go/youtube" rel="noopener" aria-label="YouTube">');
    expect(html).toContain('<a href="/maya/go/newsletter" rel="noopener">');
    expect(html).toContain("<b>Newsletter</b><small>maya.example/letters</small>");
    expect(html).not.toContain("https://www.youtube.com/@maya\"");
  });

  it("carries the canonical address, Open Graph and Twitter tags, and stays far under 20 KB at the limits", () => {
    const full = renderBioPage(
      page({
        name: "N".repeat(99),
        blurb: "word ".repeat(199),
        links: LINK_TYPES.slice(0, 10).map((type) => ({ type, url: `https://www.${type}.com/${"p".repeat(80)}` })),
        sponsorships: Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, title: "T".repeat(100), minContributionCents: 1_000_050, currency: "usd", benefits: ["B".repeat(200), "b", "c", "d"], description: "" })),
        packages: Array.from({ length: MAX_PACKAGES_PER_PAGE }, (_, i) => ({ id: `pkg_${i}`, title: `${i}${"K".repeat(MAX_PACKAGE_TITLE - 1)}`, details: `${i}${"word ".repeat(99)}`, price: 9_999_950, currency: "usd", turnaroundDays: 90 })),
        takesPayments: true,
      }),
      site,
      "abc",
    );
    expect(full).toContain('<link rel="canonical" href="https://bio.sponsorgrid.example/maya">');
    expect(full).toContain('<meta property="og:image" content="https://bio.sponsorgrid.example/maya/share.png?v=abc">');
    expect(full).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(full).toContain('<html lang="en">');
    expect(full).toContain('<meta name="viewport"');
    expect(full).toContain('<a href="https://sponsorgrid.example/">Made with Sponsorgrid</a>');
    const description = full.match(/<meta name="description" content="([^"]*)">/)![1]!;
    expect([...description].length).toBeLessThanOrEqual(160);
    expect(zlib.brotliCompressSync(full).length).toBeLessThan(20_000);
    expect(full.match(/>Sponsor</g)).toHaveLength(10);
    expect(full.match(/>Request</g)).toHaveLength(MAX_PACKAGES_PER_PAGE);
    // Only the icons the page uses.
    expect(full.match(/<svg/g)).toHaveLength(10);
  });

  it("shortens long destinations and drops www.", () => {
    expect(shownDestination(new URL("https://www.example.com/"))).toBe("example.com");
    expect(shownDestination(new URL(`https://example.com/${"a".repeat(80)}`))).toHaveLength(48);
  });

  it("has a 404 page with no script that says what happened", () => {
    const html = renderNotFound(site);
    expect(html).toContain("This page doesn't exist");
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toMatch(/<script/i);
  });
});

describe("share image", () => {
  it("escapes what the page holds and wraps long text into a few lines", () => {
    const svg = shareImageSvg(page({ name: HOSTILE, blurb: "\u0000\u0007 bell" }), site);
    expect(svg).not.toContain("<script");
    expect(svg.includes("\u0000") || svg.includes("\u0007")).toBe(false);
    expect(wrapText("a ".repeat(200), 10, 3)).toHaveLength(3);
    expect(wrapText("a ".repeat(200), 10, 3).at(-1)).toMatch(/…$/);
    expect(wrapText("x".repeat(30), 10, 2)).toEqual(["x".repeat(10), `${"x".repeat(9)}…`]);
    expect(wrapText("short", 10, 2)).toEqual(["short"]);
  });
});

describe("human visits", () => {
  const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  it("counts a browser's GET, not HEAD, crawlers, previews, prefetches or no User-Agent", () => {
    expect(isHumanVisit("GET", { "user-agent": chrome })).toBe(true);
    expect(isHumanVisit("HEAD", { "user-agent": chrome })).toBe(false);
    expect(isHumanVisit("GET", { "user-agent": "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)" })).toBe(false);
    expect(isHumanVisit("GET", { "user-agent": "facebookexternalhit/1.1" })).toBe(false);
    expect(isHumanVisit("GET", { "user-agent": "curl/8.5.0" })).toBe(false);
    expect(isHumanVisit("GET", {})).toBe(false);
    expect(isHumanVisit("GET", { "user-agent": chrome, "sec-purpose": "prefetch" })).toBe(false);
    expect(isHumanVisit("GET", { "user-agent": chrome, "sec-purpose": "prefetch;prerender" })).toBe(false);
    expect(isHumanVisit("GET", { "user-agent": chrome, purpose: "prefetch" })).toBe(false);
    expect(isHumanVisit("GET", { "user-agent": chrome, "x-moz": "prefetch" })).toBe(false);
  });
});

describe("bio page pay actions", () => {
  const options = [
    { id: "9_post", title: "Mid-roll <ad>", minContributionCents: 2500, currency: "usd", benefits: ["60 seconds in the video", "Link in the description"], description: "A mid-roll read." },
    { id: "8_free", title: "Shout-out", minContributionCents: 0, currency: "usd", benefits: [], description: "A thank-you\nat the end." },
  ];

  it("links each collectable option and a tip to the app host's checkout, with no script and no form", () => {
    const html = renderBioPage(page({ sponsorships: options, takesPayments: true }), site, "v1");
    expect(html).toContain(
      `<a class="p" href="https://sponsorgrid.example/app/payments/checkout?page=maya&amp;option=9_post" aria-label="Sponsor Mid-roll &lt;ad&gt;">Sponsor</a>`,
    );
    expect(html).toContain(`<a href="https://sponsorgrid.example/app/payments/checkout?page=maya&amp;kind=tip&amp;amount=500">$5</a>`);
    // Read as offers: the price where it starts, and what the sponsor gets.
    expect(html).toContain(`<b>Mid-roll &lt;ad&gt;</b><span class="r">From $25</span><ul class="g" aria-label="What you get"><li>60 seconds in the video</li><li>Link in the description</li></ul>`);
    // A $0 minimum: no Sponsor action, the SPEC's sentence instead; no benefits, so the description.
    expect(html.match(/>Sponsor</g)).toHaveLength(1);
    expect(html).toContain(`<b>Shout-out</b><span class="r">Funds can&#39;t be collected through Sponsorgrid</span><p class="d">A thank-you at the end.</p></li>`);
    expect(html).not.toMatch(/<script|<form/i);
  });

  it("offers no pay action while the owner's payout account is not complete", () => {
    const html = renderBioPage(page({ sponsorships: options, takesPayments: false }), site, "v1");
    expect(html).not.toContain("/app/payments/checkout");
    expect(html).toContain("From $25");
  });

  it("offers tips on a page with no sponsorship options", () => {
    const html = renderBioPage(page({ takesPayments: true }), site, "v1");
    expect(html).toContain(`<h2 id="u">Support Maya</h2>`);
    expect(html).not.toContain("Sponsorship options");
  });

  it("shows the owner's photo (AVIF, else WebP, 1× and 2×, sized, alt empty beside the name), else the initial", () => {
    const id = "0123456789abcdef0123456789abcdef";
    const html = renderBioPage(page({ photoId: id }), site, "v1");
    expect(html).toContain(`<source type="image/avif" srcset="/media/photos/${id}-96.avif 1x, /media/photos/${id}-192.avif 2x">`);
    expect(html).toMatch(new RegExp(`<img class="i" src="/media/photos/${id}-96.webp" srcset="/media/photos/${id}-96.webp 1x, /media/photos/${id}-192.webp 2x" width="88" height="88" alt=""`));
    expect(html).not.toContain(`aria-hidden="true">M</div>`);
    expect(renderBioPage(page(), site, "v1")).toContain(`<div class="i" aria-hidden="true">M</div>`);
  });
});

describe("the Report link", () => {
  it("is on every page, a plain link (no form, no script) to the app host's report form for that page", () => {
    const html = renderBioPage(page({ customEnding: "maya_2" }), site, "v1");
    expect(html).toContain(`<a href="https://sponsorgrid.example/report?page=maya_2" rel="nofollow">Report this page</a>`);
    expect(html).not.toMatch(/<form|<script/i);
  });

  it("is not on the host's own 404", () => {
    expect(renderNotFound(site)).not.toContain("Report this page");
  });
});
