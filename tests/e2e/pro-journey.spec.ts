import type { Page } from "@playwright/test";
import { expect, payWithTestCard, signedInAs, test } from "./fixtures";

/**
 * End to end, on the directory the server seeds at start (150
 * invented sample companies, each labelled so): a verified person without Pro meets the gate, buys Launchpad in
 * the sandbox, and comes back to a working search. The person is made by the signed-in-account
 * hook; nothing of Pro is: the purchase is the sandbox's checkout and webhook.
 */
const cards = (page: Page) => page.getByRole("list", { name: "Sponsors" }).getByRole("heading", { level: 3 });

test("without Pro a tag click explains Pro; after buying Launchpad the same page searches, pages and opens companies", async ({ page }) => {
  test.setTimeout(120_000);
  await signedInAs(page, { prefix: "journey", name: "Journey Person" });

  await page.goto("/app/sponsors");
  await expect(page.getByRole("list", { name: "Sponsor previews" })).toBeVisible();
  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: "software", exact: true }).click();
  await expect(page.locator("#pro-notice")).toContainText("Search by tag is for Pro members.");
  await expect(page).toHaveURL("/app/sponsors");

  await page.goto("/app/sponsors/recent");
  await expect(page).toHaveURL("/app/pro?returnTo=%2Fapp%2Fsponsors%2Frecent");

  // The upsell on the list brings the buyer back to the list.
  await page.goto("/app/sponsors");
  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: "software", exact: true }).click();
  await page.locator("#pro-notice").getByRole("link", { name: "Upgrade to Pro" }).click();
  await expect(page).toHaveURL("/app/pro?returnTo=%2Fapp%2Fsponsors");
  await page.getByRole("button", { name: "Choose Launchpad" }).click();
  await expect(page).toHaveURL(/\/sandbox\/pro-checkout\//);
  await payWithTestCard(page, { button: /^Subscribe/ });
  await expect(page.getByRole("heading", { name: "Thank you for becoming a Pro!" })).toBeVisible();
  await page.getByRole("link", { name: "Back to where you were" }).click();
  await expect(page).toHaveURL("/app/sponsors");

  // Pro: the tag now searches, in the address, ten at a time in name order.
  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: "software", exact: true }).click();
  await expect(page).toHaveURL(`/app/sponsors?${new URLSearchParams([["tags[]", "software"]])}`);
  await expect(cards(page)).toHaveCount(10);
  const first = await cards(page).allTextContents();
  expect(first).toEqual([...first].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/tags%5B%5D=software|tags\[\]=software/);
  await expect(cards(page)).toHaveCount(10);
  const second = await cards(page).allTextContents();
  expect(second.some((name) => first.includes(name))).toBe(false);

  // By name, the start of any word, any case; the address opens the same search on a fresh load.
  await page.goto("/app/sponsors?name=HOME+G");
  await expect(cards(page)).toHaveText(["Kettlebolt Home Guard", "Kettleflint Home Gym"]);
  await page.getByRole("link", { name: "Details of Kettleflint Home Gym" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kettleflint Home Gym");
  await expect(page.getByText("Sample company")).toBeVisible();
  await expect(page.getByRole("heading", { name: "How to apply" })).toBeVisible();
  await expect(page.getByText("Kettleflint only ships heavy kit within its delivery region")).toBeVisible();

  await page.goto("/app/sponsors/recent");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recently Added Sponsors");
  await expect(cards(page)).toHaveCount(10);
});
