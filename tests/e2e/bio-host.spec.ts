import AxeBuilder from "@axe-core/playwright";
import { randomInt } from "node:crypto";
import http from "node:http";
import { expect, test } from "#tests/e2e/fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { APP_ORIGIN, BIO_HOST, BIO_ORIGIN, E2E_PORT } from "#tests/support/e2e-ports";

/**
 * The public bio host: a signed-out browser on
 * BIO_ORIGIN, http://bio.localhost:3100 by default (Chromium resolves *.localhost to this machine).
 * Exact view counts are read through the bio-views test hook on the app host, which
 * writes the counts still in memory first. Counts are checked on demo pages
 * no other spec opens (brightleaf_foods, northwind_audio), since specs run in parallel.
 */
const BIO = BIO_ORIGIN;
const COUNTED = "brightleaf_foods";
// Clicks are checked on another page, so that this spec's tests can run in parallel.
const CLICKED = "northwind_audio";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** A client address of its own (the app trusts one proxy hop, which the test plays). */
const randomClient = () => `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** Node's http, because Node's fetch may not resolve bio.localhost and will not send our own Host. */
function raw(path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: E2E_PORT, path, method: options.method ?? "GET", headers: { host: BIO_HOST, ...options.headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (piece: string) => (body += piece));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test.describe("bio host", () => {
  test("a signed-out visitor sees the page: name, about text, links, and no cookie", async ({ page, context }) => {
    const response = await page.goto(`${BIO}/mayamakes`);
    expect(response!.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Maya Chen | Maya Makes" })).toBeVisible();
    await expect(page.getByText("Maker, YouTuber, and host of the Small Shop Hours podcast.")).toBeVisible();
    // Networks are a row of icons named for screen readers; other links are buttons showing where they lead.
    const youtube = page.getByRole("navigation", { name: "Social networks" }).getByRole("link", { name: "YouTube" });
    await expect(youtube).toHaveAttribute("href", "/mayamakes/go/youtube");
    await expect(page.getByRole("link", { name: "Instagram" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Links" }).getByRole("link", { name: /Patreon/ })).toContainText("patreon.com/mayamakes");
    await expect(page.getByRole("link", { name: "Made with Sponsorgrid" })).toHaveAttribute("href", `${APP_ORIGIN}/`);
    await expect(page.locator("script")).toHaveCount(0);

    const headers = response!.headers();
    expect(headers["set-cookie"]).toBeUndefined();
    expect(headers["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-[^']+' 'sha256-[^']+'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'$/);
    expect(headers["content-security-policy"]).not.toMatch(/script-src/);
    expect(await context.cookies()).toEqual([]);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${BIO}/mayamakes`);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", new RegExp(`^${BIO}/mayamakes/share\\.png\\?v=`));

    // The share image, as a crawler would fetch it (through the browser, which resolves bio.localhost).
    const image = (await page.goto((await page.locator('meta[property="og:image"]').getAttribute("content"))!))!;
    expect(image.headers()["content-type"]).toBe("image/png");
    expect((await image.body()).readUInt32BE(16)).toBe(1200);
  });

  test("one view per visitor's network and half hour; bots, HEAD and prefetches do not count", async ({ page, request }) => {
    const counts = () => testHooks(request).bioViews(COUNTED);
    const before = await counts();
    const human = "Mozilla/5.0 Chrome/131.0";

    // This browser (its own client address, from the fixture) opens and reloads the page: one view.
    for (let i = 0; i < 3; i++) {
      expect((await page.goto(`${BIO}/${COUNTED}`))!.status()).toBe(200);
    }
    await page.reload();
    // Other visitors, each from an address of its own: bots, HEAD and prefetches are not views; a person is.
    expect((await raw(`/${COUNTED}`, { headers: { "user-agent": GOOGLEBOT, "x-forwarded-for": randomClient() } })).status).toBe(200);
    expect((await raw(`/${COUNTED}`, { method: "HEAD", headers: { "user-agent": human, "x-forwarded-for": randomClient() } })).status).toBe(200);
    expect((await raw(`/${COUNTED}`, { headers: { "user-agent": human, "sec-purpose": "prefetch", "x-forwarded-for": randomClient() } })).status).toBe(200);
    // One client asking 50 times is one view.
    const flooder = randomClient();
    for (let i = 0; i < 50; i++) expect((await raw(`/${COUNTED}`, { headers: { "user-agent": human, "x-forwarded-for": flooder } })).status).toBe(200);

    const after = await counts();
    expect(after.views).toBe(before.views + 2);
    expect(after.today).toBe(before.today + 2);
  });

  test("a link click is counted once per visitor and goes to the stored address", async ({ page, request }) => {
    const counts = () => testHooks(request).bioViews(CLICKED);
    const before = await counts();
    await page.goto(`${BIO}/${CLICKED}`);
    const link = page.locator("nav a").first();
    const type = (await link.getAttribute("href"))!.split("/").at(-1)!;
    const clicker = randomClient();
    for (let i = 0; i < 5; i++) {
      const redirect = await raw(`/${CLICKED}/go/${type}`, { headers: { "user-agent": "Mozilla/5.0 Chrome/131.0", "x-forwarded-for": clicker } });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.location).toMatch(/^https?:\/\//);
    }
    await raw(`/${CLICKED}/go/${type}`, { headers: { "user-agent": GOOGLEBOT, "x-forwarded-for": randomClient() } });
    // HEAD answers as GET does, without a body and without a click.
    const head = await raw(`/${CLICKED}/go/${type}`, { method: "HEAD", headers: { "user-agent": "Mozilla/5.0 Chrome/131.0", "x-forwarded-for": randomClient() } });
    expect(head.status).toBe(302);
    expect(head.headers.location).toMatch(/^https?:\/\//);
    expect(head.body).toBe("");
    const after = await counts();
    expect(after.clicks[type] ?? 0).toBe((before.clicks[type] ?? 0) + 1);
  });

  test("unknown endings and app routes get the bio host's own 404", async ({ page }) => {
    for (const path of ["/no_such_page_here", "/app", "/signin", "/app/account/bizbio", "/api/auth/callback/google"]) {
      const response = await page.goto(`${BIO}${path}`);
      expect(response!.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "This page doesn't exist" })).toBeVisible();
      expect(response!.headers()["set-cookie"]).toBeUndefined();
    }
    expect((await raw("/mayamakes", { method: "POST" })).status).toBe(405);
  });

  test("fits a phone without horizontal scroll, and axe finds nothing", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of ["/mayamakes", "/no_such_page_here"]) {
      await page.goto(`${BIO}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations, path).toEqual([]);
    }
    // Tap targets: every link on the page is at least 48 px tall.
    await page.goto(`${BIO}/mayamakes`);
    const heights = await page.locator("nav a").evaluateAll((links) => links.map((link) => link.getBoundingClientRect().height));
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(48);
  });
});
