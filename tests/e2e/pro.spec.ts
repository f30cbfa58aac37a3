import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, payWithTestCard, signedInAs, test, waitForMail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * Pro membership through the sandbox: a verified person chooses a
 * plan, pays on the sandbox's hosted checkout, comes back to a thanks message
 * that leads to where they were, and manages the plan in the sandbox's billing
 * portal, whose test clock lets a period end. Every test signs up its own person.
 */
async function verifiedUser(page: Page): Promise<string> {
  const { email } = await signedInAs(page, { prefix: "pro", name: "Pro Person" });
  return email;
}

async function payWith(page: Page, number: string) {
  await expect(page).toHaveURL(/\/sandbox\/pro-checkout\/cs_sbx_/);
  await expect(page.getByText("Sandbox — test mode. No real money moves.")).toBeVisible();
  await payWithTestCard(page, { number, button: /^(Subscribe|Pay)/ });
}

async function buy(page: Page, plan: "Launchpad" | "Star Power" | "Limitless", card = "4242 4242 4242 4242", returnTo?: string) {
  await page.goto(returnTo ? `/app/pro?returnTo=${encodeURIComponent(returnTo)}` : "/app/pro");
  await page.getByRole("button", { name: `Choose ${plan}` }).click();
  await payWith(page, card);
  await expect(page).toHaveURL(/\/app\/pro\?checkout=success/);
  await expect(page.getByRole("heading", { name: "Thank you for becoming a Pro!" })).toBeVisible();
}

async function openPortalFromAccount(page: Page) {
  await page.goto("/app/account");
  await page.getByRole("button", { name: "Pro Portal" }).click();
  await expect(page).toHaveURL(/\/sandbox\/portal\/cus_sbx_/);
  await expect(page.getByRole("heading", { name: "Billing portal", level: 1 })).toBeVisible();
}

/** The webhook reaches the app a moment after the sandbox's change: reload until the page shows it. */
async function eventually(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 15_000 });
}

async function proNotifications(page: Page, email: string): Promise<string[]> {
  return (await testHooks(page.request).proNotifications(email)).map((notification) => notification.title);
}

test("a verified person buys Launchpad, is thanked and sent back, cancels in the portal, stays Pro until the period ends, then is not", async ({ page }) => {
  const email = await verifiedUser(page);
  await page.goto("/app/pro?returnTo=/app/sponsors");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Become a Pro!");
  await expect(page.getByText("Choose one of the plans below")).toBeVisible();
  for (const [plan, price] of [["Launchpad", "$2 per month"], ["Star Power", "$15 per year"], ["Limitless", "$50 one-time"]] as const) {
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: plan }) });
    await expect(card.getByText(price)).toBeVisible();
  }
  await page.getByRole("button", { name: "Choose Launchpad" }).click();
  await payWith(page, "4242 4242 4242 4242");

  await expect(page.getByRole("heading", { name: "Thank you for becoming a Pro!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to where you were" })).toHaveAttribute("href", "/app/sponsors");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are a Pro");
  // The same plan is not offered again; the other subscription is a switch in the portal.
  await expect(page.getByRole("button", { name: "Choose Launchpad" })).toHaveCount(0);
  await expect(page.getByText("Your current plan")).toBeVisible();
  await expect(page.getByRole("button", { name: "Switch to Star Power in the Pro Portal" })).toBeVisible();

  await page.goto("/app/account");
  await expect(page.getByTestId("pro-status")).toContainText("Pro: Launchpad, renews on");
  await eventually(page, async () => expect(await proNotifications(page, email)).toEqual(["Welcome to Pro"]));

  await openPortalFromAccount(page);
  await expect(page.getByText("Launchpad")).toBeVisible();
  await expect(page.getByText("VISA ending in 4242")).toBeVisible();
  await page.getByRole("button", { name: "Cancel plan" }).click();
  await expect(page.getByText("Your plan is cancelled. It stays active until the end of the period.")).toBeVisible();
  await page.getByRole("link", { name: /^Return to/ }).click();
  await expect(page).toHaveURL("/app/account");
  await eventually(page, () => expect(page.getByTestId("pro-status")).toContainText("Pro: Launchpad, until"));
  await page.goto("/app/pro");
  await expect(page.getByText(/Your plan is cancelled and will not renew\. You are Pro until/)).toBeVisible();

  await openPortalFromAccount(page);
  await page.getByRole("button", { name: "Advance to the end of the period" }).click();
  await expect(page.getByText("The period ended: the subscription is over.")).toBeVisible();
  await page.goto("/app/account");
  await eventually(page, () => expect(page.getByTestId("pro-status")).toHaveText("Not a Pro member yet."));
  expect(await proNotifications(page, email)).toEqual(["Pro ended", "Welcome to Pro"]);
  await page.goto("/app/pro");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Become a Pro!");
});

test("a Launchpad member buying Limitless is told before paying that the subscription ends on its date, and every Pro screen says so until it does", async ({ page }) => {
  const email = await verifiedUser(page);
  await buy(page, "Launchpad");
  const renewsOn = (await page.getByRole("region", { name: "Your membership" }).locator("dd").nth(1).textContent())!.trim();
  expect(renewsOn).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);

  // Before paying: the Limitless card says what happens to the subscription, with the date.
  await page.goto("/app/pro");
  await expect(page.getByTestId("limitless-ends-subscription")).toHaveText(`Buying Limitless ends your Launchpad subscription on ${renewsOn}: it will not renew, and you stay Pro for good.`);
  await buy(page, "Limitless");
  await expect(page.getByText("Never expires", { exact: true })).toBeVisible();
  await expect(page.getByText(`Your Launchpad subscription ($2 per month) ends on ${renewsOn} and will not renew: Limitless covers you from now on.`)).toBeVisible();
  // Limitless members are offered nothing more.
  await expect(page.getByRole("button", { name: /^Choose/ })).toHaveCount(0);
  await page.goto("/app/account");
  await expect(page.getByTestId("pro-status")).toHaveText(`Pro: Limitless, never expires. Your Launchpad subscription ends on ${renewsOn} and will not renew.`);
  // The Limitless purchase is welcomed (with its mail) as the first plan was.
  await eventually(page, async () => expect(await proNotifications(page, email)).toEqual(["Welcome to Pro", "Welcome to Pro"]));
  await expect(async () => expect((await waitForMail(email, { subject: /^Welcome to Pro$/ })).text).toContain("Your Limitless plan is active")).toPass({ timeout: 15_000 });

  // At the provider the subscription is already set to end: nothing is left to cancel.
  await openPortalFromAccount(page);
  await expect(page.getByText("Cancelled: active until the period ends")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel plan" })).toHaveCount(0);
  await page.getByRole("button", { name: "Advance to the end of the period" }).click();
  await expect(page.getByText("The period ended: the subscription is over.")).toBeVisible();
  await page.goto("/app/account");
  await eventually(page, async () => {
    await expect(page.getByTestId("pro-status")).toHaveText("Pro: Limitless, never expires.");
    expect(await proNotifications(page, email)).toEqual(["Welcome to Pro", "Welcome to Pro"]);
  });
});

test("choosing a plan again goes back to the checkout already open for it, not a new one", async ({ page }) => {
  await verifiedUser(page);
  await page.goto("/app/pro");
  await page.getByRole("button", { name: "Choose Star Power" }).click();
  await expect(page).toHaveURL(/\/sandbox\/pro-checkout\/cs_sbx_/);
  const first = page.url();
  await page.getByRole("link", { name: /^Cancel and return to/ }).click();
  await expect(page.getByText("Checkout cancelled. Nothing was charged")).toBeVisible();
  await page.getByRole("button", { name: "Choose Star Power" }).click();
  await expect(page).toHaveURL(first);
  // Another plan is a checkout of its own; paying it makes the person Pro, and the first can no longer be paid.
  await page.goto("/app/pro");
  await page.getByRole("button", { name: "Choose Launchpad" }).click();
  await expect(page).not.toHaveURL(first);
  await payWith(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { name: "Thank you for becoming a Pro!" })).toBeVisible();
  await page.goto(first);
  await payWith(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are already a Pro");
  await expect(page.getByRole("alert")).toHaveText("You already have a Pro subscription: one is all you need. Nothing was charged. To change plans, use the Pro Portal.");
});

test("a renewal that fails with the 0341 card shows the notice to update the card; a new card pays it", async ({ page }) => {
  await verifiedUser(page);
  await buy(page, "Star Power", "4000 0000 0000 0341");
  await openPortalFromAccount(page);
  await page.getByRole("button", { name: "Advance to the end of the period" }).click();
  await expect(page.getByText("The renewal payment failed: the subscription is past due.")).toBeVisible();
  await page.goto("/app/pro");
  await eventually(page, () => expect(page.getByText("Your last renewal payment failed. Update your card in the Pro Portal to stay Pro.")).toBeVisible());

  await page.getByRole("button", { name: "Open the Pro Portal" }).click();
  await expect(page).toHaveURL(/\/sandbox\/portal\//);
  await payWithTestCard(page, { button: "Save card" });
  await expect(page.getByText("Card updated. The overdue renewal is paid.")).toBeVisible();
  await page.goto("/app/pro");
  await eventually(page, () => expect(page.getByText("Renews on")).toBeVisible());
  await expect(page.getByText("Your last renewal payment failed.", { exact: false })).toHaveCount(0);
});

test("a declined card stays not Pro; cancelling the checkout comes back calmly", async ({ page }) => {
  await verifiedUser(page);
  // Before any purchase, My Account's Pro Portal leads to the plans.
  await page.goto("/app/account");
  await expect(page.getByTestId("pro-status")).toHaveText("Not a Pro member yet.");
  await page.getByRole("link", { name: "Pro Portal" }).click();
  await expect(page).toHaveURL("/app/pro");
  await page.getByRole("button", { name: "Choose Star Power" }).click();
  await payWith(page, "4000 0000 0000 0002");
  await expect(page.getByText("Your card was declined.")).toBeVisible();
  await page.getByRole("link", { name: /^Cancel and return/ }).click();
  await expect(page).toHaveURL(/\/app\/pro\?checkout=cancelled/);
  await expect(page.getByText("Checkout cancelled. Nothing was charged; you can choose a plan whenever you like.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Become a Pro!");
  await page.goto("/app/account");
  await expect(page.getByTestId("pro-status")).toHaveText("Not a Pro member yet.");
});

test("the Pro page is accessible and fits a 375 px phone, before and after buying", async ({ page }) => {
  await verifiedUser(page);
  await page.setViewportSize({ width: 375, height: 740 });
  for (const step of ["plans", "member"]) {
    if (step === "member") await buy(page, "Launchpad");
    else await page.goto("/app/pro");
    expect((await new AxeBuilder({ page }).analyze()).violations, step).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), step).toBeLessThanOrEqual(375);
  }
  await openPortalFromAccount(page);
  expect((await new AxeBuilder({ page }).analyze()).violations, "portal").toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "portal").toBeLessThanOrEqual(375);
});

test("without JavaScript, a plan is bought and cancelled in the portal", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  await verifiedUser(page);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders, storageState: await page.context().storageState() });
  const noJs = await context.newPage();
  await buy(noJs, "Launchpad");
  await openPortalFromAccount(noJs);
  await noJs.getByRole("button", { name: "Cancel plan" }).click();
  await expect(noJs.getByText("Your plan is cancelled. It stays active until the end of the period.")).toBeVisible();
  await expect(noJs.getByRole("button", { name: "Resume plan" })).toBeVisible();
  await context.close();
});
