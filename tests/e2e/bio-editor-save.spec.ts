import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { expect, signedInAs, test } from "./fixtures";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * The bio editor never loses work: one Save for the whole page keeps the about text, the look and
 * a link together; "Unsaved changes" shows while something is not saved and clears when it is not;
 * leaving with unsaved edits asks first (an in-app link, a reload), and staying keeps them; a
 * refused save keeps everything typed, each message beside its field; the photo saved beside the
 * form (the photo, a package) leaves its edits alone. Every test signs up its own verified person.
 */
const DASHBOARD = "/app/account/bizbio";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function ownerWithPage(page: Page): Promise<{ id: string; ending: string }> {
  await signedInAs(page, { prefix: "editor", name: "Editor Owner" });
  const ending = `save_${randomBytes(4).toString("hex")}`;
  const response = await page.request.post(`${DASHBOARD}/new`, {
    data: new URLSearchParams([["name", "Kiln Studio"], ["customEnding", ending], ["blurb", "Pots, fired slowly."], ["linkType", "website"], ["linkUrl", "https://kiln.example"]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto(DASHBOARD);
  const href = await page.getByRole("listitem", { name: "Kiln Studio", exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href");
  return { id: href!.replace("/edit/", ""), ending };
}

async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), label).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} scrolls sideways`).toBeLessThanOrEqual(page.viewportSize()!.width);
}

const marker = (page: Page) => page.getByTestId("unsaved-marker");

for (const [device, viewport] of [["a phone", PHONE], ["a desktop", DESKTOP]] as const) {
  test(`on ${device}: one save keeps the about text, the look and a link; leaving unsaved asks first and staying keeps the edits`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const { id, ending } = await ownerWithPage(page);
    await page.goto(`/edit/${id}`);
    const about = page.getByLabel("About");
    await expect(about).toHaveValue("Pots, fired slowly.");
    // Drawn by the page's script: only then does the marker know what changes.
    await expect(page.getByText("Changes show here as you make them.")).toBeVisible();
    await expect(marker(page)).toHaveText("");
    await expect(marker(page)).toHaveAttribute("aria-live", "polite");
    await expectAccessible(page, `editor at ${viewport.width} px`);

    // The marker shows with an edit, and clears when the edit is taken back.
    await about.fill("Pots, fired slowly. Now with glazes.");
    await expect(marker(page)).toHaveText("Unsaved changes");
    await about.fill("Pots, fired slowly.");
    await expect(marker(page)).toHaveText("");

    // Three parts of the page changed, none saved yet.
    await about.fill("Pots, fired slowly. Now with glazes.");
    await page.getByText("Midnight", { exact: true }).click();
    await expect(page.getByRole("radio", { name: "Midnight" })).toBeChecked();
    await page.getByLabel("Link 1 title").fill("The shop");
    await expect(marker(page)).toHaveText("Unsaved changes");
    await expectAccessible(page, `editor with unsaved changes at ${viewport.width} px`);

    // An in-app link asks first; staying keeps every edit where it was.
    await page.getByRole("link", { name: "← Your Pages" }).click();
    const question = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(question).toBeVisible();
    await expect(question.getByRole("button", { name: "Stay and keep editing" })).toBeFocused();
    await expectAccessible(page, `leave question at ${viewport.width} px`);
    await question.getByRole("button", { name: "Stay and keep editing" }).click();
    await expect(question).toBeHidden();
    await expect(page).toHaveURL(`/edit/${id}`);
    await expect(about).toHaveValue("Pots, fired slowly. Now with glazes.");
    await expect(page.getByRole("radio", { name: "Midnight" })).toBeChecked();
    await expect(page.getByLabel("Link 1 title")).toHaveValue("The shop");
    await expect(marker(page)).toHaveText("Unsaved changes");

    // One Save keeps all three, and goes back to the list with a toast (SPEC §2.5).
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(DASHBOARD);
    await expect(page.getByRole("status").filter({ hasText: `Your changes to ${new URL(BIO_ORIGIN).host}/${ending} were saved.` })).toBeVisible();

    await page.goto(`/edit/${id}`);
    await expect(page.getByLabel("About")).toHaveValue("Pots, fired slowly. Now with glazes.");
    await expect(page.getByRole("radio", { name: "Midnight" })).toBeChecked();
    await expect(page.getByLabel("Link 1 title")).toHaveValue("The shop");
    await expect(marker(page)).toHaveText("");

    // Closing or reloading the tab with an edit asks through the browser's own question (answered: leave).
    await expect(page.getByText("Changes show here as you make them.")).toBeVisible();
    await page.getByLabel("Name").fill("Kiln Studio, renamed");
    await expect(marker(page)).toHaveText("Unsaved changes");
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toEqual(["beforeunload"]);
    await expect(page.getByLabel("Name")).toHaveValue("Kiln Studio");

    await page.goto(`${BIO_ORIGIN}/${ending}`);
    await expect(page.getByText("Pots, fired slowly. Now with glazes.")).toBeVisible();
    await expect(page.getByRole("link", { name: /The shop/ })).toBeVisible();
    expect(await page.locator("html").evaluate((html) => getComputedStyle(html).backgroundColor)).toBe("rgb(15, 23, 42)");
  });
}

test("a refused save keeps every section as typed with each message beside its field; leaving anyway saves nothing; the photo and a package saved beside the form leave its edits alone", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const { id, ending } = await ownerWithPage(page);
  await page.goto(`/edit/${id}`);
  await expect(page.getByText("Changes show here as you make them.")).toBeVisible();

  // An upload beside the form saves the photo and nothing else, and the form keeps what was typed.
  await page.getByLabel("About").fill("Typed before the photo.");
  await expect(marker(page)).toHaveText("Unsaved changes");
  const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#2e86de" } }).jpeg().toBuffer();
  await page.getByLabel("Profile photo").setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByRole("button", { name: "Upload new photo" })).toBeVisible();
  await expect(page.getByLabel("About")).toHaveValue("Typed before the photo.");
  await expect(marker(page)).toHaveText("Unsaved changes");

  // So does a package, added by its own form.
  const adding = page.getByRole("region", { name: "Work with me packages" }).getByRole("form", { name: "Add a package" });
  await adding.getByLabel("Title").fill("Dedicated video");
  await adding.getByLabel("What is delivered").fill("One video about your product.");
  await adding.getByLabel("Price (USD)").fill("750");
  await adding.getByLabel("Delivered within (days)").fill("14");
  await adding.getByRole("button", { name: "Add package" }).click();
  await expect(page.getByText("Package added to your page.")).toBeVisible();
  await expect(page.getByLabel("About")).toHaveValue("Typed before the photo.");
  await expect(marker(page)).toHaveText("Unsaved changes");

  // Three sections wrong at once, one right: nothing is saved, everything stays as typed.
  await page.getByText("Custom", { exact: true }).click();
  await page.getByLabel("Text", { exact: true }).fill("#603f8b");
  const wallGoal = page.getByRole("region", { name: "Supporter wall and goal" });
  await wallGoal.getByLabel("Goal title").fill("New kiln");
  await wallGoal.getByLabel("Target (USD)").fill("0");
  await page.getByLabel("Minimum tip (USD)").fill("0.10");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/^Nothing was saved: 3 fields need a change/)).toBeVisible();
  await expect(page.getByLabel("Text", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(wallGoal.getByText("The target must be more than $0")).toBeVisible();
  await expect(page.getByLabel("Minimum tip (USD)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("About")).toHaveValue("Typed before the photo.");
  await expect(wallGoal.getByLabel("Goal title")).toHaveValue("New kiln");
  await expect(marker(page)).toHaveText("Unsaved changes");
  await expectAccessible(page, "editor after a refused save");

  // Leaving anyway, answered so: the list, and the page as it was.
  await page.getByRole("link", { name: "Cancel" }).click();
  await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Leave without saving" }).click();
  await expect(page).toHaveURL(DASHBOARD);
  await page.goto(`${BIO_ORIGIN}/${ending}`);
  await expect(page.getByText("Pots, fired slowly.")).toBeVisible();
  await expect(page.getByText("Typed before the photo.")).toHaveCount(0);
});
