import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, signedInAs, signInAsStaff, test } from "./fixtures";

/**
 * The back office's Payments: staff find a creator's sandbox payments (made along the real path:
 * the sandbox's checkout paid with the test card, its events through our webhook), open one, read
 * its ledger rows and events, refund it with a reason, and the creator sees it refunded.
 */
const PAYMENTS = "/app/admin/payments";
const PHONE = { width: 375, height: 812 };

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** A creator in a browser of their own, with two paid $25 tips, one paid $70 tip and one unpaid checkout. */
async function creatorWithPayments(browser: Browser) {
  const { page } = await otherClient(browser);
  const { email } = await signedInAs(page, { prefix: "paidcreator", name: "Paid Creator" });
  await testHooks(page.request).paymentsReady();
  const small = await testHooks(page.request).sponsorPayments({ paid: 2, pending: 1, amount: 2500 });
  const large = await testHooks(page.request).sponsorPayments({ paid: 1, amount: 7000 });
  return { page, email, ending: small.ending, small, largeId: large.paid[0]! };
}

test("staff filter and search every payment, open one, refund it with a reason; the creator sees it refunded", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const creator = await creatorWithPayments(browser);
  const staff = await signInAsStaff(page);

  await page.goto(PAYMENTS);
  await expect(page.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
  await page.getByLabel("Creator (email or page ending)").fill(creator.email);
  await page.getByRole("button", { name: "Filter" }).click();
  const payments = page.getByRole("table", { name: "Payments, newest first" });
  await expect(payments.getByRole("row")).toHaveCount(1 + 4);
  const totals = page.getByRole("table", { name: "Totals of the filtered payments, from the ledger" });
  // 2 × $25 + $70 paid; the unpaid checkout moved no money.
  await expect(totals.getByRole("row", { name: /USD/ }).getByRole("cell").nth(1)).toContainText("$120.00");
  await axeClean(page);

  // The same creator by their page's ending; then narrowed by status and by amount typed in dollars.
  await page.getByLabel("Creator (email or page ending)").fill(creator.ending);
  await page.getByLabel("Status").selectOption("pending");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(payments.getByRole("row")).toHaveCount(1 + 1);
  await expect(payments).toContainText("pending");
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("Minimum amount").fill("50");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(payments.getByRole("row")).toHaveCount(1 + 1);
  await expect(payments).toContainText("$70.00");
  await page.getByLabel("Minimum amount").fill("fifty");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("alert")).toContainText("Minimum amount must be an amount like 25 or 25.50.");

  // Open the $70 payment: its facts, ledger rows and the provider's events.
  await page.goto(`${PAYMENTS}?creator=${encodeURIComponent(creator.email)}&min=50`);
  await payments.getByRole("link").first().click();
  await expect(page).toHaveURL(`${PAYMENTS}/${creator.largeId}`);
  await expect(page.getByRole("heading", { name: "Payment $70.00", level: 1 })).toBeVisible();
  await expect(page.getByText(`Paid Creator <${creator.email}>`)).toBeVisible();
  const ledger = page.getByRole("table", { name: "Ledger rows" });
  await expect(ledger.getByRole("row")).toHaveCount(1 + 1);
  await expect(ledger.getByRole("row").nth(1)).toContainText("payment");
  await expect(ledger.getByRole("row").nth(1)).toContainText("$70.00");
  const events = page.getByRole("table", { name: "Provider events" });
  await expect(events).toContainText("checkout.completed");
  await expect(page.getByText("No refund has been asked for.")).toBeVisible();
  await axeClean(page);

  // Search by the payment intent id, as staff copy it from the payment's page.
  const intentId = (await page.locator("dt", { hasText: "Payment intent id" }).locator("xpath=following-sibling::dd[1]").textContent())!.trim();
  expect(intentId).toMatch(/^pi_/);
  await page.goto(PAYMENTS);
  await page.getByLabel("Payment, checkout, charge, refund or dispute id").fill(intentId);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(payments.getByRole("row")).toHaveCount(1 + 1);
  await payments.getByRole("link").first().click();
  await expect(page).toHaveURL(`${PAYMENTS}/${creator.largeId}`);

  // A reason is required: blank spaces are refused by the server with the field's message.
  const reason = page.getByRole("textbox", { name: "Reason for the refund" });
  await reason.fill("   ");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByText("Say why this payment is refunded.")).toBeVisible();
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  await reason.fill("The sponsor paid twice by mistake.");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByText("Refund requested.")).toBeVisible();
  const refund = page.getByRole("region", { name: "Refund" });
  await expect(refund.getByRole("definition").filter({ hasText: "staff" })).toHaveText(`staff (${staff.email})`);
  await expect(refund).toContainText("The sponsor paid twice by mistake.");
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  // The provider's refund event arrives through our webhook: the ledger gains its refund row.
  await expect(async () => {
    await page.reload();
    await expect(ledger.getByRole("row")).toHaveCount(1 + 2, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(ledger.getByRole("row").nth(2)).toContainText("refund");
  await expect(ledger.getByRole("row").nth(2)).toContainText("-$70.00");
  await expect(page.locator("dd").first()).toHaveText("refunded");
  await axeClean(page);

  // The creator sees it refunded among their own payments, and was told.
  await creator.page.goto(`/app/account/sponsors/payments/${creator.largeId}`);
  await expect(creator.page.getByText("Status: Refunded")).toBeVisible();
  await expect.poll(async () => (await testHooks(creator.page.request).sponsorSession(creator.largeId)).status).toBe("refunded");
  await creator.page.goto("/app/notifications");
  await expect(creator.page.getByText(/refund/i).first()).toBeVisible();
  await creator.page.context().close();
});

test("the payments pages read on a phone without sideways scrolling, tables as cards, and pass axe", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const creator = await creatorWithPayments(browser);
  await testHooks(creator.page.request).setPro(true);
  await signInAsStaff(page);
  await page.setViewportSize(PHONE);
  await page.goto(`${PAYMENTS}?creator=${encodeURIComponent(creator.email)}`);
  const payments = page.getByRole("table", { name: "Payments, newest first" });
  await expect(payments.getByRole("row")).toHaveCount(1 + 4);
  await noSidewaysScroll(page);
  await axeClean(page);
  await page.goto(`${PAYMENTS}/${creator.largeId}`);
  await expect(page.getByRole("heading", { name: "Payment $70.00", level: 1 })).toBeVisible();
  await noSidewaysScroll(page);
  for (const [tab, caption] of [
    ["Pro memberships", "Pro memberships, latest change first"],
    ["Payout accounts", "Payout accounts, newest first"],
    ["Platform fee", "Platform fee earned by month (UTC)"],
  ] as const) {
    await page.goto(PAYMENTS);
    await page.getByRole("navigation", { name: "Payments views" }).getByRole("link", { name: tab }).click();
    await expect(page.getByRole("table", { name: caption })).toBeVisible();
    await noSidewaysScroll(page);
    await axeClean(page);
  }
  // The creator's Pro membership and payout account are listed with their owner.
  await page.goto(`${PAYMENTS}/pro`);
  await expect(page.getByRole("row", { name: new RegExp(creator.email.replace(/[.+]/g, "\\$&")) })).toContainText("limitless");
  await page.goto(`${PAYMENTS}/payouts`);
  await expect(page.getByRole("row", { name: new RegExp(creator.email.replace(/[.+]/g, "\\$&")) })).toContainText("Can take payments");
  await creator.page.context().close();
});

test("someone who is not staff gets the site's 404 from every payments page and from the refund", async ({ page, browser }) => {
  const creator = await creatorWithPayments(browser);
  for (const path of [PAYMENTS, `${PAYMENTS}/pro`, `${PAYMENTS}/payouts`, `${PAYMENTS}/fees`, `${PAYMENTS}/${creator.largeId}`]) {
    const response = await creator.page.goto(path);
    expect({ path, status: response?.status() }).toEqual({ path, status: 404 });
  }
  const origin = new URL(creator.page.url()).origin;
  const refund = await creator.page.request.post(`${PAYMENTS}/${creator.largeId}`, { form: { reason: "mine" }, headers: { Origin: origin } });
  expect(refund.status()).toBe(404);
  expect((await testHooks(creator.page.request).sponsorSession(creator.largeId)).refundRequest).toBeNull();
  await creator.page.context().close();
  // A guest is sent to sign in.
  await page.goto(PAYMENTS);
  await expect(page).toHaveURL(/\/signin\?/);
});
