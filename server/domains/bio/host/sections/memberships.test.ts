import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { publicBioPage } from "#tests/support/public-bio-page";
import type { PublicTier } from "#server/domains/memberships/public-tiers";
import { renderBioPage } from "#server/domains/bio/host/page-html";
import { membershipsSection } from "./memberships";

const site = { bioOrigin: "https://bio.sponsorgrid.example", publicOrigin: "https://sponsorgrid.example", appName: "Sponsorgrid" };
const HOSTILE = `</b><script>alert("x")</script><img src=x onerror='alert(1)'>`;
const tier = (fields: Partial<PublicTier> = {}): PublicTier => ({
  id: "tier_gold",
  name: "Gold",
  monthlyPrice: 500,
  yearlyPrice: 5000,
  currency: "usd",
  benefits: ["Early videos", "A monthly call"],
  spotsLeft: null,
  ...fields,
});

describe("the Become a member section", () => {
  it("lists each tier with its prices, benefits, places left and a plain Join link to the app host", () => {
    const html = membershipsSection(publicBioPage({ tiers: [tier(), tier({ id: "tier_x", name: "Inner circle", monthlyPrice: 2050, yearlyPrice: null, benefits: [], spotsLeft: 1 })] }), site);
    expect(html).toContain('<section aria-labelledby="m"><h2 id="m">Become a member</h2><ul class="s m">');
    expect(html).toContain('<li><b>Gold</b><span class="r">$5/month</span><small>or $50/year</small><ul class="g" aria-label="What members get"><li>Early videos</li><li>A monthly call</li></ul>');
    expect(html).toContain('<a class="p" href="https://sponsorgrid.example/app/memberships/join?page=maya&amp;tier=tier_gold" aria-label="Join Gold">Join</a>');
    expect(html).toContain('<li><b>Inner circle</b><span class="r">$20.50/month</span><small>1 spot left</small><a class="p"');
    expect(membershipsSection(publicBioPage({ tiers: [tier({ spotsLeft: 3 })] }), site)).toContain("<small>3 spots left</small>");
  });

  it("says Full with no link when no place is left, and shows nothing without tiers or payments", () => {
    const full = membershipsSection(publicBioPage({ tiers: [tier({ spotsLeft: 0 })] }), site);
    expect(full).toContain('<span class="f">Full</span>');
    expect(full).not.toContain("<a ");
    expect(membershipsSection(publicBioPage(), site)).toBe("");
    expect(membershipsSection(publicBioPage({ takesPayments: false, tiers: [tier()] }), site)).toBe("");
  });

  it("escapes what the creator typed, comes right after Support, and keeps the page without script and small", () => {
    const tiers = Array.from({ length: 5 }, (_, i) =>
      tier({ id: `tier_${i}`, name: `${HOSTILE}${i}`.slice(0, 60), benefits: Array.from({ length: 8 }, () => "b".repeat(140)), spotsLeft: i }),
    );
    const html = renderBioPage(publicBioPage({ tiers }), site, "v1");
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain("<b>&lt;/b&gt;&lt;script&gt;");
    expect(html.indexOf('id="m"')).toBeGreaterThan(html.indexOf('id="u"'));
    // The bio host's budget: a page with five full tiers is well under 30 KB compressed.
    expect(zlib.brotliCompressSync(html).length).toBeLessThan(30 * 1024);
    expect(zlib.gzipSync(html).length).toBeLessThan(30 * 1024);
  });
});
