import { publicBioPage } from "#tests/support/public-bio-page";
import { describe, expect, it } from "vitest";
import type { PublicBioPage } from "#server/domains/bio/public-page";
import { renderBioPage } from "#server/domains/bio/host/page-html";
import { supportSection } from "./support";

const site = { bioOrigin: "https://bio.sponsorgrid.example", publicOrigin: "https://sponsorgrid.example", appName: "Sponsorgrid" };

function page(overrides: Partial<PublicBioPage> = {}): PublicBioPage {
  return publicBioPage({ blurb: "Maker.", ...overrides });
}

const checkout = "https://sponsorgrid.example/app/payments/checkout?page=maya&amp;kind=tip";

describe("the support block", () => {
  it("offers the creator's preset amounts and Other as plain links to checkout, right after the header", () => {
    const html = supportSection(page({ tipPresets: [250, 700, 2000] }), site);
    expect(html).toBe(
      `<section class="u" aria-labelledby="u"><h2 id="u">Support Maya</h2><ul class="a">` +
        `<li><a href="${checkout}&amp;amount=250">$2.50</a></li>` +
        `<li><a href="${checkout}&amp;amount=700">$7</a></li>` +
        `<li><a href="${checkout}&amp;amount=2000">$20</a></li>` +
        `<li><a class="o" href="${checkout}">Other</a></li></ul></section>`,
    );
    const full = renderBioPage(page(), site, "v1");
    expect(full.indexOf("Support Maya")).toBeGreaterThan(full.indexOf("</header>"));
    expect(full).not.toMatch(/<script|<form/i);
  });

  it("escapes the name in its heading", () => {
    const html = supportSection(page({ name: `<img src=x onerror="alert(1)">&` }), site);
    expect(html).toContain("Support &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;</h2>");
    expect(html).not.toContain("<img");
  });

  it("is not there when the page can't take payments or its owner turned tips off", () => {
    expect(supportSection(page({ takesPayments: false }), site)).toBe("");
    expect(supportSection(page({ acceptTips: false }), site)).toBe("");
    expect(renderBioPage(page({ acceptTips: false }), site, "v1")).not.toContain("kind=tip");
  });

  it("leaves out a stored amount that is not a whole positive number of minor units", () => {
    const html = supportSection(page({ tipPresets: [500, -1, 1.5, Number.NaN] }), site);
    expect(html.match(/amount=/g)).toHaveLength(1);
    expect(html).toContain(">Other</a>");
  });
});
