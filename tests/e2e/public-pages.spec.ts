import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { FOOTER_LINKS, MAIN_NAV, PUBLIC_PAGES } from "./routes";
import { APP_ORIGIN, BIO_HOST } from "#tests/support/e2e-ports";

const BLOG_POSTS = [
  "/blog/how-to-price-a-sponsored-video",
  "/blog/writing-a-sponsorship-pitch-that-gets-answered",
  "/blog/media-kit-checklist-for-small-creators",
];

for (const page of PUBLIC_PAGES) {
  test(`${page.path} has its title, heading, navigation, footer and no a11y violations`, async ({ page: tab }) => {
    const response = await tab.goto(page.path);
    expect(response?.status()).toBe(200);
    await expect(tab).toHaveTitle(`${page.title} | Sponsorgrid`);
    await expect(tab.getByRole("heading", { level: 1 })).toHaveText(page.heading);
    await expect(tab.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
    await expect(tab.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/og-default\.png$/);
    await expect(tab.locator('meta[name="robots"]')).toHaveCount(0);

    const nav = tab.getByRole("navigation", { name: "Main", exact: true });
    for (const [label, href] of MAIN_NAV) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    }
    const footer = tab.getByRole("contentinfo");
    for (const [label, href] of FOOTER_LINKS) {
      await expect(footer.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    }
    await expect(footer.getByRole("link", { name: "help@sponsorgrid.example" })).toHaveAttribute(
      "href",
      "mailto:help@sponsorgrid.example",
    );
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Sponsorgrid contributors`);

    const results = await new AxeBuilder({ page: tab }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
  });
}

test("content pages ship no JavaScript at all", async ({ request }) => {
  for (const path of [...PUBLIC_PAGES.map((p) => p.path), ...BLOG_POSTS]) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toContain("<script");
  }
});

test("blog index links to each post, and each post renders at its own URL", async ({ page }) => {
  await page.goto("/blog");
  const links = page.getByRole("main").getByRole("link", { name: /^Read “/ });
  expect(await links.count()).toBeGreaterThanOrEqual(3);
  const first = page.getByRole("main").getByRole("heading", { level: 2 }).first();
  const title = (await first.textContent())!.trim();
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page).toHaveTitle(`${title} | Sponsorgrid`);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test("every footer link leads to a page that exists", async ({ page, request }) => {
  await page.goto("/");
  const hrefs = await page.getByRole("contentinfo").getByRole("link").evaluateAll((links) =>
    links.map((link) => link.getAttribute("href")!).filter((href) => href.startsWith("/")),
  );
  expect(hrefs.length).toBeGreaterThanOrEqual(13);
  for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
});

test("home page sends creators and sponsors to sign up with their side chosen", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "I'm a creator" })).toHaveAttribute("href", "/signup?type=creator");
  await expect(page.getByRole("link", { name: "I'm a sponsor" })).toHaveAttribute("href", "/signup?type=sponsor");
});

test("featured shows the opportunities and bio pages picked in the database", async ({ page }) => {
  await page.goto("/featured");
  const opportunities = page.getByRole("region", { name: "Featured opportunities" }).getByRole("listitem").filter({ has: page.getByRole("heading") });
  await expect(opportunities).toHaveCount(6);
  await expect(page.getByRole("heading", { name: "Maya Chen | Maya Makes" })).toBeVisible();
  await expect(page.getByText(`${BIO_HOST}/mayamakes`)).toBeVisible();

  // The page ships no JavaScript: a heart is a plain form submission, and a guest is sent to sign in and back.
  await opportunities.first().getByRole("button", { name: /^Save “/ }).click();
  await expect(page).toHaveURL("/signin?redirectTo=%2Ffeatured");
});

test("sitemap lists every public page and robots.txt points at it", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const path of [...PUBLIC_PAGES.map((p) => p.path), ...BLOG_POSTS]) {
    expect(sitemap).toContain(`<loc>${APP_ORIGIN}${path === "/" ? "/" : path}</loc>`);
  }
  const robots = await request.get("/robots.txt");
  expect(robots.headers()["content-type"]).toContain("text/plain");
  const text = await robots.text();
  expect(text).toContain("Disallow: /app/");
  expect(text).toContain(`Sitemap: ${APP_ORIGIN}/sitemap.xml`);
});

test.describe("on a 360 px wide phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  for (const path of ["/", "/youtube-sponsorships", "/featured", "/blog"]) {
    test(`${path} fits the screen and its menu opens without JavaScript`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(page.getByRole("navigation", { name: "Main", exact: true })).toBeHidden();
      await page.getByText("Menu", { exact: true }).click();
      const mobileNav = page.getByRole("navigation", { name: "Main (mobile)" });
      for (const [label, href] of MAIN_NAV) {
        await expect(mobileNav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
      }
      await context.close();
    });
  }
});
