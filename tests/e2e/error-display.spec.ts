import { expect, signedInAs, test } from "./fixtures";
import { hookPages } from "#tests/support/test-hooks-client";

/**
 * How failures are shown (docs/decisions/0014-errors-shown-in-place.md): the error page is
 * rendered where the failure happened, with its true status, instead of SPEC §4/§8's redirect
 * to /500. The address stays, so a reload retries, and a missing post reads as missing.
 */

test("hearting a post deleted meanwhile shows the not-found page in place, not a redirect to /500", async ({ page, browser }) => {
  const title = `Short-lived sponsorship ${Date.now()}`;
  // New accounts of the test's own: a demo account's posts and hearts are other specs' to read.
  await signedInAs(page, { prefix: "short-lived-sponsor", type: "sponsor" });
  await page.goto("/app/opportunities/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Gone before anyone can save it.");
  await page.getByRole("button", { name: "Post opportunity" }).click();
  await expect(page).toHaveURL(/\/app\/opportunities\/\d{10}_[A-Za-z0-9]+$/);
  const postUrl = new URL(page.url()).pathname;

  const creator = await browser.newContext();
  const reader = await creator.newPage();
  await signedInAs(reader, { prefix: "short-lived-reader", type: "creator" });
  await reader.goto(postUrl);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
  await reader.waitForLoadState("networkidle"); // hydrated: the heart is a fetcher, as for most people

  await page.goto(`${postUrl}?delete=confirm`);
  await page.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page).toHaveURL("/app/account/opportunities");

  const answer = reader.waitForResponse((response) => /\/heart(\.data)?(\?|$)/.test(response.url()) && response.request().method() === "POST");
  await reader.getByRole("button", { name: /^Save “/ }).click();
  expect((await answer).status()).toBe(404);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");
  await expect(reader).toHaveURL(postUrl);
  await creator.close();
});

test("a failed load shows the error page at the address that failed, with its status", async ({ page }) => {
  const missing = await page.goto("/app/opportunities/8000000000_removedpost");
  expect(missing?.status()).toBe(404);
  await expect(page).toHaveURL("/app/opportunities/8000000000_removedpost");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");

  const broken = await page.goto(hookPages.boom());
  expect(broken?.status()).toBe(500);
  await expect(page).toHaveURL(hookPages.boom());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Something went wrong on our side");
});
