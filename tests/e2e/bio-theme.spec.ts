import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, FrameLocator, Page } from "@playwright/test";
import { randomBytes, randomInt } from "node:crypto";
import { DEMO, expect, signedInAs, signIn, test } from "./fixtures";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * A bio page's look, as its owner chooses it: presets, custom colours held to
 * WCAG AA, fonts, and the phone preview beside the form, with and without
 * JavaScript. Every test signs up its own verified person.
 */
const DASHBOARD = "/app/account/bizbio";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function verifiedOwner(page: Page): Promise<{ id: string; ending: string }> {
  await signedInAs(page, { prefix: "theme", name: "Theme Owner" });
  const ending = `look_${randomBytes(4).toString("hex")}`;
  const response = await postForm(page.request, `${DASHBOARD}/new`, [["name", "Lumen Studio"], ["customEnding", ending], ["blurb", "Lamps, made by hand."], ["linkType", "website"], ["linkUrl", "https://lumen.example"]]);
  expect(response.status()).toBe(302);
  await page.goto(DASHBOARD);
  const href = await page.getByRole("listitem", { name: "Lumen Studio", exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href");
  return { id: href!.replace("/edit/", ""), ending };
}

function postForm(request: APIRequestContext, path: string, fields: [string, string][]) {
  return request.post(path, { data: new URLSearchParams(fields).toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0 });
}

const preview = (page: Page): FrameLocator => page.frameLocator('iframe[title="Preview of your page"]');
/** axe on the editor, the preview frame's document included. */
async function expectAccessible(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/**
 * The preview's page background. The editor redraws the frame as the forms change (its first
 * draw too), so a read can meet a document being replaced: that read answers null and the
 * polling reads again.
 */
const backgroundOf = (frame: FrameLocator) =>
  frame
    .locator("html")
    .evaluate((html) => getComputedStyle(html).backgroundColor)
    .catch(() => null);

test("picks a preset and sees the preview change; a low contrast colour is refused with its ratio; the saved look is the public page's", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const { id, ending } = await verifiedOwner(page);
  await page.goto(`/edit/${id}`);

  // The preview is the real page, beside the form, in its saved (default) look.
  await expect(preview(page).getByRole("heading", { level: 1 })).toHaveText("Lumen Studio");
  await expect.poll(() => backgroundOf(preview(page))).toBe("rgb(96, 63, 139)");
  const frameBox = await page.locator('iframe[title="Preview of your page"]').boundingBox();
  const formBox = await page.getByLabel("Name").boundingBox();
  expect(frameBox!.x).toBeGreaterThan(formBox!.x + formBox!.width);
  expect(Math.round(frameBox!.width)).toBe(390);

  // A preset shows at once in the preview, and nothing is saved by it.
  await page.getByText("Midnight", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Midnight" })).toBeChecked();
  await expect.poll(() => backgroundOf(preview(page))).toBe("rgb(15, 23, 42)");
  // Drawn from the editor's answer, it brings the host's policy with it: no script runs in the frame.
  await expect(preview(page).locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute("content", /^default-src 'none'; style-src 'sha256-/);
  // Typing in the page's own form shows too.
  await page.getByLabel("Name").fill("Lumen Lamps");
  await expect(preview(page).getByRole("heading", { level: 1 })).toHaveText("Lumen Lamps");

  // A text colour too close to the background: the readout says so as it is typed, the save refuses it.
  await page.getByLabel("Text", { exact: true }).fill("#1e293b");
  await expect(page.getByRole("radio", { name: "Custom" })).toBeChecked();
  await expect(page.locator('[data-contrast="text"]')).toContainText("Too low: 1.2:1");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Text and background contrast is 1.2:1; it needs at least 4.5:1 to be readable").first()).toBeVisible();
  await expect(page.getByLabel("Text", { exact: true })).toHaveAttribute("aria-invalid", "true");
  // One form: the name typed beside the look is kept, unsaved, not dropped.
  await expect(page.getByLabel("Name")).toHaveValue("Lumen Lamps");
  await expect(page.getByTestId("unsaved-marker")).toHaveText("Unsaved changes");
  await page.goto(`${BIO_ORIGIN}/${ending}`);
  expect(await page.locator("html").evaluate((html) => getComputedStyle(html).backgroundColor)).toBe("rgb(96, 63, 139)");

  // A readable one is saved, and the public page wears it.
  await page.goto(`/edit/${id}`);
  await page.getByText("Midnight", { exact: true }).click();
  await page.getByLabel("Text", { exact: true }).fill("#f8fafc");
  await expect(page.locator('[data-contrast="text"]')).toContainText("AA ✓ 17:1");
  await page.getByLabel("Font").selectOption("serif");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(DASHBOARD);
  await expect(page.getByRole("status").filter({ hasText: `Your changes to ${new URL(BIO_ORIGIN).host}/${ending} were saved.` })).toBeVisible();
  await page.goto(`/edit/${id}`);
  await expect(page.getByRole("radio", { name: "Custom" })).toBeChecked();
  await expect(page.getByLabel("Text", { exact: true })).toHaveValue("#f8fafc");

  await page.goto(`${BIO_ORIGIN}/${ending}`);
  const look = await page.locator("html").evaluate((html) => {
    const style = getComputedStyle(html);
    return { background: style.backgroundColor, color: style.color, font: style.fontFamily };
  });
  expect(look).toEqual({ background: "rgb(15, 23, 42)", color: "rgb(248, 250, 252)", font: expect.stringMatching(/^Charter,/) });
  // The button (a link row) is the theme's button colour.
  expect(await page.getByRole("link", { name: /Website/ }).evaluate((link) => getComputedStyle(link).backgroundColor)).toBe("rgb(56, 189, 248)");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("the editor and its preview pass axe at 1280 and 390 px; on a phone the preview is below the form", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const { id } = await verifiedOwner(page);
  await page.goto(`/edit/${id}`);
  await expect(preview(page).getByRole("heading", { level: 1 })).toHaveText("Lumen Studio");
  await expectAccessible(page);

  await page.setViewportSize(PHONE);
  await page.goto(`/edit/${id}`);
  const frame = page.locator('iframe[title="Preview of your page"]');
  const save = page.getByRole("button", { name: "Save changes" });
  expect((await frame.boundingBox())!.y).toBeGreaterThan((await save.boundingBox())!.y);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expect(preview(page).getByRole("heading", { level: 1 })).toHaveText("Lumen Studio");
  await expectAccessible(page);
  await page.getByRole("link", { name: "See the preview" }).click();
  await expect(frame).toBeInViewport();
});

test("without JavaScript: a preset is saved and the preview frame shows it after the reload; the preview is the owner's only", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const { id, ending } = await verifiedOwner(page);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}` },
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto(`/edit/${id}`);
  await expect.poll(() => backgroundOf(preview(plain))).toBe("rgb(96, 63, 139)");
  await plain.getByText("Paper", { exact: true }).click();
  await plain.getByRole("button", { name: "Save changes" }).click();
  await expect(plain).toHaveURL(DASHBOARD);
  await expect(plain.getByText(`Your changes to ${new URL(BIO_ORIGIN).host}/${ending} were saved.`)).toBeVisible();
  await plain.goto(`/edit/${id}`);
  await expect.poll(() => backgroundOf(preview(plain))).toBe("rgb(250, 247, 240)");
  await expect(preview(plain).getByRole("heading", { level: 1 })).toHaveText("Lumen Studio");

  // Custom colours that fail are refused by the server, with the pair and its ratio, and nothing changes.
  await plain.getByText("Custom", { exact: true }).click();
  await plain.getByLabel("Button text", { exact: true }).fill("#222222");
  await plain.getByRole("button", { name: "Save changes" }).click();
  await expect(plain.getByText("Button text and button contrast is 1:1; it needs at least 4.5:1 to be readable").first()).toBeVisible();
  await plain.goto(`${BIO_ORIGIN}/${ending}`);
  expect(await plain.locator("html").evaluate((html) => getComputedStyle(html).backgroundColor)).toBe("rgb(250, 247, 240)");
  await context.close();

  // The preview's own address: no script, framed only by the app, never cached or indexed.
  const own = await page.request.get(`${DASHBOARD}/${id}/preview`);
  expect(own.status()).toBe(200);
  const headers = own.headers();
  expect(headers["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-[^']+' 'sha256-[^']+';.*frame-ancestors 'self'/);
  expect(headers["content-security-policy"]).not.toMatch(/script-src/);
  expect(headers["cache-control"]).toBe("private, no-store");
  expect(headers["x-robots-tag"]).toBe("noindex");
  expect(await own.text()).not.toMatch(/<script/i);

  // Someone else learns nothing from it.
  const stranger = await browser.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}` } });
  const other = await stranger.newPage();
  await signIn(other, DEMO.email, DEMO.password);
  await expect(other).toHaveURL("/app");
  const theirs = await other.request.get(`${DASHBOARD}/${id}/preview`);
  expect(theirs.status()).toBe(404);
  expect(await theirs.text()).not.toContain("Lumen Studio");
  const posted = await other.request.post(`${DASHBOARD}/${id}/preview`, { form: { name: "x" }, headers: { Origin: baseURL! } });
  expect(posted.status()).toBe(404);
  const saved = await postForm(other.request, `/edit/${id}`, [["intent", "save"], ["themePreset", "mono"], ["themeFont", "mono"]]);
  expect(saved.status()).toBe(404);
  await stranger.close();
});
