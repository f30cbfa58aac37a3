import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { expect, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * Payments setup and My Payments: a person connects a payout
 * account through the sandbox's onboarding, as they would at Stripe. Every
 * test signs up its own verified person; the e2e server runs the sandbox
 * provider, whose button reads "Connect with Sandbox".
 */
const SETUP = "/app/payments/setup";
const MY_PAYMENTS = "/app/account/payments";

async function verifiedUser(page: Page, name = "Payout Person"): Promise<string> {
  const { email } = await signedInAs(page, { prefix: "payouts", name });
  return email;
}

/** From the setup page to the sandbox's onboarding form; returns the state-bearing return address the provider was given. */
async function startOnboarding(page: Page, accountType: "Individual" | "Company" = "Individual"): Promise<string> {
  await page.goto(SETUP);
  await page.getByRole("radio", { name: new RegExp(`^${accountType}`) }).check();
  await page.getByRole("button", { name: "Connect with Sandbox" }).click();
  await expect(page).toHaveURL(/\/sandbox\/onboarding\/acct_sbx_/);
  const returnUrl = new URL(page.url()).searchParams.get("return")!;
  expect(returnUrl).toMatch(/\/app\/payments\/setup\/return\?state=/);
  return returnUrl;
}

async function finishOnboarding(page: Page, legalName: string) {
  await page.getByRole("textbox", { name: /Legal (company )?name/ }).fill(legalName);
  await page.getByRole("checkbox", { name: /I agree/ }).check();
  await page.getByRole("button", { name: "Agree and continue" }).click();
}

async function signedInElsewhere(browser: Browser, baseURL: string | undefined, headers: Record<string, string> | undefined) {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: headers });
  return { context, page: await context.newPage() };
}

test("a new creator connects through the sandbox onboarding, as a company, and ends with payouts on", async ({ page }) => {
  const email = await verifiedUser(page);

  await page.goto("/app/account");
  const tips = page.getByRole("region", { name: "Collect Tips" });
  await expect(tips.getByRole("link", { name: "Your bio pages" })).toHaveAttribute("href", "/app/account/bizbio");
  await tips.getByRole("link", { name: "Set up payments" }).click();
  await expect(page).toHaveURL(SETUP);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payments setup");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByRole("radio", { name: /^Individual/ })).toBeChecked();
  await expect(page.getByText("You will be sent to Sandbox to confirm who you are")).toBeVisible();

  await startOnboarding(page, "Company");
  // The account type reached the provider: the sandbox asks for the company's legal name.
  await expect(page.getByRole("textbox", { name: "Legal company name" })).toBeVisible();
  await expect(page.locator("#main").getByText(email)).toBeVisible();
  await finishOnboarding(page, "Payout Person LLC");

  // Back on our return route, which read the account fresh: complete, so on to My Payments.
  await expect(page).toHaveURL(MY_PAYMENTS);
  await expect(page.locator("[data-toast=success]")).toHaveText(/Your payout account is connected. Payouts are on./);
  const account = page.getByRole("region", { name: "Payout account" });
  await expect(account).toContainText("Payouts are on.");
  await expect(account).toContainText("Your company account at Sandbox");

  // The "payouts enabled" notification beside the welcome from verifying the email (the sandbox's
  // account.updated arrives later and adds none).
  await expect
    .poll(async () => {
      await page.goto(MY_PAYMENTS);
      // The user menu's own link (inside its closed disclosure).
      return page.locator('header a[href="/app/notifications"]').textContent();
    })
    .toBe("Notifications (2)");
  // payments_enabled is on: the bio page form offers sponsorship options instead of asking to set up payments.
  await page.goto("/app/account/bizbio/new");
  await expect(page.getByRole("link", { name: "set up payments" })).toHaveCount(0);

  // My Account and the setup page now both point to My Payments.
  await page.goto("/app/account");
  await expect(page.getByRole("region", { name: "Collect Tips" }).getByRole("link", { name: "My Payments" })).toHaveAttribute("href", MY_PAYMENTS);
  await page.goto(SETUP);
  await expect(page.getByText("Payouts are on: sponsors can pay you from your bio pages.")).toBeVisible();

  // The payouts dashboard opens at the provider, in a new tab.
  await page.goto(MY_PAYMENTS);
  await expect(page.getByRole("region", { name: "Earnings", exact: true })).toContainText("You haven't received any payments yet.");
  await expect(page.getByRole("region", { name: "Payments you made" })).toContainText("You haven't sponsored or tipped anyone yet.");
  const [dashboard] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: /Open your Sandbox payouts dashboard/ }).click()]);
  await expect(dashboard).toHaveURL(/\/sandbox\/dashboard\/acct_sbx_/);
  await expect(dashboard.getByRole("heading", { level: 1 })).toHaveText("Payouts dashboard");
  await expect(dashboard.getByText("Payout Person LLC")).toBeVisible();
});

test("the return from onboarding is refused with a wrong token or someone else's", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  await verifiedUser(page, "First Person");
  const returnUrl = await startOnboarding(page);
  const returnPath = new URL(returnUrl).pathname + new URL(returnUrl).search;

  const wrong = await page.goto(`${SETUP}/return?state=not-the-token`);
  expect(wrong!.status()).toBe(403);
  await expect(page.getByRole("alert")).toHaveText("This payments setup link is not for your account. Start the setup again from Payments.");

  // Someone else, signed in, opening the first person's return address.
  const other = await signedInElsewhere(browser, baseURL, extraHTTPHeaders);
  await verifiedUser(other.page, "Second Person");
  const foreign = await other.page.goto(returnPath);
  expect(foreign!.status()).toBe(403);
  await expect(other.page.getByRole("alert")).toContainText("not for your account");
  const refresh = await other.page.goto(returnPath.replace("/return?", "/refresh?"));
  expect(refresh!.status()).toBe(403);
  await other.context.close();

  // The owner's own return, before finishing onboarding: explained, with the way to continue.
  await page.goto(returnPath);
  await expect(page.getByText("Sandbox has not confirmed your payout account yet")).toBeVisible();
  await page.getByRole("button", { name: "Continue with Sandbox" }).click();
  await expect(page).toHaveURL(/\/sandbox\/onboarding\/acct_sbx_/);
  // An expired link's refresh address gives a fresh onboarding link to the same account.
  const accountPath = new URL(page.url()).pathname;
  await page.goto(returnPath.replace("/return?", "/refresh?"));
  await expect(page).toHaveURL(new RegExp(`${accountPath}\\?`));
});

test("an onboarding link works once: after completing, or once a newer one is made, it says to start again", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  await verifiedUser(page, "Link Holder");
  await startOnboarding(page);
  const older = page.url();
  // Continue with Sandbox again (e.g. from another tab): a newer link replaces the first one.
  await page.goto(SETUP);
  await page.getByRole("button", { name: "Continue with Sandbox" }).click();
  await expect(page).toHaveURL(/\/sandbox\/onboarding\/acct_sbx_/);
  const current = page.url();
  expect(current).not.toBe(older);
  await finishOnboarding(page, "Link Holder");
  await expect(page).toHaveURL(MY_PAYMENTS);

  // Anyone holding either link (here a browser with no session) can no longer change the payout details.
  const stranger = await browser.newContext({ baseURL, extraHTTPHeaders });
  const other = await stranger.newPage();
  for (const link of [older, current]) {
    const response = await other.goto(link);
    expect(response!.status()).toBe(410);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("This link has expired");
    await expect(other.getByRole("alert")).toContainText("already been used or replaced by a newer one");
    await expect(other.getByRole("link", { name: "Payments setup" })).toHaveAttribute("href", SETUP);
    await expect(other.getByRole("textbox", { name: /Legal name/ })).toHaveCount(0);
  }
  await stranger.close();
  const dashboard = page.getByRole("region", { name: "Payout account" });
  await expect(dashboard).toContainText("Payouts are on.");
});

test("the webhook addresses answer GET with 405 and Allow: POST, not a server error", async ({ request }) => {
  for (const provider of ["sandbox", "stripe"]) {
    const response = await request.get(`/api/payments/webhooks/${provider}`);
    expect(response.status()).toBe(405);
    expect(response.headers()["allow"]).toBe("POST");
  }
});

test("without JavaScript the setup form validates on the server and sends the person to the provider", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  await verifiedUser(page);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, extraHTTPHeaders, storageState: await page.context().storageState() });
  const plain = await context.newPage();
  await plain.goto(SETUP);
  await plain.getByLabel("Email").fill("not an email");
  await plain.getByRole("button", { name: "Connect with Sandbox" }).click();
  await expect(plain.locator("#field-email-error")).toHaveText("Email is invalid. Please try again.");
  await expect(plain.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await plain.getByLabel("Email").fill("payouts-nojs@e2e.example");
  await plain.getByRole("button", { name: "Connect with Sandbox" }).click();
  await expect(plain).toHaveURL(/\/sandbox\/onboarding\/acct_sbx_/);
  await expect(plain.getByText("payouts-nojs@e2e.example")).toBeVisible();
  await context.close();
});

test("on a 375px phone setup and My Payments do not scroll sideways, and axe finds nothing", async ({ page }) => {
  await verifiedUser(page);
  await page.setViewportSize({ width: 375, height: 740 });
  const check = async () => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  };
  await page.goto(SETUP);
  await check();
  // My Payments shows the setup form itself while there is no complete account (the rewritten notification address).
  await page.goto(MY_PAYMENTS);
  await expect(page.getByRole("button", { name: "Connect with Sandbox" })).toBeVisible();
  await check();
  await page.getByLabel("Email").fill("");
  await page.getByRole("button", { name: "Connect with Sandbox" }).click();
  await expect(page.locator("#field-email-error")).toHaveText("Required");
  await check();

  await testHooks(page.request).paymentsReady();
  await page.goto(MY_PAYMENTS);
  await expect(page.getByRole("region", { name: "Payout account" })).toContainText("Payouts are on.");
  await check();
});
