import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, payWithTestCard, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The sandbox payment provider's own pages: onboarding, hosted
 * checkout with Stripe's test cards, the payouts dashboard. The accounts and
 * checkouts are made through the sandbox test hook, which calls the provider as the
 * payments screens will.
 */
const BANNER = "Sandbox — test mode. No real money moves.";

const checkoutState = (request: APIRequestContext, checkoutId: string) => testHooks(request).sandbox.state(checkoutId);

async function expectAccessibleAndNarrow(page: Page, label: string) {
  expect((await new AxeBuilder({ page }).analyze()).violations, label).toEqual([]);
  await expectNarrow(page, label);
}

async function expectNarrow(page: Page, label: string) {
  await page.setViewportSize({ width: 375, height: 800 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${label} scrolls sideways on a 375 px phone`).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a creator onboards through the sandbox form and lands back on our site; the dashboard link opens", async ({ page }) => {
  const { accountId, url } = await testHooks(page.request).sandbox.account();
  await page.goto(url);
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Set up your payout account" })).toBeVisible();
  await expect(page.getByLabel("Bank account number")).toHaveValue("000123456789");
  await expectAccessibleAndNarrow(page, "onboarding");

  await page.getByLabel("Legal name").fill("Maya Makes LLC");
  await page.getByRole("button", { name: "Agree and continue" }).click();
  await expect(page.getByText("Agree to the sandbox terms to continue.")).toBeVisible();
  await expect(page.getByRole("checkbox")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Legal name")).toHaveValue("Maya Makes LLC");

  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Agree and continue" }).click();
  await expect(page).toHaveURL("/sandbox?onboarded=1");
  await expect(page.getByRole("heading", { level: 1, name: "The payments sandbox" })).toBeVisible();
  await expectAccessibleAndNarrow(page, "the sandbox index");

  const login = await testHooks(page.request).sandbox.login(accountId);
  await page.goto(login.url);
  await expect(page.getByRole("heading", { level: 1, name: "Payouts dashboard" })).toBeVisible();
  await expect(page.getByText("Account of Maya Makes LLC")).toBeVisible();
  await expect(page.getByText("No payments yet.")).toBeVisible();
  // The link is signed: without its signature there is no dashboard.
  expect((await page.request.get(`/sandbox/dashboard/${accountId}`)).status()).toBe(404);
  expect((await page.request.get(login.url.replace(/sig=[^&]+/, "sig=forged"))).status()).toBe(404);
  // A tampered return address is not followed either.
  expect((await page.request.get(url.replace(/return=[^&]+/, "return=https%3A%2F%2Fevil.example%2F"))).status()).toBe(404);
});

test("a sponsor pays with 4242 4242 4242 4242 once; going back shows the checkout already paid", async ({ page }) => {
  const checkout = await testHooks(page.request).sandbox.checkout({ amount: 2500, email: "fan@example.com" });
  const opened = await page.goto(checkout.url);
  expect(opened?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(page.getByText("Tip for Maya Makes")).toBeVisible();
  await expect(page.getByText("$25.00", { exact: true })).toBeVisible();
  await expect(page.getByText("Maya Makes LLC")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("fan@example.com");
  await expect(page.getByRole("link", { name: /Cancel and return/ })).toHaveAttribute("href", /\/sandbox\?cancelled=1$/);
  await expectAccessibleAndNarrow(page, "checkout");

  await payWithTestCard(page, { number: "4000 0000 0000 0002" });
  await expect(page.getByText("Your card was declined.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
  await expectAccessibleAndNarrow(page, "checkout with a declined card");
  expect(await checkoutState(page.request, checkout.checkoutId)).toEqual({ status: "open", payments: [], events: [] });

  await payWithTestCard(page, { number: "4242 4242 4242 4242" });
  await expect(page).toHaveURL(`/sandbox?paid=${checkout.checkoutId}`);
  const paid = await checkoutState(page.request, checkout.checkoutId);
  expect(paid).toMatchObject({ status: "complete", payments: [{ id: expect.stringMatching(/^pi_sbx_/), amount: 2500, fee: 103, net: 2500 }] });
  // The server's own worker sends checkout.completed to the webhook endpoint (delivered once the endpoint answers 2xx).
  await expect
    .poll(async () => (await checkoutState(page.request, checkout.checkoutId)).events)
    .toEqual([{ type: "checkout.completed", attempts: expect.any(Number), delivered: expect.any(Boolean) }]);
  await expect.poll(async () => (await checkoutState(page.request, checkout.checkoutId)).events[0]!.attempts).toBeGreaterThanOrEqual(1);

  await page.goBack();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Already paid" })).toBeVisible();
  await expect(page.getByText("This checkout is already paid. Nothing more was charged.")).toBeVisible();
  await expectAccessibleAndNarrow(page, "already paid");
  expect((await checkoutState(page.request, checkout.checkoutId)).payments).toHaveLength(1);

  const login = await testHooks(page.request).sandbox.login(checkout.accountId);
  await page.goto(login.url);
  await expect(page.getByRole("region", { name: "Balance" }).getByText("$25.00")).toBeVisible();
  await expect(page.getByText("Card processing fee $1.03, paid by the platform.")).toBeVisible();
  await expectAccessibleAndNarrow(page, "dashboard with a payment");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("declined and invalid cards are refused beside the card number; nothing is charged and the checkout stays open", async ({ page }) => {
    const checkout = await testHooks(page.request).sandbox.checkout({ amount: 1000 });
    await page.goto(checkout.url);
    await page.getByLabel("Email").fill("someone@example.com");
    const cardNumber = page.getByLabel("Card number");
    for (const [number, message] of [
      ["4000 0000 0000 0002", "Your card was declined."],
      ["4000 0000 0000 9995", "Your card has insufficient funds."],
      ["4242 4242 4242 4241", "Your card number is invalid."],
    ] as const) {
      await payWithTestCard(page, { number });
      await expect(page).toHaveURL(checkout.url);
      await expect(page.getByText(message, { exact: true })).toBeVisible();
      await expect(cardNumber).toHaveAttribute("aria-invalid", "true");
      await expect(cardNumber).toHaveAccessibleDescription(new RegExp(message.replace(".", "\\.")));
      // The number is never echoed back; the email is kept.
      await expect(cardNumber).toHaveValue("");
      await expect(page.getByLabel("Email")).toHaveValue("someone@example.com");
    }
    await payWithTestCard(page, { number: "4242 4242 4242 4242", expiry: "01 / 20" });
    await expect(page.getByText("Your card's expiration date is in the past.")).toBeVisible();
    await expectNarrow(page, "checkout with a refused card, without JavaScript");
    expect(await checkoutState(page.request, checkout.checkoutId)).toEqual({ status: "open", payments: [], events: [] });

    await payWithTestCard(page, { number: "4242424242424242" });
    await expect(page).toHaveURL(`/sandbox?paid=${checkout.checkoutId}`);
    expect((await checkoutState(page.request, checkout.checkoutId)).payments).toHaveLength(1);
  });
});
