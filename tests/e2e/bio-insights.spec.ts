import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContextOptions, Page } from "@playwright/test";
import { randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import { DEMO, expect, signedInAs, signIn, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * The owner's insights of one bio page: charts drawn on the
 * server with their tables, the QR code and its downloads, the share image.
 * The page and its counts come from the insights-page test hook
 * (server/tools/test-hooks/bio.ts), which counts, back from today:
 * views 5 (today), 12 (3 days ago), 17 (10 days ago), 3 (20), 1 (29) and 50
 * (40 days ago, outside the chart); clicks YouTube 9 (yesterday) + 4 (45 days
 * ago), Website 2, Instagram none. The views of 3 days ago came from
 * instagram.com, those of 10 days ago from youtube.com, the rest direct.
 */
const PHONE = { width: 375, height: 812 };
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const shortDay = (daysAgo: number) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(Date.now() - daysAgo * 86_400_000));

/** A browser of its own: its own client address, the hooks' secret, and whatever else it needs. */
async function otherClient(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({
    ...options,
    extraHTTPHeaders: {
      "X-Forwarded-For": `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`,
      "X-Test-Routes-Secret": process.env.E2E_TEST_ROUTES_SECRET!,
    },
  });
  return { context, page: await context.newPage() };
}

/** A fresh verified user who owns one seeded bio page. */
async function ownerWithPage(page: Page, name: string) {
  await signedInAs(page, { prefix: "insights", name: "Insights Owner" });
  return testHooks(page.request).insightsPage({ name });
}

async function expectNoSideScroll(page: Page, phone = PHONE) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `the page is ${width} px wide on a ${phone.width} px phone`).toBeLessThanOrEqual(phone.width);
}

test("the owner sees views per day, clicks per link, the QR code and the share image, and downloads the QR code", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { id, customEnding } = await ownerWithPage(page, "Maker's Corner");
  const insights = `/app/account/bizbio/${id}/insights`;
  const response = await page.goto(insights);
  // The bio host is plain http here: the policy must name it for the share image to show.
  const imgSrc = response!.headers()["content-security-policy"]!.split(";").find((d) => d.trim().startsWith("img-src"));
  expect(imgSrc?.trim().split(" ")).toContain(BIO_ORIGIN);
  await expect(page).toHaveTitle("Insights: Maker's Corner | Sponsorgrid");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Maker's Corner");
  const address = `${BIO_ORIGIN}/${customEnding}`;
  await expect(page.getByRole("link", { name: address.replace("http://", "") })).toHaveAttribute("href", address);
  await expect(page.getByRole("definition").first()).toHaveText("38");
  await expect(page.getByRole("definition").nth(1)).toHaveText("88 views all time");
  // Read-only numbers: the route ships no JavaScript at all.
  await expect(page.locator("script")).toHaveCount(0);

  const views = page.getByRole("region", { name: "Views per day" });
  await expect(views.getByRole("img")).toHaveAttribute(
    "aria-label",
    `Views per day, last 30 days: 38 in total, most on ${shortDay(10)} (17)`,
  );
  await expect(views.locator("circle[data-point]")).toHaveCount(30);
  await views.getByText("Show as table").click();
  const viewsTable = views.getByRole("table", { name: "Views per day, last 30 days (UTC)" });
  await expect(viewsTable.locator("tbody tr")).toHaveCount(30);
  await expect(viewsTable.locator("tbody tr").first().getByRole("cell")).toHaveText("5");
  await expect(viewsTable.locator("tbody tr").nth(10).getByRole("cell")).toHaveText("17");

  const clicks = page.getByRole("region", { name: "Clicks per link" });
  await expect(clicks.getByRole("img")).toHaveAttribute("aria-label", "Clicks per link: 11 in the last 30 days, most on YouTube (9); 15 in all");
  await expect(clicks.locator("rect[data-bar]")).toHaveCount(6);
  await clicks.getByText("Show as table").click();
  const rows = clicks.getByRole("table", { name: "Clicks per link" }).locator("tbody tr");
  await expect(rows).toHaveText([/^YouTube\s*9\s*13$/, /^Website\s*2\s*2$/, /^Instagram\s*0\s*0$/]);

  await expect(page.getByRole("img", { name: `QR code for ${address}` })).toBeVisible();
  await expect(page.getByRole("img", { name: `QR code for ${address}` }).locator("svg path")).not.toHaveCount(0);

  const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PNG" }).click()]);
  expect(png.suggestedFilename()).toBe(`sponsorgrid-${customEnding}-qr.png`);
  const pngBytes = await readFile((await png.path())!);
  expect([...pngBytes.subarray(0, 8)]).toEqual(PNG_MAGIC);
  expect([pngBytes.readUInt32BE(16), pngBytes.readUInt32BE(20)]).toEqual([1024, 1024]);
  const [svg] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download SVG" }).click()]);
  expect(svg.suggestedFilename()).toBe(`sponsorgrid-${customEnding}-qr.svg`);
  expect(await readFile((await svg.path())!, "utf8")).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1024" height="1024"/);
  const headers = (await page.request.get(`/app/account/bizbio/${id}/qr.png`)).headers();
  expect(headers["content-type"]).toBe("image/png");
  expect(headers["cache-control"]).toBe("private, no-store");

  const share = page.getByRole("img", { name: /^Share image of Maker's Corner/ });
  await expect(share).toHaveAttribute("src", new RegExp(`^${address}/share\\.png\\?v=\\d{13}$`));
  await expect(share).toHaveAttribute("width", "1200");
  await expect(share).toHaveAttribute("height", "630");
  await expect(page.getByRole("link", { name: "Open the share image (1200 × 630 px)" })).toHaveAttribute("href", (await share.getAttribute("src"))!);

  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.setViewportSize(PHONE);
  await expectNoSideScroll(page);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // Someone else, signed in, learns nothing: the page, and both QR codes, are 404.
  const stranger = await otherClient(browser);
  await signIn(stranger.page, DEMO.email, DEMO.password);
  await expect(stranger.page).toHaveURL("/app");
  expect((await stranger.page.goto(insights))?.status()).toBe(404);
  await expect(stranger.page.getByText("Maker's Corner")).toHaveCount(0);
  for (const file of ["qr.png", "qr.svg"]) {
    const response = await stranger.page.request.get(`/app/account/bizbio/${id}/${file}`);
    expect(response.status(), file).toBe(404);
    expect(response.headers()["content-disposition"]).toBeUndefined();
  }
  await stranger.context.close();

  // A guest is sent to sign in.
  const guest = await otherClient(browser);
  await guest.page.goto(insights);
  await expect(guest.page).toHaveURL(/\/signin\?redirectTo=/);
  expect((await guest.page.request.get(`/app/account/bizbio/${id}/qr.png`, { maxRedirects: 0 })).status()).toBe(302);
  await guest.context.close();
});

test("without JavaScript, on a 375 px phone, the charts and their tables are all there", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { id } = await ownerWithPage(page, "No Script Studio");
  const phone = await otherClient(browser, { javaScriptEnabled: false, viewport: PHONE, storageState: await page.context().storageState() });
  await phone.page.goto(`/app/account/bizbio/${id}/insights`);
  await expect(phone.page.getByRole("heading", { level: 1 })).toHaveText("No Script Studio");
  await expect(phone.page.locator('svg[data-chart="views"]')).toHaveAttribute("aria-label", /^Views per day, last 30 days: 38 in total/);
  await expect(phone.page.locator('svg[data-chart="clicks"]')).toHaveAttribute("aria-label", /^Clicks per link: 11 in the last 30 days/);
  for (const [region, table, count] of [
    ["Views per day", "Views per day, last 30 days (UTC)", 30],
    ["Clicks per link", "Clicks per link", 3],
  ] as const) {
    const section = phone.page.getByRole("region", { name: region });
    await section.getByText("Show as table").click();
    await expect(section.getByRole("table", { name: table }).locator("tbody tr")).toHaveCount(count);
  }
  await expect(phone.page.getByRole("img", { name: /^QR code for / })).toBeVisible();
  await expectNoSideScroll(phone.page);
  await phone.context.close();
});

test("a page nobody has seen says so and invites the owner to share it", async ({ page }) => {
  test.setTimeout(120_000);
  await ownerWithPage(page, "Seeded");
  // A second page of the same owner, with its links but no counts at all.
  const { id } = await testHooks(page.request).insightsPage({ name: "Quiet Page", empty: true });
  await page.goto(`/app/account/bizbio/${id}/insights`);
  await expect(page.getByRole("region", { name: "Views per day" })).toContainText("No views yet");
  await expect(page.getByRole("region", { name: "Views per day" })).toContainText("Share your page’s address or its QR code below");
  await expect(page.getByRole("region", { name: "Views per day" }).getByRole("img")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Clicks per link" })).toContainText("No clicks yet");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

/** The preview is the bio host's own share.png, loaded cross-origin by the app's page. */
test("the share image preview loads from the bio host at 1200 × 630", async ({ page }) => {
  test.setTimeout(120_000);
  const { id } = await ownerWithPage(page, "Share Image Shop");
  await page.goto(`/app/account/bizbio/${id}/insights`);
  const share = page.getByRole("img", { name: /^Share image of Share Image Shop/ });
  await share.scrollIntoViewIfNeeded();
  await expect.poll(() => share.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
  expect(await share.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(630);
});

const MOBILE_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

for (const [screen, viewport] of [
  ["a 390 px phone", { width: 390, height: 844 }],
  ["a desktop", { width: 1280, height: 900 }],
] as const) {
  test(`on ${screen}: visits from other sites are counted and shown by site, the period switches without JavaScript, and the chart reads as a table`, async ({ page, browser }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const { id, customEnding } = await ownerWithPage(page, `Referred on ${screen}`);

    // Three people on three networks follow links to the page; the first reloads it (still one view).
    // A browser that calls itself headless would not be counted: these say they are Chrome on a phone.
    for (const [referer, opens] of [
      ["http://l.instagram.com/?u=https%3A%2F%2Fexample.org&e=private", 2],
      ["http://www.instagram.com/maker/", 1],
      ["http://m.youtube.com/watch?v=abc", 1],
    ] as const) {
      const visitor = await otherClient(browser, { userAgent: MOBILE_CHROME, viewport });
      for (let i = 0; i < opens; i++) expect((await visitor.page.goto(`${BIO_ORIGIN}/${customEnding}`, { referer }))!.status()).toBe(200);
      await visitor.context.close();
    }
    // Writes the views the server still holds in memory (it does so every second anyway).
    expect((await testHooks(page.request).bioViews(customEnding)).today).toBe(5 + 3);

    await page.goto(`/app/account/bizbio/${id}/insights?days=7`);
    const period = page.getByRole("navigation", { name: "Period" });
    await expect(period.getByRole("link", { name: "7 days" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("definition").first()).toHaveText("20");
    await expect(page.getByText("Conversion (tips ÷ views)")).toBeVisible();
    await expect(page.getByRole("region", { name: "How views are counted" })).toContainText("once per page per half hour");
    const sites = page.getByRole("table", { name: "Views by referring site, last 7 days" }).locator("tbody tr");
    await expect(sites).toHaveText([/^instagram\.com\s*14\s*70%$/, /^Direct \(no site passed on\)\s*5\s*25%$/, /^youtube\.com\s*1\s*5%$/]);
    // Only the site's name is kept, never the address the visitor came from.
    await expect(page.getByRole("region", { name: "Where views came from" })).not.toContainText("private");
    const views = page.getByRole("region", { name: "Views per day" });
    await expect(views.getByRole("img")).toHaveAttribute("aria-label", `Views per day, last 7 days: 20 in total, most on ${shortDay(3)} (12)`);
    // Axes: counts up the side, dates along the bottom.
    await expect(views.locator("svg text").filter({ hasText: /^0$/ })).toHaveCount(1);
    await expect(views.locator("svg text").filter({ hasText: shortDay(0) })).toHaveCount(1);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // The switch is plain links: the route ships no script, and a click loads the other period.
    await expect(page.locator("script")).toHaveCount(0);
    await period.getByRole("link", { name: "90 days" }).click();
    await expect(page).toHaveURL(new RegExp(`/insights\\?days=90$`));
    await expect(period.getByRole("link", { name: "90 days" })).toHaveAttribute("aria-current", "page");
    await expect(period.getByRole("link", { name: "7 days" })).not.toHaveAttribute("aria-current");
    await expect(page.getByText("Views, last 90 days")).toBeVisible();
    await expect(page.getByRole("definition").first()).toHaveText("91");
    await expect(views.getByRole("img")).toHaveAttribute("aria-label", `Views per day, last 90 days: 91 in total, most on ${shortDay(40)} (50)`);
    await expect(page.getByRole("table", { name: "Views by referring site, last 90 days" }).locator("tbody tr").first()).toHaveText(/^Direct \(no site passed on\)\s*59\s*64\.8%$/);

    // The chart's numbers as a table, newest day first.
    await views.getByText("Show as table").click();
    const table = views.getByRole("table", { name: "Views per day, last 90 days (UTC)" });
    await expect(table.locator("tbody tr")).toHaveCount(90);
    await expect(table.locator("tbody tr").first().getByRole("cell")).toHaveText("8");
    await expect(table.locator("tbody tr").nth(40).getByRole("cell")).toHaveText("50");
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    if (viewport.width < 500) await expectNoSideScroll(page, viewport);

    // A year still reads; a period nobody offers falls back to 30 days.
    await period.getByRole("link", { name: "365 days" }).click();
    await expect(page.getByRole("definition").first()).toHaveText("91");
    await page.goto(`/app/account/bizbio/${id}/insights?days=12`);
    await expect(period.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("definition").first()).toHaveText("41");
  });
}
