import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, signedInAs, test } from "./fixtures";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * Making a page in one go: the theme and tips beside the page's fields, the
 * person's photo above them, and the page drawn live in a phone (beside the
 * form on a desktop, behind "Preview" on a phone). Each test signs up its own
 * verified person.
 */
const NEW_PAGE = "/app/account/bizbio/new";
const DASHBOARD = "/app/account/bizbio";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function fitsAndPasses(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const phoneOf = (page: Page, name: string) => page.getByRole("img", { name: new RegExp(`^The bio page of ${name} on a phone`) });
const backgroundOf = (page: Page, name: string) => phoneOf(page, name).evaluate((screen) => getComputedStyle(screen).backgroundColor);
const publicBackground = (page: Page) => page.locator("html").evaluate((html) => getComputedStyle(html).backgroundColor);

/** The new page's id, from its row's Edit link on the list. */
async function idOf(page: Page, name: string): Promise<string> {
  const href = await page.getByRole("listitem", { name, exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href");
  return href!.replace("/edit/", "");
}

for (const [label, size] of [["at 390 px", PHONE], ["on a desktop", DESKTOP]] as const) {
  test(`${label}: picks a theme, sees the preview follow the typing, creates the page, and the public page wears the theme with tips on`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(size);
    await signedInAs(page, { prefix: "newpage", name: "New Page Owner" });
    await page.goto(NEW_PAGE);
    await expect(page.getByRole("heading", { level: 1, name: "New bio page" })).toBeVisible();

    if (size === PHONE) {
      // The form comes first on a phone: the preview waits behind its disclosure.
      await expect(phoneOf(page, "Your page")).toBeHidden();
      await page.locator("summary", { hasText: "Preview" }).click();
    } else {
      const phoneBox = await page.getByRole("complementary", { name: "Preview" }).boundingBox();
      const formBox = await page.getByLabel("Name", { exact: true }).boundingBox();
      expect(phoneBox!.x).toBeGreaterThan(formBox!.x + formBox!.width);
    }
    // A new page starts in Sponsorgrid's purple, with tips on.
    await expect(phoneOf(page, "Your page")).toHaveAccessibleName(/with tip amounts/);
    expect(await backgroundOf(page, "Your page")).toBe("rgb(96, 63, 139)");
    await expect(page.getByRole("switch", { name: "Accept tips" })).toBeChecked();
    await fitsAndPasses(page);

    await page.getByText("Forest", { exact: true }).click();
    await expect(page.getByRole("radio", { name: "Forest" })).toBeChecked();
    await page.getByLabel("Name", { exact: true }).fill("Fern & Moss");
    await page.getByLabel("About").fill("Terrariums, built by hand.");
    await expect(phoneOf(page, "Fern & Moss")).toBeVisible();
    await expect(phoneOf(page, "Fern & Moss")).toContainText("Terrariums, built by hand.");
    await expect.poll(() => backgroundOf(page, "Fern & Moss")).toBe("rgb(20, 83, 45)");
    // Switching tips off takes the amounts out of the preview; on again for this page.
    await page.getByRole("switch", { name: "Accept tips" }).uncheck();
    await expect(phoneOf(page, "Fern & Moss")).not.toHaveAccessibleName(/tip amounts/);
    await page.getByRole("switch", { name: "Accept tips" }).check();
    await expect(phoneOf(page, "Fern & Moss")).toHaveAccessibleName(/with tip amounts/);
    await fitsAndPasses(page);

    const ending = `fern_${randomBytes(4).toString("hex")}`;
    await page.getByLabel("Custom ending").fill(ending);
    await page.getByRole("button", { name: "Create page" }).click();
    await expect(page).toHaveURL(DASHBOARD);
    const id = await idOf(page, "Fern & Moss");

    await page.goto(`/edit/${id}`);
    await expect(page.getByRole("switch", { name: "Accept tips" })).toBeChecked();
    await page.goto(`${BIO_ORIGIN}/${ending}`);
    expect(await publicBackground(page)).toBe("rgb(20, 83, 45)");
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the theme, the tips switch and the link rows' buttons keep their choices, and the page is created with them", async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(PHONE);
    await signedInAs(page, { prefix: "newpage-nojs", name: "No Script Owner" });
    await page.goto(NEW_PAGE);
    await page.getByText("Paper", { exact: true }).click();
    await page.getByRole("switch", { name: "Accept tips" }).uncheck();
    await page.getByLabel("Name", { exact: true }).fill("Quiet Press");
    // "Add link" re-renders the form from the server: the choices come back with it.
    await page.getByRole("button", { name: "Add link" }).click();
    await expect(page.getByRole("radio", { name: "Paper" })).toBeChecked();
    await expect(page.getByRole("switch", { name: "Accept tips" })).not.toBeChecked();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Quiet Press");

    const ending = `quiet_${randomBytes(4).toString("hex")}`;
    await page.getByLabel("Custom ending").fill(ending);
    await page.getByRole("button", { name: "Create page" }).click();
    await expect(page).toHaveURL(DASHBOARD);
    await page.goto(`/edit/${await idOf(page, "Quiet Press")}`);
    await expect(page.getByRole("switch", { name: "Accept tips" })).not.toBeChecked();
    await page.goto(`${BIO_ORIGIN}/${ending}`);
    expect(await publicBackground(page)).toBe("rgb(250, 247, 240)");
  });
});
