import AxeBuilder from "@axe-core/playwright";
import { devices, type Browser, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, signInAsStaff, signedInAs, test, uniqueEmail, waitForMail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * Reports and take-downs (ADR 0050): a guest reports a bio page from the bio host without
 * JavaScript and gets no cookie; staff remove it from the queue; the owner is told and the page
 * answers "unavailable"; the reporter is mailed the outcome; staff restore it. A signed-in person
 * reports an opportunity; staff dismiss it, and the opportunity stays up.
 */

async function bioPageOf(page: Page): Promise<{ ending: string; name: string }> {
  const tag = randomBytes(4).toString("hex");
  const name = `Reported ${tag}`;
  const ending = `reported_${tag}`;
  const response = await page.request.post("/app/account/bizbio/new", {
    data: new URLSearchParams([["name", name], ["customEnding", ending], ["blurb", "Fees up front, please."]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return { ending, name };
}

async function staffPage(browser: Browser, baseURL: string | undefined, extraHTTPHeaders: Record<string, string> | undefined): Promise<Page> {
  const context = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const staff = await context.newPage();
  await signInAsStaff(staff);
  return staff;
}

async function noAxeFindings(page: Page, what: string) {
  expect((await new AxeBuilder({ page }).analyze()).violations, what).toEqual([]);
}

test("a guest reports a bio page without JavaScript; staff take it down from the queue, the owner is told, the reporter mailed; then restore it", async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  await signedInAs(page, { prefix: "reported", name: "Rita Reported" });
  const bio = await bioPageOf(page);

  // The guest: a phone, no JavaScript.
  const guestContext = await browser.newContext({ ...devices["Pixel 7"], javaScriptEnabled: false, baseURL, extraHTTPHeaders });
  const guest = await guestContext.newPage();
  const shown = await guest.goto(`${BIO_ORIGIN}/${bio.ending}`);
  expect(shown!.status()).toBe(200);
  expect(shown!.headers()["set-cookie"]).toBeUndefined();
  const formResponse = guest.waitForResponse((response) => response.url().includes("/report?page="));
  await guest.getByRole("link", { name: "Report this page" }).click();
  const form = await formResponse;
  expect(form.status()).toBe(200);
  expect(await form.headerValue("set-cookie")).toBeNull();
  await expect(guest.getByRole("heading", { name: "Report this bio page", level: 1 })).toBeVisible();
  await expect(guest.getByRole("link", { name: bio.name })).toBeVisible();

  const reporter = uniqueEmail("reporter");
  await guest.getByLabel("What is wrong").selectOption("Scams");
  await guest.getByLabel("What happened (optional)").fill("Asks <b>creators</b> to pay a fee first.");
  await guest.getByLabel("Your email (optional)").fill(reporter);
  const sent = guest.waitForResponse((response) => response.request().method() === "POST");
  await guest.getByRole("button", { name: "Send report" }).click();
  expect(await (await sent).headerValue("set-cookie")).toBeNull();
  await expect(guest.getByRole("heading", { name: "Report received" })).toBeVisible();
  await expect(guest.getByRole("status")).toContainText("Your report was received");
  expect(await guestContext.cookies()).toEqual([]);

  // Again from the same network, in a browser with JavaScript (axe needs it): thanked the same way, counted once.
  const phoneContext = await browser.newContext({ ...devices["Pixel 7"], baseURL, extraHTTPHeaders });
  const phone = await phoneContext.newPage();
  await phone.goto(`/report?page=${bio.ending}`);
  await noAxeFindings(phone, "report form at phone width");
  await phone.getByLabel("What is wrong").selectOption("Spam");
  await phone.getByRole("button", { name: "Send report" }).click();
  await expect(phone.getByRole("heading", { name: "Report received" })).toBeVisible();
  await noAxeFindings(phone, "report confirmation");
  await phoneContext.close();

  // Staff: the queue, the item, Remove with a reason.
  const staff = await staffPage(browser, baseURL, extraHTTPHeaders);
  await staff.goto("/app/admin/reports");
  await noAxeFindings(staff, "report queue");
  const row = staff.getByRole("row").filter({ hasText: bio.name });
  await expect(row).toContainText("Scams");
  await expect(row.getByRole("cell").nth(1)).toHaveText("1", { useInnerText: true });
  await row.getByRole("link", { name: `Review reports of ${bio.name}` }).click();
  await expect(staff.getByRole("heading", { name: `Reports of ${bio.name}`, level: 1 })).toBeVisible();
  await expect(staff.getByText("Asks <b>creators</b> to pay a fee first.")).toBeVisible();
  await noAxeFindings(staff, "reported item");
  await staff.getByRole("button", { name: "Remove" }).click();
  // The reason is required: the browser stops the empty form; the server would too.
  await expect(staff).toHaveURL(/\/app\/admin\/reports\/bio_page\//);
  await staff.getByLabel("Reason").fill("Asks creators for upfront fees (Scams).");
  await staff.getByRole("button", { name: "Remove" }).click();
  await expect(staff).toHaveURL("/app/admin/reports");
  await expect(staff.getByText(/Removed: 1 report decided, 1 reporter told by mail/)).toBeVisible();
  await staff.goto("/app/admin/reports?status=actioned");
  await expect(staff.getByRole("row").filter({ hasText: bio.name })).toBeVisible();

  // The page is unavailable, like a disabled owner's.
  const gone = await guest.goto(`${BIO_ORIGIN}/${bio.ending}`);
  expect(gone!.status()).toBe(404);
  await expect(guest.getByRole("heading", { level: 1 })).toHaveText("This page is unavailable");

  // The owner sees the notice in the app, with the reason and how to appeal.
  await page.goto("/app/notifications");
  await expect(page.getByText(`We took down your bio page “${bio.name}” (${bio.ending})`)).toBeVisible();
  await expect(page.getByText(/Asks creators for upfront fees \(Scams\)\..*Appeal/)).toBeVisible();

  // The reporter is told the outcome by mail.
  const outcome = await waitForMail(reporter, { subject: /we reviewed it/ });
  expect(outcome.text).toContain("we took it down");

  // Restore from the removed-content page.
  await staff.goto("/app/admin/content");
  await noAxeFindings(staff, "removed content");
  const item = staff.getByRole("listitem").filter({ hasText: bio.name });
  await expect(item).toContainText("Why: Asks creators for upfront fees (Scams).");
  await item.getByLabel(`Reason to restore “${bio.name}”`).fill("Appeal upheld: the fee was a typo.");
  await item.getByRole("button", { name: "Restore" }).click();
  await expect(staff.getByText(`Restored: “${bio.name}”. Its owner was told.`)).toBeVisible();
  const back = await guest.goto(`${BIO_ORIGIN}/${bio.ending}`);
  expect(back!.status()).toBe(200);
  await page.goto("/app/notifications");
  await expect(page.getByText(`We restored your bio page “${bio.name}” (${bio.ending})`)).toBeVisible();
  await guestContext.close();
  await staff.context().close();
});

test("a signed-in person reports an opportunity; staff dismiss it and it stays up; staff remove one by its address and its poster sees why", async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  await signedInAs(page, { prefix: "poster", name: "Pat Poster" });
  const title = `Reported post ${randomBytes(4).toString("hex")}`;
  const { id } = await testHooks(page.request).opportunityPost({ title });

  const reporterContext = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const reporter = await reporterContext.newPage();
  const { email } = await signedInAs(reporter, { prefix: "oppreporter" });
  await reporter.goto(`/app/opportunities/${id}`);
  await reporter.getByRole("link", { name: "Report this opportunity" }).click();
  await expect(reporter.getByRole("heading", { name: "Report this opportunity", level: 1 })).toBeVisible();
  await expect(reporter.getByText(`We'll tell you the outcome at ${email}`)).toBeVisible();
  await reporter.getByLabel("What is wrong").selectOption("Misleading offers");
  await reporter.getByRole("button", { name: "Send report" }).click();
  await expect(reporter.getByRole("heading", { name: "Report received" })).toBeVisible();

  const staff = await staffPage(browser, baseURL, extraHTTPHeaders);
  await staff.goto("/app/admin/reports");
  await staff.getByRole("row").filter({ hasText: title }).getByRole("link", { name: `Review reports of ${title}` }).click();
  await staff.getByLabel("Reason").fill("The contribution is stated plainly.");
  await staff.getByRole("button", { name: "Dismiss" }).click();
  await expect(staff.getByText(/Dismissed: 1 report decided, 1 reporter told by mail/)).toBeVisible();
  expect((await waitForMail(email, { subject: /we reviewed it/ })).text).toContain("does not break our rules");
  expect((await reporter.goto(`/app/opportunities/${id}`))!.status()).toBe(200);

  // A take-down by address, without a report: gone for others, marked for its poster.
  await staff.goto("/app/admin/content");
  await staff.getByLabel("Address or id").fill(`${baseURL}/app/opportunities/${id}`);
  await staff.locator("#remove-reason").fill("Duplicate of another post (Spam).");
  await staff.getByRole("button", { name: "Remove" }).click();
  await expect(staff.getByText(`Taken down: “${title}”. Its owner was told.`)).toBeVisible();
  expect((await reporter.goto(`/app/opportunities/${id}`))!.status()).toBe(404);
  await page.goto(`/app/opportunities/${id}`);
  await expect(page.getByText("Removed by our team")).toBeVisible();
  await expect(page.getByText("Reason: Duplicate of another post (Spam).")).toBeVisible();
  await reporterContext.close();
  await staff.context().close();
});
