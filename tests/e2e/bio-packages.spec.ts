import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";
import { expect, otherClient, signedInAs, test } from "./fixtures";

/**
 * "Work with me": a creator puts packages on their bio page in the editor; a sponsor on a phone
 * finds them on the public page (served from cached bytes, so each change shows only because the
 * write redrew it), requests one, finds the offer form filled in from it and sends it; the creator
 * finds the offer in My deals.
 */
const PHONE = { width: 390, height: 844 };

async function creatorWithPage(page: Page): Promise<{ name: string; ending: string }> {
  const tag = randomBytes(4).toString("hex");
  const name = `Rae Reviews ${tag}`;
  await signedInAs(page, { prefix: "packages-creator", name: "Rae Reviews", type: "creator" });
  await testHooks(page.request).paymentsReady();
  const ending = `rae_${tag}`;
  const response = await page.request.post("/app/account/bizbio/new", {
    form: { name, customEnding: ending, blurb: "Audio gear reviews." },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  await page.goto("/app/account/bizbio");
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(/\/edit\/\w+$/);
  return { name, ending };
}

async function addPackage(page: Page, fields: { title: string; details: string; price: string; days: string }) {
  const form = page.getByRole("region", { name: "Work with me packages" }).getByRole("form", { name: "Add a package" });
  await form.getByLabel("Title").fill(fields.title);
  await form.getByLabel("What is delivered").fill(fields.details);
  await form.getByLabel("Price (USD)").fill(fields.price);
  await form.getByLabel("Delivered within (days)").fill(fields.days);
  await form.getByRole("button", { name: "Add package" }).click();
}

test("a creator adds packages, a sponsor requests one from the bio page and sends the prefilled offer, and the creator has it in My deals", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const creator = await creatorWithPage(page);
  const editorPath = new URL(page.url()).pathname;
  const section = page.getByRole("region", { name: "Work with me packages" });
  await expect(section.getByText("No packages yet.")).toBeVisible();

  // A price out of bounds is refused beside the field, with what was typed kept.
  await addPackage(page, { title: "Dedicated video", details: "One 8-minute review on my channel.", price: "0", days: "14" });
  const adding = section.getByRole("form", { name: "Add a package" });
  await expect(adding.getByText(/^The price must be from \$/)).toBeVisible();
  await expect(adding.getByLabel("Price (USD)")).toHaveAttribute("aria-invalid", "true");
  await expect(adding.getByLabel("Title")).toHaveValue("Dedicated video");

  await adding.getByLabel("Price (USD)").fill("750");
  await adding.getByRole("button", { name: "Add package" }).click();
  await expect(page.getByText("Package added to your page.")).toBeVisible();
  await addPackage(page, { title: "Story mention", details: "Three stories over a week.", price: "150", days: "3" });
  await expect(page.getByText("Package added to your page.")).toBeVisible();
  const listed = section.getByRole("list", { name: "Your packages" }).getByRole("heading", { level: 3 });
  await expect(listed).toHaveText(["1. Dedicated video", "2. Story mention"]);
  await section.getByRole("button", { name: "Move “Story mention” up" }).click();
  await expect(listed).toHaveText(["1. Story mention", "2. Dedicated video"]);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // The sponsor, on a phone, meets both packages on the public page, in the creator's order.
  const sponsor = await otherClient(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
  await signedInAs(sponsor.page, { prefix: "packages-sponsor", name: "Northwind Audio", type: "sponsor" });
  await sponsor.page.goto(`${BIO_ORIGIN}/${creator.ending}`);
  // The editor's package forms answer only the page's owner: anyone else's post is "not found", and nothing changes.
  const forged = await sponsor.page.request.post(editorPath, { form: { intent: "package-remove", packageId: "anything" }, maxRedirects: 0 });
  expect(forged.status()).toBe(404);
  const workWithMe = sponsor.page.getByRole("region", { name: "Work with me" });
  await expect(workWithMe.getByRole("heading", { level: 3 })).toHaveText(["Story mention", "Dedicated video"]);
  const video = workWithMe.getByRole("listitem").filter({ hasText: "Dedicated video" });
  await expect(video).toContainText("One 8-minute review on my channel.");
  await expect(video).toContainText("$750");
  await expect(video).toContainText("Delivered within 14 days");
  await expect(workWithMe.getByRole("link", { name: "Make an offer" })).toHaveAttribute("href", `${new URL(page.url()).origin}/app/deals/new?page=${creator.ending}`);
  expect((await new AxeBuilder({ page: sponsor.page }).analyze()).violations).toEqual([]);
  expect(await sponsor.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  await video.getByRole("link", { name: "Request Dedicated video" }).click();
  await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText("Make Rae Reviews an offer");
  await expect(sponsor.page.getByText("Requesting “Dedicated video”")).toBeVisible();
  await expect(sponsor.page.getByLabel("What is it for?")).toHaveValue("Dedicated video");
  await expect(sponsor.page.getByLabel("Price (US dollars)")).toHaveValue("750");
  await expect(sponsor.page.getByLabel("Channel 1")).toHaveValue("As agreed");
  await expect(sponsor.page.getByLabel("What is made 1")).toHaveValue("Dedicated video");
  await expect(sponsor.page.getByLabel("Due 1")).toHaveValue(new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10));
  // Everything is still the sponsor's to change before sending.
  await sponsor.page.getByLabel("Channel 1").fill("YouTube");
  await sponsor.page.getByRole("button", { name: "Send offer" }).click();
  await expect(sponsor.page.getByText("Sent. You'll hear when they answer.")).toBeVisible();
  await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText("Dedicated video");

  // Another page's package (or none at all) in the address opens the blank form, never an error.
  const blank = await sponsor.page.goto(`/app/deals/new?page=${creator.ending}&package=pkg_not_this_pages`);
  expect(blank?.status()).toBe(200);
  await expect(sponsor.page.getByText(/^Requesting/)).toHaveCount(0);
  await expect(sponsor.page.getByLabel("What is it for?")).toHaveValue("");
  await sponsor.context.close();

  await page.goto("/app/deals?show=waiting");
  await page.getByRole("link", { name: /Dedicated video/ }).click();
  await expect(page.getByText("Northwind Audio made Rae Reviews an offer")).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept $750" })).toBeVisible();

  // Removing a package takes it off the public page at once.
  await page.goto("/app/account/bizbio");
  await page.getByRole("link", { name: `Edit ${creator.name}` }).click();
  await section.getByRole("button", { name: "Remove “Story mention”" }).click();
  await expect(page.getByText("Package removed.")).toBeVisible();
  await page.goto(`${BIO_ORIGIN}/${creator.ending}`);
  await expect(page.getByRole("region", { name: "Work with me" }).getByRole("heading", { level: 3 })).toHaveText(["Dedicated video"]);
});
