import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, payWithTestCard, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * End to end: a verified person without Pro meets the gate, buys Launchpad in the sandbox, and
 * comes back to a working search. The person is made by the signed-in-account hook; nothing of
 * Pro is: the purchase is the sandbox's checkout and webhook. The companies searched are this
 * test's own (the sponsors hook, a random prefix and tag): the seeded sample companies leave the
 * directory once any real one exists, which other specs of the same run may add at any moment.
 */
const cards = (page: Page) => page.getByRole("list", { name: "Sponsors" }).getByRole("heading", { level: 3 });
const unique = () => `zz${randomBytes(4).toString("hex").replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)]!)}`;

test("without Pro a tag click explains Pro; after buying Launchpad the same page searches, pages and opens companies", async ({ page }) => {
  test.setTimeout(120_000);
  const prefix = unique();
  const tag = `${prefix} tag`;
  const companies = await testHooks(page.request).addSponsors({ prefix, tag, count: 12 });
  await signedInAs(page, { prefix: "journey", name: "Journey Person", type: "creator" });

  await page.goto("/app/sponsors");
  await expect(page.getByRole("list", { name: "Sponsor previews" })).toBeVisible();
  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: tag, exact: true }).click();
  await expect(page.locator("#pro-notice")).toContainText("Search by tag is for Pro members.");
  await expect(page).toHaveURL("/app/sponsors");

  await page.goto("/app/sponsors/recent");
  await expect(page).toHaveURL("/app/pro?returnTo=%2Fapp%2Fsponsors%2Frecent");

  // The upsell on the list brings the buyer back to the list.
  await page.goto("/app/sponsors");
  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: tag, exact: true }).click();
  await page.locator("#pro-notice").getByRole("link", { name: "Upgrade to Pro" }).click();
  await expect(page).toHaveURL("/app/pro?returnTo=%2Fapp%2Fsponsors");
  await page.getByRole("button", { name: "Choose Launchpad" }).click();
  await expect(page).toHaveURL(/\/sandbox\/pro-checkout\//);
  await payWithTestCard(page, { button: /^Subscribe/ });
  await expect(page.getByRole("heading", { name: "Thank you for becoming a Pro!" })).toBeVisible();
  await page.getByRole("link", { name: "Back to where you were" }).click();
  await expect(page).toHaveURL("/app/sponsors");

  // Pro: the tag now searches, in the address, ten at a time in name order.
  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: tag, exact: true }).click();
  await expect(page).toHaveURL(`/app/sponsors?${new URLSearchParams([["tags[]", tag]])}`);
  await expect(cards(page)).toHaveText(companies.slice(0, 10).map((c) => c.name));
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(cards(page)).toHaveText(companies.slice(10).map((c) => c.name));

  // By name, the start of any word, any case; the address opens the same search on a fresh load.
  await page.goto(`/app/sponsors?${new URLSearchParams([["name", `${prefix.toUpperCase()} 1`]])}`);
  await expect(cards(page)).toHaveText(companies.slice(9).map((c) => c.name));
  const company = companies[10]!;
  await page.getByRole("link", { name: `Details of ${company.name}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(company.name);
  await expect(page.getByRole("heading", { name: "How to apply" })).toBeVisible();
  await expect(page.getByText("Through their creator program.")).toBeVisible();

  await page.goto("/app/sponsors/recent");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recently Added Sponsors");
  await expect(cards(page)).toHaveCount(10);
});
