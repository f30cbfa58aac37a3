import { DEMO, expect, signIn, test } from "./fixtures";
import { APP_ORIGIN } from "#tests/support/e2e-ports";

/** SPEC §2.1 opens the opportunity marketplace to guests: search engines may index it; signed-in pages stay out. */
test("the opportunity list and each opportunity are indexable, in the sitemap and allowed by robots.txt", async ({ page, request }) => {
  await page.goto("/app/opportunities");
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${APP_ORIGIN}/app/opportunities`);

  const detailHref = await page.getByRole("main").locator(".opportunity-card h3 a").first().getAttribute("href");
  expect(detailHref).toMatch(/^\/app\/opportunities\/[0-9]{10}_/);
  await page.goto(detailHref!);
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${APP_ORIGIN}${detailHref}`);

  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).toContain(`<loc>${APP_ORIGIN}/app/opportunities</loc>`);
  expect(sitemap).toContain(`<loc>${APP_ORIGIN}${detailHref}</loc>`);
  expect(sitemap).not.toMatch(/\/app\/opportunities\/(new|edit|sponsor)</);

  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("Allow: /app/opportunities\n");
  for (const path of ["/app/opportunities/new", "/app/opportunities/edit", "/app/opportunities/sponsor"]) expect(robots).toContain(`Disallow: ${path}\n`);
});

test("signed-in pages stay noindex", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  for (const path of ["/app", "/app/account", "/app/account/opportunities", "/app/account/opportunities/liked", "/app/opportunities/new"]) {
    await page.goto(path);
    await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute("content", "noindex, nofollow");
    await expect(page.locator('link[rel="canonical"]'), path).toHaveCount(0);
  }
});
