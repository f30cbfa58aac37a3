import AxeBuilder from "@axe-core/playwright";
import { randomInt } from "node:crypto";
import { E2E_TEST_ROUTES_SECRET, TEST_ROUTES_SECRET_HEADER } from "#tests/support/e2e-secret";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, signInAsStaff, signedInAs, test } from "./fixtures";

const PAGE = "/app/admin/reconciliation";
const today = () => new Date().toISOString().slice(0, 10);

test("staff reconcile today after sandbox payments and a refund, and see 0 differences", async ({ page, browser }) => {
  test.setTimeout(120_000);
  // A creator, in a browser of their own, is paid twice at the sandbox and refunds one payment.
  const creator = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`, [TEST_ROUTES_SECRET_HEADER]: E2E_TEST_ROUTES_SECRET },
  });
  const creatorPage = await creator.newPage();
  await signedInAs(creatorPage, { prefix: "recon-creator" });
  const hooks = testHooks(creatorPage.request);
  await hooks.paymentsReady();
  const made = await hooks.sponsorPayments({ paid: 2, amount: 2500 });
  const [refunded, kept] = made.paid as [string, string];
  await expect.poll(async () => (await hooks.sponsorSession(kept)).status, { timeout: 15_000 }).toBe("completed");
  await creatorPage.goto("/app/account/sponsors/payments");
  const card = creatorPage.getByRole("listitem").filter({ has: creatorPage.locator(`a[href$="/payments/${refunded}"]`) });
  await card.getByRole("button", { name: "Refund", exact: true }).click();
  await card.getByRole("button", { name: "Yes, refund" }).click();
  await expect.poll(async () => (await hooks.sponsorSession(refunded)).status, { timeout: 15_000 }).toBe("refunded");
  await creator.close();

  // Staff open the page, choose today, and run it.
  await signInAsStaff(page);
  await page.goto("/app/admin");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Reconciliation" }).click();
  await expect(page).toHaveURL(PAGE);
  await expect(page.getByRole("heading", { name: "Reconciliation", level: 1 })).toBeVisible();
  await page.getByLabel("First day (UTC)").fill(today());
  await page.getByLabel("Last day (UTC)").fill(today());
  await page.getByRole("button", { name: "Reconcile" }).click();

  const latest = page.getByRole("region", { name: /^Latest run: / });
  // Never "0 differences" alone: always how many movements it compared.
  await expect(latest.getByRole("status")).toHaveText(/^Compared [\d,]+ movements: 0 differences$/);
  await expect(latest).toContainText(`Latest run: ${today()}`);
  // Two payments and a refund, at least (other tests' payments today are compared too).
  const compared = Number((await latest.getByRole("status").textContent())!.match(/Compared ([\d,]+) movements/)![1]!.replaceAll(",", ""));
  expect(compared).toBeGreaterThanOrEqual(3);
  await expect(page.getByText(`Compared ${compared.toLocaleString("en-US")} movements: 0 differences.`)).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // Whether today's run (the one that compares yesterday) has happened: the scheduler may have run it
  // at the server's start, or not yet; reconciling yesterday here (the form's default period) makes it so.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const status = page.getByRole("region", { name: "Today" }).getByTestId("today-status");
  await expect(status).toHaveText(new RegExp(`^(Today is not reconciled yet — the (next run is at|run due at) \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC.*, for ${yesterday}\\.|Reconciled today at \\d\\d:\\d\\d UTC — ${yesterday}: compared [\\d,]+ movements?, [\\d,]+ differences?\\.)$`));
  await page.getByLabel("First day (UTC)").fill(yesterday);
  await page.getByLabel("Last day (UTC)").fill(yesterday);
  await page.getByRole("button", { name: "Reconcile" }).click();
  await expect(latest).toContainText(`Latest run: ${yesterday}`);
  await expect(status).toHaveText(new RegExp(`^Reconciled today at \\d\\d:\\d\\d UTC — ${yesterday}: compared [\\d,]+ movements?, [\\d,]+ differences?\\.$`));
  await page.getByLabel("First day (UTC)").fill(today());
  await page.getByLabel("Last day (UTC)").fill(today());

  // On a phone, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A person's mistake is answered on its field, with the page as it was.
  await page.getByLabel("First day (UTC)").fill(today());
  await page.getByLabel("Last day (UTC)").fill("2001-01-01");
  await page.getByRole("button", { name: "Reconcile" }).click();
  await expect(page.getByText("The last day must not be before the first.")).toBeVisible();
  await expect(page.getByLabel("Last day (UTC)")).toHaveAttribute("aria-invalid", "true");
});

test("is the site's 404 for someone who is not staff", async ({ page }) => {
  await signedInAs(page, { prefix: "recon-notstaff" });
  const response = await page.goto(PAGE);
  expect(response?.status()).toBe(404);
});
