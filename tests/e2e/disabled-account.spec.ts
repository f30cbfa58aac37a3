import { devices, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, payWithTestCard, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * A disabled account's public side stops and comes back:
 * its bio page answers "unavailable", its pages take no payment (a new
 * checkout, and the pay step of one opened before), its post leaves the list
 * and its detail page is a 404, its profile card leaves the directory; once
 * enabled, all of it is back. Staff disabling is played by the identity test hook.
 *
 * The owner is made here (a disabled demo account would upset specs running
 * beside this one). Its post comes from the opportunity-post test hook, dated 2001:
 * it is not in the total and sorts last, so the list is read from a cursor
 * just before it, as a guest, whose pages are served from memory.
 */
const UNAVAILABLE = "This page is unavailable. It can't take payments.";

type Owner = { email: string; name: string; ending: string; post: { id: string; title: string } };

/** A verified creator whose payout account is complete, with a post and a bio page offering it. */
async function owner(page: Page): Promise<Owner> {
  const tag = randomBytes(4).toString("hex");
  const name = `Paused ${tag}`;
  const { email } = await signedInAs(page, { prefix: "paused", name });
  await testHooks(page.request).paymentsReady();
  const title = `Paused post ${tag}`;
  const { id } = await testHooks(page.request).opportunityPost({ min: 2500, title });
  const response = await page.request.post("/app/account/bizbio/new", {
    data: new URLSearchParams([["name", name], ["customEnding", `paused_${tag}`], ["blurb", "I make videos."], ["sponsorship", id]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return { email, name, ending: `paused_${tag}`, post: { id, title } };
}

/** The list page that starts at `postId` (ids sort newest first; this cursor sorts just before it). */
const listFrom = (postId: string) => `/app/opportunities?after=${Number(postId.slice(0, 10)) - 1}_z`;

async function fillCheckout(page: Page) {
  await page.getByLabel("Amount (USD)").fill("12");
  await page.getByLabel("Sponsor email").fill("fan@e2e.example");
  await page.getByLabel("Message").fill("Keep going");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
}

async function pay(page: Page) {
  await payWithTestCard(page);
}

test("disabling an account takes its bio page, payments, post and profile card off the public side; enabling brings them back", async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  const creator = await owner(page);
  const context = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const guest = await context.newPage();

  /** Everything public, as a guest sees it: live or not. */
  const expectPublicSide = async (live: boolean) => {
    const bio = await guest.goto(`${BIO_ORIGIN}/${creator.ending}`);
    expect(bio!.status()).toBe(live ? 200 : 404);
    await expect(guest.getByRole("heading", { level: 1 })).toHaveText(live ? creator.name : "This page is unavailable");
    await expect(guest.getByText("I make videos.")).toHaveCount(live ? 1 : 0);

    const detail = await guest.goto(`/app/opportunities/${creator.post.id}`);
    expect(detail!.status()).toBe(live ? 200 : 404);
    await guest.goto(listFrom(creator.post.id));
    await expect(guest.getByRole("heading", { level: 3, name: creator.post.title })).toHaveCount(live ? 1 : 0);
    await guest.goto(`/app/profiles?name=${encodeURIComponent(creator.name)}`);
    await expect(guest.getByText(creator.name, { exact: true })).toHaveCount(live ? 1 : 0);

    await guest.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
    await expect(guest.getByText(UNAVAILABLE)).toHaveCount(live ? 0 : 1);
    await expect(guest.getByRole("button", { name: "Proceed to Checkout" })).toHaveCount(live ? 1 : 0);
  };

  await expectPublicSide(true);
  // A checkout opened while the page was live, paid after the account is disabled.
  await guest.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await fillCheckout(guest);
  const openCheckout = guest.url();

  await testHooks(page.request).disableAccount(creator.email);
  await expectPublicSide(false);
  await guest.goto(openCheckout);
  await pay(guest);
  await expect(guest.getByText(UNAVAILABLE)).toBeVisible();
  await expect(guest).toHaveURL(openCheckout);

  await testHooks(page.request).enableAccount(creator.email);
  await expectPublicSide(true);
  await guest.goto(openCheckout);
  await pay(guest);
  await expect(guest.getByText(`Your tip of $12.00 to ${creator.name} was successful.`)).toBeVisible({ timeout: 30_000 });
  await context.close();
});
