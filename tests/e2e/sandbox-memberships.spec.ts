import AxeBuilder from "@axe-core/playwright";
import { expect, payWithTestCard, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The sandbox's membership pages on their own: the hosted membership checkout, the test clock
 * (the hook and the payouts dashboard's button), and the card page that pays a failed renewal.
 * The checkout is made through the sandbox test hook, which calls the provider as the join page will.
 */
const BANNER = "Sandbox — test mode. No real money moves.";

test("a member joins with the 0341 card, its renewal fails, and a good card on the card page pays it at once", async ({ page }) => {
  const hooks = testHooks(page.request);
  const checkout = await hooks.sandbox.membershipCheckout({ amount: 500, email: "member@example.com" });
  const opened = await page.goto(checkout.url);
  expect(opened?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(page.getByText("Gold membership · Maya Makes")).toBeVisible();
  await expect(page.getByText("$5.00 per month", { exact: true })).toBeVisible();
  await expect(page.getByText("Maya Makes LLC")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("member@example.com");
  await page.getByText("Test cards", { exact: true }).click();
  await expect(page.getByText("4000 0000 0000 0341", { exact: true })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await payWithTestCard(page, { number: "4000 0000 0000 0002", button: /^Subscribe/ });
  await expect(page.getByText("Your card was declined.", { exact: true })).toBeVisible();
  expect((await hooks.sandbox.membershipState(checkout.checkoutId)).subscriptionId).toBeNull();

  await payWithTestCard(page, { number: "4000 0000 0000 0341", button: /^Subscribe/ });
  await expect(page).toHaveURL(`/sandbox?joined=${checkout.checkoutId}`);
  const joined = await hooks.sandbox.membershipState(checkout.checkoutId);
  expect(joined.state).toMatchObject({ status: "active", invoices: [{ status: "paid", amount: 500 }] });
  // Back to the paid checkout: nothing more is charged.
  await page.goto(checkout.url);
  await expect(page.getByText("This checkout is already paid. Nothing more was charged.")).toBeVisible();

  const advanced = await hooks.advanceSandboxMemberships(joined.subscriptionId!);
  expect(advanced).toMatchObject({ renewed: 0, failed: 1, ended: 0 });

  await page.goto(joined.cardUrl!);
  await expect(page.getByRole("heading", { level: 1, name: "Your membership's card" })).toBeVisible();
  await expect(page.getByText("Past due: the renewal payment failed")).toBeVisible();
  await expect(page.getByText("VISA ending in 0341 (test card: its renewals fail)")).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  // The link is signed: a forged one is not a page.
  expect((await page.request.get(joined.cardUrl!.replace(/sig=[^&]+/, "sig=forged"))).status()).toBe(404);

  await payWithTestCard(page, { number: "4242 4242 4242 4242", button: "Save card and pay $5.00" });
  await expect(page.getByText("Your card was updated and the unpaid renewal was paid with it. Your membership is active again.")).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  const fixed = await hooks.sandbox.membershipState(checkout.checkoutId);
  expect(fixed.state?.invoices.map((i) => i.status)).toEqual(["paid", "paid"]);

  // The test clock on the creator's payouts dashboard moves it on again: renewed with the new card.
  const login = await hooks.sandbox.login(checkout.accountId);
  await page.goto(login.url);
  await expect(page.getByText("1 membership pays this account.", { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Advance the test clock" }).click();
  await expect(page.getByText("The test clock moved every membership on by one period: 1 renewed, 0 failed to renew, 0 ended.")).toBeVisible();
  expect((await hooks.sandbox.membershipState(checkout.checkoutId)).state?.invoices).toHaveLength(3);
});
