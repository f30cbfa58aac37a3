import { describe, expect, it } from "vitest";
import { publicBioPage } from "#tests/support/public-bio-page";
import type { BioPackage } from "#server/domains/bio/packages";
import { renderBioPage } from "#server/domains/bio/host/page-html";
import { packagesSection } from "./packages";

const site = { bioOrigin: "https://bio.sponsorgrid.example", publicOrigin: "https://sponsorgrid.example", appName: "Sponsorgrid" };
const HOSTILE = `</h3><script>alert("x")</script><img src=x onerror='alert(1)'>`;
const item = (fields: Partial<BioPackage> = {}): BioPackage => ({ id: "pkg_abc", title: "Dedicated video", details: "One video.\nA pinned comment.", price: 75_000, currency: "usd", turnaroundDays: 14, ...fields });

describe("the Work with me section", () => {
  it("lists each package with its price, turnaround and a Request link to the app host, then one Make an offer link", () => {
    const html = packagesSection(publicBioPage({ packages: [item(), item({ id: "pkg_two", title: "Short", price: 25_050, turnaroundDays: 1 })] }), site);
    expect(html).toContain('<section aria-labelledby="k"><h2 id="k">Work with me</h2><ul class="s k">');
    expect(html).toContain("<li><h3>Dedicated video</h3>");
    expect(html).toContain('<span class="r">$750</span><small>Delivered within 14 days</small>');
    expect(html).toContain('<span class="r">$250.50</span><small>Delivered within 1 day</small>');
    expect(html).toContain('<a class="p" href="https://sponsorgrid.example/app/deals/new?page=maya&amp;package=pkg_abc" aria-label="Request Dedicated video">Request</a>');
    expect(html).toContain('<a class="p" href="https://sponsorgrid.example/app/deals/new?page=maya&amp;package=pkg_two" aria-label="Request Short">Request</a>');
    expect(html).toContain('<p class="t"><a class="p" href="https://sponsorgrid.example/app/deals/new?page=maya">Make an offer</a></p></section>');
    expect(html.match(/<a /g)).toHaveLength(3);
  });

  it("is only the Make an offer link with no packages, and nothing while the page takes no payments", () => {
    expect(packagesSection(publicBioPage(), site)).toBe(
      '<section aria-labelledby="k"><h2 id="k">Work with me</h2><p class="t"><a class="p" href="https://sponsorgrid.example/app/deals/new?page=maya">Make an offer</a></p></section>',
    );
    expect(packagesSection(publicBioPage({ takesPayments: false, packages: [item()] }), site)).toBe("");
  });

  it("escapes what the creator typed, and the page around it stays without script", () => {
    const sponsorships = [{ id: "opt", title: "Shout-out", minContributionCents: 2500, currency: "usd", benefits: [], description: "" }];
    const links = [{ type: "website" as const, url: "https://maya.example" }];
    const html = renderBioPage(publicBioPage({ links, sponsorships, packages: [item({ title: HOSTILE, details: HOSTILE })] }), site, "v1");
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain("<h3>&lt;/h3&gt;&lt;script&gt;");
    expect(html).toContain('aria-label="Request &lt;/h3&gt;');
    // After the links, before the sponsorship options.
    expect(html.indexOf('id="k"')).toBeGreaterThan(html.indexOf("/maya/go/website"));
    expect(html.indexOf('id="k"')).toBeLessThan(html.indexOf('id="s"'));
  });
});
