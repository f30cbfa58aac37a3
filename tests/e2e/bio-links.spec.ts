import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, signedInAs, test } from "./fixtures";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * The owner's link rows as a creator uses them: reorder by keyboard (drag
 * handle and Move up / Move down), give a link its own title, switch one
 * off, and see each on the public page; the same without JavaScript. Every
 * test signs up its own verified person.
 */
const DASHBOARD = "/app/account/bizbio";

async function verifiedUser(page: Page): Promise<void> {
  await signedInAs(page, { prefix: "links", name: "Link Owner" });
}

/** Creates a page with these links through the form's endpoint; returns its edit address. */
async function createPage(request: APIRequestContext, page: Page, name: string, ending: string, links: [string, string][]): Promise<string> {
  const fields: [string, string][] = [["name", name], ["customEnding", ending], ["blurb", "About me."]];
  for (const [type, url] of links) fields.push(["linkType", type], ["linkUrl", url]);
  const response = await request.post(`${DASHBOARD}/new`, {
    data: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto(DASHBOARD);
  const href = await page.getByRole("listitem", { name, exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href");
  return href!;
}

const LINKS: [string, string][] = [
  ["website", "https://links.example/shop"],
  ["instagram", "https://www.instagram.com/linkowner"],
  ["youtube", "https://www.youtube.com/@linkowner"],
  ["newsletter", "https://links.example/letters"],
];

/** A row's on/off switch pressed with Space, as a keyboard user would (the box itself is drawn as a switch). */
async function switchOff(page: Page, name: string) {
  const control = page.getByRole("switch", { name });
  await control.focus();
  await page.keyboard.press("Space");
  await expect(control).not.toBeChecked();
}

const typesInEditor = (page: Page) => page.locator('select[name="linkType"]').evaluateAll((selects) => selects.map((s) => (s as HTMLSelectElement).value));

test("reorders links with the keyboard, titles one, switches one off, and the public page follows", async ({ page }) => {
  // The drag-and-drop rows hydrate cleanly: React reports no mismatch between server and browser.
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await verifiedUser(page);
  const ending = `links_${randomBytes(4).toString("hex")}`;
  const edit = await createPage(page.request, page, "Link Owner", ending, LINKS);
  await page.goto(edit);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit bio page");

  // Drag by keyboard: Space picks the row up, arrows move it, Space drops it; the move is announced.
  const handle = page.getByRole("button", { name: "Drag YouTube to reorder" });
  await handle.focus();
  // Each step waits for what a screen reader would hear, as a person waits to know where the row is.
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("ArrowUp");
  await expect(page.getByText("YouTube is over position 2 of 4.")).toBeAttached();
  await page.keyboard.press("ArrowUp");
  await expect(page.getByText("YouTube is over position 1 of 4.")).toBeAttached();
  await page.keyboard.press("Space");
  await expect.poll(() => typesInEditor(page)).toEqual(["youtube", "website", "instagram", "newsletter"]);
  await expect(page.getByText("YouTube moved to position 1 of 4.")).toBeAttached();

  // Move up, pressed with Enter: the row moves, focus stays on it, and a screen reader hears where it went.
  await page.getByRole("button", { name: "Move up link 4" }).focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => typesInEditor(page)).toEqual(["youtube", "website", "newsletter", "instagram"]);
  await expect(page.getByRole("button", { name: "Move up link 3" })).toBeFocused();
  await expect(page.getByText("Newsletter moved to position 3 of 4.")).toBeAttached();

  await page.getByLabel("Link 2 title").fill("Shop my <favourites>");
  await expect(page.getByRole("switch", { name: "Show on page (link 4)" })).toBeChecked();
  await switchOff(page, "Show on page (link 4)");
  await expect(page.getByText("Off: not on your page")).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(DASHBOARD);
  await expect(page.getByRole("status").filter({ hasText: "were saved" })).toBeVisible();

  // The switched-off link stays in the editor, off, in its place.
  await page.goto(edit);
  await expect.poll(() => typesInEditor(page)).toEqual(["youtube", "website", "newsletter", "instagram"]);
  await expect(page.getByRole("switch", { name: "Show on page (link 4)" })).not.toBeChecked();
  await expect(page.getByLabel("Link 2 title")).toHaveValue("Shop my <favourites>");

  const visitor = await page.context().browser()!.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto(`${BIO_ORIGIN}/${ending}`);
  const socials = publicPage.getByRole("navigation", { name: "Social networks" }).getByRole("link");
  await expect(socials).toHaveCount(1);
  await expect(socials.first()).toHaveAccessibleName("YouTube");
  const icon = await socials.first().boundingBox();
  expect(icon!.width).toBeGreaterThanOrEqual(44);
  expect(icon!.height).toBeGreaterThanOrEqual(44);
  const buttons = publicPage.getByRole("navigation", { name: "Links" }).getByRole("link");
  await expect(buttons).toHaveCount(2);
  await expect(buttons.nth(0)).toContainText("Shop my <favourites>");
  await expect(buttons.nth(0)).toHaveAttribute("href", `/${ending}/go/website`);
  await expect(buttons.nth(1)).toContainText("Newsletter");
  await expect(publicPage.getByRole("link", { name: /Instagram/ })).toHaveCount(0);
  // The switched-off link's counted redirect is gone too.
  expect((await publicPage.goto(`${BIO_ORIGIN}/${ending}/go/instagram`))!.status()).toBe(404);
  await visitor.close();
  expect(problems.filter((text) => /hydrat|did not match/i.test(text))).toEqual([]);
});

test("without JavaScript: Move up is done by the server, nothing is saved until Save changes", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  await verifiedUser(page);
  const ending = `nojs_${randomBytes(4).toString("hex")}`;
  const edit = await createPage(page.request, page, "Plain Owner", ending, LINKS);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, extraHTTPHeaders, storageState: await page.context().storageState() });
  const plain = await context.newPage();
  await plain.goto(edit);
  // No drag handle without JavaScript: Move up and Move down are the way.
  await expect(plain.getByRole("button", { name: /^Drag/ })).toHaveCount(0);
  await expect(plain.getByRole("button", { name: "Move up link 1" })).toBeDisabled();
  await plain.getByLabel("Link 4 title").fill("Read my letters");
  await plain.getByRole("button", { name: "Move up link 4" }).click();
  await expect.poll(() => typesInEditor(plain)).toEqual(["website", "instagram", "newsletter", "youtube"]);
  // The server re-rendered the rows with what was typed, and saved nothing yet.
  await expect(plain.getByLabel("Link 3 title")).toHaveValue("Read my letters");
  const viewer = await context.newPage();
  await viewer.goto(`${BIO_ORIGIN}/${ending}`);
  expect(await viewer.content()).not.toContain("Read my letters");
  // Switch Instagram off from the keyboard: a plain checkbox, so it works without scripts.
  await switchOff(plain, "Show on page (link 2)");
  await plain.getByRole("button", { name: "Save changes" }).click();
  await expect(plain).toHaveURL(DASHBOARD);

  await viewer.reload();
  const html = await viewer.content();
  expect(html.indexOf("/go/newsletter")).toBeGreaterThan(html.indexOf("/go/website"));
  expect(html).toContain("<b>Read my letters</b>");
  expect(html).not.toContain("/go/instagram");
  await context.close();
});

for (const width of [390, 1280]) {
  test(`the link rows pass axe and fit at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await verifiedUser(page);
    const edit = await createPage(page.request, page, "Axe Owner", `axe_${randomBytes(4).toString("hex")}`, LINKS);
    await page.goto(edit);
    await switchOff(page, "Show on page (link 2)");
    await page.getByLabel("Link 1 title").fill("t".repeat(100));
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.locator("#link-title-error-0")).toHaveText("Must be under 100 characters");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}
