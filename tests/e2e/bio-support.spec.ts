import AxeBuilder from "@axe-core/playwright";
import { devices, type Browser, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, payWithTestCard, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * "Support {name}" at the top of the bio page, the creator's Support
 * settings in the editor, and a checkout that stays with the creator: a fan
 * taps a preset amount on the bio page, pays at the sandbox's checkout and
 * lands on a success page with the creator's own thank-you.
 *
 * Each test makes its own verified creator whose payout account is complete
 * (the payments test hook, through the sandbox's real onboarding and webhook).
 */

type Creator = { name: string; ending: string };

/** A verified creator who can take payments, with a bio page; left signed in on `page`. */
async function creator(page: Page): Promise<Creator> {
  const tag = randomBytes(4).toString("hex");
  const name = `Maker ${tag}`;
  await signedInAs(page, { prefix: "support", name });
  await testHooks(page.request).paymentsReady();
  const ending = `tips_${tag}`;
  const response = await page.request.post("/app/account/bizbio/new", {
    form: { name, customEnding: ending, blurb: "I make videos." },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return { name, ending };
}

/** The editor's Support part of the creator's only page. */
async function openSupportSettings(page: Page) {
  await page.goto("/app/account/bizbio");
  await page.getByRole("link", { name: /^Edit/ }).first().click();
  // Exact: "Supporter wall and goal" and the footer's "Support" column are headings too.
  await expect(page.getByRole("main").getByRole("heading", { level: 2, name: "Support", exact: true })).toBeVisible();
}

async function fan(browser: Browser, baseURL: string | undefined, extraHTTPHeaders: Record<string, string> | undefined, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders, javaScriptEnabled });
  return { context, page: await context.newPage() };
}

/** No axe violation on a phone (390 px, and no sideways scroll) or on a desktop (1280 px). */
async function expectAccessibleOnPhoneAndDesktop(page: Page, label: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    expect((await new AxeBuilder({ page }).analyze()).violations, `${label} at ${width} px`).toEqual([]);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${label} scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
  }
}

test("without JavaScript a fan taps $5 in the support block, pays, and sees the creator's thank-you and where the receipt went", async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  const maker = await creator(page);
  const thanks = `You just made my week, thank you! ${randomBytes(3).toString("hex")}`;
  await openSupportSettings(page);
  await page.getByLabel("Thank-you message").fill(thanks);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Your changes to ${new URL(BIO_ORIGIN).host}/${maker.ending} were saved.` })).toBeVisible();

  const { context, page: visitor } = await fan(browser, baseURL, extraHTTPHeaders, false);
  await visitor.goto(`${BIO_ORIGIN}/${maker.ending}`);
  const block = visitor.getByRole("region", { name: `Support ${maker.name}` });
  await expect(block).toBeVisible();
  await expect(block.getByRole("link")).toHaveText(["$3", "$5", "$10", "Other"]);
  await block.getByRole("link", { name: "$5", exact: true }).click();

  // The checkout stays with the creator: their name and face, no marketing header or footer.
  await expect(visitor).toHaveURL(`/app/payments/checkout?page=${maker.ending}&kind=tip&amount=500`);
  await expect(visitor.getByText(maker.name, { exact: true })).toBeVisible();
  await expect(visitor.getByRole("banner")).toHaveCount(0);
  await expect(visitor.getByRole("contentinfo")).toHaveCount(0);
  await expect(visitor.getByRole("link", { name: "Powered by Sponsorgrid" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: `Back to ${maker.name}'s page` })).toHaveAttribute("href", `${BIO_ORIGIN}/${maker.ending}`);
  await expect(visitor.getByLabel("Amount (USD)")).toHaveValue("5");
  await expect(visitor.getByRole("link", { name: "$5", exact: true })).toHaveAttribute("aria-current", "true");
  await expect(visitor.getByText("Optional: we'll send your receipt here.")).toBeVisible();
  const checkoutUrl = visitor.url();

  // Without JavaScript another chip is a link that comes back with its amount chosen.
  await visitor.getByRole("link", { name: "$10", exact: true }).click();
  await expect(visitor.getByLabel("Amount (USD)")).toHaveValue("10");
  await visitor.getByRole("link", { name: "$5", exact: true }).click();
  await expect(visitor.getByLabel("Amount (USD)")).toHaveValue("5");

  await visitor.getByLabel("Sponsor email").fill("fan@e2e.example");
  await visitor.getByLabel("Message").fill("Love the videos");
  // The name and "keep it private" are folded away until asked for (no script needed to open them).
  await expect(visitor.getByLabel("Your name")).toBeHidden();
  await visitor.locator("summary", { hasText: "Your name, or stay private" }).click();
  await visitor.getByLabel("Your name").fill("Sam");
  await expect(visitor.getByLabel("Your name")).toHaveAccessibleDescription(`Only ${maker.name} sees it.`);
  await visitor.getByLabel("Keep my support private").check();
  await visitor.getByRole("button", { name: "Proceed to Checkout" }).click();

  await expect(visitor).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
  await expect(visitor.getByRole("button", { name: /^Pay \$5\.00/ })).toBeVisible();
  await payWithTestCard(visitor);

  await expect(visitor).toHaveURL(/\/app\/payments\/success\?session=ss_[0-9a-f]{24}$/);
  // The page looks again by itself (no script) until the provider's event has come through.
  await expect(visitor.getByText(`Your tip of $5.00 to ${maker.name} was successful.`)).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByText(thanks)).toBeVisible();
  await expect(visitor.getByText("Receipt sent to fan@e2e.example")).toBeVisible();
  await expect(visitor.getByRole("banner")).toHaveCount(0);
  // Said honestly: this page shows no supporter wall, so the fan is seen by the creator only; and a way back.
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Thank you for your tip!");
  await expect(visitor.getByRole("region", { name: "Where you appear" })).toContainText(
    `${maker.name} sees your tip and message. Their page doesn't show a supporter wall, so you don't appear on it.`,
  );
  await expect(visitor.getByRole("link", { name: `Back to ${maker.name}'s page` })).toHaveAttribute("href", `${BIO_ORIGIN}/${maker.ending}`);
  await expect(visitor.getByText(/ss_[0-9a-f]/)).toHaveCount(0);
  // Without JavaScript, sharing is a plain link to the creator's page.
  await expect(visitor.getByRole("link", { name: `Share ${maker.name}'s page` })).toHaveAttribute("href", `${BIO_ORIGIN}/${maker.ending}`);

  // The same success address in another browser shows no one's email.
  const { context: other, page: stranger } = await fan(browser, baseURL, extraHTTPHeaders, true);
  await stranger.goto(visitor.url());
  await expect(stranger.getByText(thanks)).toBeVisible();
  await expect(stranger.getByText("Receipt sent to f•••@e2e.example")).toBeVisible();
  await expect(stranger.getByText("fan@e2e.example")).toHaveCount(0);
  // With JavaScript the share link is a button (share sheet, or the link copied).
  await expect(stranger.getByRole("button", { name: `Share ${maker.name}'s page` })).toBeVisible();
  // axe runs as a script, so the pages are checked in this browser, which has JavaScript.
  await expectAccessibleOnPhoneAndDesktop(stranger, "success");
  await stranger.goto(checkoutUrl);
  await expect(stranger.getByLabel("Amount (USD)")).toHaveValue("5");
  await expectAccessibleOnPhoneAndDesktop(stranger, "checkout");
  await other.close();
  await context.close();
});

test("a tip below the creator's minimum is refused; with tips off the support block is gone and checkout says why", async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  const maker = await creator(page);
  const { context, page: visitor } = await fan(browser, baseURL, extraHTTPHeaders, true);

  // With JavaScript, a chip fills the amount without leaving the page.
  await visitor.goto(`/app/payments/checkout?page=${maker.ending}&kind=tip`);
  await expect(visitor.getByLabel("Amount (USD)")).toHaveValue("");
  await visitor.getByRole("link", { name: "$10", exact: true }).click();
  await expect(visitor.getByLabel("Amount (USD)")).toHaveValue("10");
  await expect(visitor).toHaveURL(`/app/payments/checkout?page=${maker.ending}&kind=tip`);

  await visitor.getByLabel("Amount (USD)").fill("0.75");
  await visitor.getByLabel("Message").fill("A little something");
  await visitor.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(visitor.locator("#field-amount-error")).toHaveText("The minimum tip is $1.00");
  await expect(visitor.getByLabel("Message")).toHaveValue("A little something");

  // The creator raises the minimum and checks the form's rules; then turns tips off.
  await openSupportSettings(page);
  await page.getByLabel("Minimum tip (USD)").fill("4");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("#field-preset0-error")).toHaveText("Must be at least your minimum tip, $4");
  await expectAccessibleOnPhoneAndDesktop(page, "editor with support settings");
  await page.getByLabel("First amount").fill("4");
  await page.getByRole("switch", { name: "Accept tips" }).uncheck();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tips are off" })).toBeVisible();
  await openSupportSettings(page);
  await expect(page.getByRole("switch", { name: "Accept tips" })).not.toBeChecked();
  await expect(page.getByLabel("Minimum tip (USD)")).toHaveValue("4");

  await visitor.goto(`${BIO_ORIGIN}/${maker.ending}`);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(maker.name);
  await expect(visitor.getByRole("heading", { name: `Support ${maker.name}` })).toHaveCount(0);
  await expect(visitor.locator('a[href*="kind=tip"]')).toHaveCount(0);

  await visitor.goto(`/app/payments/checkout?page=${maker.ending}&kind=tip&amount=500`);
  await expect(visitor.getByText(`${maker.name} isn't taking tips right now.`)).toBeVisible();
  await expect(visitor.getByRole("button", { name: "Proceed to Checkout" })).toHaveCount(0);
  const response = await visitor.request.post(`/app/payments/checkout?page=${maker.ending}&kind=tip`, {
    form: { amount: "10", sponsorEmail: "", message: "Hi" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(409);
  expect(await response.text()).toContain("taking tips right now.");
  await context.close();
});
