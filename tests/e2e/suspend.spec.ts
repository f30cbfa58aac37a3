import AxeBuilder from "@axe-core/playwright";
import { devices, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, signIn, signInAsStaff, signedInAs, test, waitForMail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";
import { formatMoney } from "#isomorphic/format";

/**
 * Staff suspend a creator from the back office and lift it again (ADR 0051): the creator, signed
 * in elsewhere, is out at their next request and sees SPEC's disabled text at sign-in; their bio
 * page is unavailable and takes no tip; they are told by mail with the reason and where to
 * appeal. The audit log shows both actions and its CSV carries them. Lifted, all of it is back.
 */
const DISABLED = "Your account has been disabled. Please contact support for further information.";
const UNAVAILABLE = "This page is unavailable. It can't take payments.";
const PASSWORD = "tidy-harbor-42";

/** A verified creator with a complete payout account and a bio page offering a post (as disabled-account.spec.ts makes one). */
async function creator(page: Page) {
  const tag = randomBytes(4).toString("hex");
  const name = `Suspended ${tag}`;
  const { email } = await signedInAs(page, { prefix: "suspended", name, password: PASSWORD });
  await testHooks(page.request).paymentsReady();
  const { id } = await testHooks(page.request).opportunityPost({ min: 2500, title: `Suspended post ${tag}` });
  const response = await page.request.post("/app/account/bizbio/new", {
    data: new URLSearchParams([["name", name], ["customEnding", `susp_${tag}`], ["blurb", "I make videos."], ["sponsorship", id]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return { email, name, ending: `susp_${tag}` };
}

async function expectNoAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

test("staff suspend a signed-in creator and lift it; the audit log and its CSV show both", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  test.setTimeout(180_000);
  const creatorContext = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const creatorPage = await creatorContext.newPage();
  const person = await creator(creatorPage);
  const guestContext = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const guest = await guestContext.newPage();

  const bioPageLive = async (live: boolean) => {
    const bio = await guest.goto(`${BIO_ORIGIN}/${person.ending}`);
    expect(bio!.status()).toBe(live ? 200 : 404);
    await expect(guest.getByRole("heading", { level: 1 })).toHaveText(live ? person.name : "This page is unavailable");
    await guest.goto(`/app/payments/checkout?page=${person.ending}&kind=tip`);
    await expect(guest.getByText(UNAVAILABLE)).toHaveCount(live ? 0 : 1);
    await expect(guest.getByRole("button", { name: "Proceed to Checkout" })).toHaveCount(live ? 1 : 0);
  };
  await bioPageLive(true);

  // Staff find the account by email.
  const staff = await signInAsStaff(page);
  await page.goto("/app/admin/accounts");
  await expect(page.getByRole("heading", { name: "Accounts", level: 1 })).toBeVisible();
  await page.getByLabel("Email or name").fill(person.email.toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expectNoAxeViolations(page);
  await page.getByRole("list", { name: "Accounts found" }).getByRole("link", { name: person.email }).click();
  await expect(page.getByRole("heading", { name: person.name, level: 1 })).toBeVisible();
  await expect(page.getByText("Complete", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  const accountUrl = page.url();

  // A reason is required; then suspend until a week from now.
  const until = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Ends on (optional)").fill(until);
  await page.getByLabel("Reason (sent to them)").fill("   ");
  await page.getByLabel("Reason (sent to them)").evaluate((el) => el.removeAttribute("required"));
  await page.getByRole("button", { name: "Suspend account" }).click();
  await expect(page.getByText(/Say why: the reason is shown/)).toBeVisible();
  await page.getByLabel("Reason (sent to them)").fill("Selling counterfeit goods on your bio page.");
  await page.getByRole("button", { name: "Suspend account" }).click();
  await expect(page.getByText("Account suspended. They are signed out and have been told by mail.")).toBeVisible();
  await expect(page.getByText(`Suspended until ${until}`)).toBeVisible();
  await expect(page.getByText("In force")).toBeVisible();
  // The lift form starts empty, on the very page the suspension answered: staff give their own reason.
  await expect(page.getByLabel("Why lift it")).toHaveValue("");
  await expect(page.getByLabel("Why lift it")).toHaveAttribute("required", "");

  // The creator's next request is signed out; signing in shows SPEC's disabled text.
  await creatorPage.goto("/app");
  await expect(creatorPage).toHaveURL(/\/signin/);
  await signIn(creatorPage, person.email, PASSWORD);
  await expect(creatorPage.getByText(DISABLED)).toBeVisible();
  await expect(creatorPage).toHaveURL(/\/signin/);
  await bioPageLive(false);

  const suspended = await waitForMail(person.email, { subject: /account has been suspended/ });
  expect(suspended.text).toContain("Reason: Selling counterfeit goods on your bio page.");
  expect(suspended.text).toContain("help@sponsorgrid.example");

  // Lift it, with a reason.
  await page.goto(accountUrl);
  await page.getByLabel("Why lift it").fill("Appeal upheld: the goods were genuine.");
  await page.getByRole("button", { name: "Lift suspension" }).click();
  await expect(page.getByText("Suspension lifted. They can sign in again and have been told by mail.")).toBeVisible();
  await expect(page.getByText(/Lifted .* by .*: Appeal upheld/)).toBeVisible();
  await waitForMail(person.email, { subject: /account is active again/ });

  await signIn(creatorPage, person.email, PASSWORD);
  await expect(creatorPage).toHaveURL("/app");
  await bioPageLive(true);

  // The audit log shows both, newest first, with who, reason and the change; the CSV carries them.
  await page.goto(`/app/admin/audit?subject=${encodeURIComponent(accountUrl.split("/").at(-1)!)}`);
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("account.lift");
  await expect(rows.nth(1)).toContainText(staff.email);
  await expect(rows.nth(1)).toContainText("disabled: true → false");
  await expect(rows.nth(2)).toContainText("account.suspend");
  await expect(rows.nth(2)).toContainText("Selling counterfeit goods");
  await expectNoAxeViolations(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-.*\.csv$/);
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv).toContain("account.suspend");
  expect(csv).toContain("Selling counterfeit goods on your bio page.");
  expect(csv).toContain("Appeal upheld: the goods were genuine.");
  // On a phone each row is a card, every value led by its column's name, and nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(rows.nth(1).getByText("Before → after", { exact: true })).toBeVisible();
  await expect(rows.nth(1)).toContainText("disabled: true → false");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await creatorContext.close();
  await guestContext.close();
});

test("the accounts page fits a phone", async ({ page }) => {
  await signInAsStaff(page);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/app/admin/accounts?q=staff");
  await expect(page.getByRole("heading", { name: "Accounts", level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
});

test("accounts, suspending and the audit log and its CSV are the back office's: anyone else gets a 404, a guest sign-in", async ({ page, browser, baseURL }) => {
  await signedInAs(page, { prefix: "notstaff-suspend" });
  for (const path of ["/app/admin/accounts?q=a", "/app/admin/accounts/anyone", "/app/admin/audit", "/app/admin/audit/export.csv"]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(404);
    expect(await response.text()).not.toContain("account.suspend");
  }
  // An action is guarded too: a signed-in non-staff form post suspends nobody.
  const posted = await page.request.post("/app/admin/accounts/anyone", {
    form: { intent: "suspend", reason: "no", until: "" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(posted.status()).toBe(404);

  const guest = await browser.newPage();
  const response = await guest.request.get("/app/admin/audit/export.csv", { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toMatch(/\/signin/);
  await guest.close();
});

test("the account's page shows its money, its card dispute ratio and the open reports against it, on a desktop and at 390 px", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  test.setTimeout(180_000);
  // A creator paid twice at the sandbox, whose bio page a guest reports.
  const creatorContext = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const creatorPage = await creatorContext.newPage();
  const person = await creator(creatorPage);
  const hooks = testHooks(creatorPage.request);
  const made = await hooks.sponsorPayments({ paid: 2, amount: 2500 });
  for (const session of made.paid) await expect.poll(async () => (await hooks.sponsorSession(session)).status, { timeout: 15_000 }).toBe("completed");
  await creatorContext.close();
  const guestContext = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const guest = await guestContext.newPage();
  await guest.goto(`/report?page=${person.ending}`);
  await guest.getByLabel("What is wrong").selectOption("Scams");
  await guest.getByRole("button", { name: "Send report" }).click();
  await expect(guest.getByRole("heading", { name: "Report received" })).toBeVisible();
  await guestContext.close();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsStaff(page);
  await page.goto("/app/admin/accounts");
  await page.getByLabel("Email or name").fill(person.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("list", { name: "Accounts found" }).getByRole("link", { name: person.email }).click();
  await expect(page.getByRole("heading", { name: person.name, level: 1 })).toBeVisible();
  const accountUrl = page.url();

  const money = page.getByRole("region", { name: "Money" });
  const usd = money.getByRole("row").filter({ hasText: "USD" });
  for (const header of ["Received", "Refunded or disputed", "Net", "Held in deals", "Platform fees", "Paid out"]) await expect(money.getByRole("columnheader", { name: header, exact: true })).toBeVisible();
  await expect(usd.getByRole("cell").nth(1)).toHaveText(formatMoney(5000, "usd"), { useInnerText: true });
  await expect(usd.getByRole("cell").nth(2)).toHaveText(formatMoney(0, "usd"), { useInnerText: true });
  await expect(usd.getByRole("cell").nth(3)).toHaveText(formatMoney(5000, "usd"), { useInnerText: true });
  await expect(page.getByTestId("dispute-ratio")).toHaveText("0.00 % over the last 90 days: 0 disputes opened on 2 successful payments.");
  const reports = page.getByRole("region", { name: "Open reports" });
  await expect(reports).toContainText("1 open report (Scams)");
  await expectNoAxeViolations(page);

  // At 390 px the table becomes cards, nothing is wider than the phone, and a report opens from here.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(money).toContainText(formatMoney(5000, "usd"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await reports.getByRole("link", { name: person.name }).click();
  await expect(page).toHaveURL(/\/app\/admin\/reports\/bio_page\//);
  await expect(page.getByRole("heading", { name: `Reports of ${person.name}`, level: 1 })).toBeVisible();
  await page.goto(accountUrl);
});
