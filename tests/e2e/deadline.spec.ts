import type { Browser, Page } from "@playwright/test";
import { expect, signedInAs, signIn, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

// Creating a post with a deadline, in New York in winter, is covered in opportunities.spec.ts.
// These tests edit posts of a sponsor of their own, made by the opportunity-post hook (dated 2001,
// outside the posts total), so neither the total nor the demo sponsor's posts move under other specs.
const WINTER = new Date("2027-01-15T10:00:00-05:00");
const JULY_1830_NEW_YORK = 'time[datetime="2030-07-15T22:30:00.000Z"]';

type Sponsor = { email: string; password: string };

/**
 * A browser in `timezoneId` on a winter's day, signed in as `sponsor` with the password, or else
 * as a new sponsor of the test's own who has a post titled `post`.
 */
async function sponsorIn(browser: Browser, options: { timezoneId: string; javaScriptEnabled?: boolean; sponsor?: Sponsor; post?: string }): Promise<{ page: Page; sponsor: Sponsor }> {
  const context = await browser.newContext({ timezoneId: options.timezoneId, javaScriptEnabled: options.javaScriptEnabled });
  const page = await context.newPage();
  if (options.javaScriptEnabled !== false) await page.clock.setFixedTime(WINTER);
  if (options.sponsor) {
    await signIn(page, options.sponsor.email, options.sponsor.password);
    await expect(page).toHaveURL("/app");
    return { page, sponsor: options.sponsor };
  }
  const sponsor = await signedInAs(page, { prefix: "deadline-sponsor", type: "sponsor" });
  if (options.post) await testHooks(page.request).opportunityPost({ title: options.post });
  return { page, sponsor };
}

/** Opens the edit form of the sponsor's post with this title; returns the post's address. */
async function editPost(page: Page, title: string): Promise<string> {
  await page.goto("/app/account/opportunities");
  // Opened by its address from My Posts (what this spec is about is the form, not the list's links,
  // which opportunities.spec.ts clicks): one full page load, however busy the server is.
  const href = await page.getByRole("link", { name: title }).getAttribute("href");
  await page.goto(href!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const postUrl = new URL(page.url()).pathname;
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit opportunity");
  return postUrl;
}

async function saveUnchanged(page: Page, postUrl: string) {
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(postUrl);
}

test("a deadline typed in New York stays 18:30 EDT through unchanged saves, also when the poster edits from London", async ({ browser }) => {
  const title = "Workshop Build Videos Featuring Our Cordless Tool Line";
  const { page: newYork, sponsor } = await sponsorIn(browser, { timezoneId: "America/New_York", post: title });
  const postUrl = await editPost(newYork, title);
  await newYork.getByLabel("Date").fill("2030-07-15");
  await newYork.getByLabel("Time", { exact: true }).fill("18:30");
  // The poster says which zone they mean.
  await newYork.getByLabel("Time zone").selectOption("America/New_York");
  await saveUnchanged(newYork, postUrl);
  await expect(newYork.locator(JULY_1830_NEW_YORK)).toHaveText(/^Jul 15, 2030, 6:30\sPM EDT$/);

  for (let save = 0; save < 2; save++) {
    await editPost(newYork, title);
    await expect(newYork.getByLabel("Date")).toHaveValue("2030-07-15");
    await expect(newYork.getByLabel("Time", { exact: true })).toHaveValue("18:30");
    await expect(newYork.getByLabel("Time zone")).toHaveValue("America/New_York");
    await saveUnchanged(newYork, postUrl);
    await expect(newYork.locator(JULY_1830_NEW_YORK)).toHaveText(/^Jul 15, 2030, 6:30\sPM EDT$/);
  }

  // The same poster, travelling: the form still speaks New York time, so saving moves nothing.
  const { page: london } = await sponsorIn(browser, { timezoneId: "Europe/London", sponsor });
  await editPost(london, title);
  await expect(london.getByLabel("Time", { exact: true })).toHaveValue("18:30");
  await expect(london.getByLabel("Time zone")).toHaveValue("America/New_York");
  await saveUnchanged(london, postUrl);
  const deadline = london.getByRole("definition").filter({ has: london.locator(JULY_1830_NEW_YORK) });
  await expect(deadline).toHaveText(/^Jul 15, 2030, 6:30\sPM EDT \(Jul 15, 2030, 11:30\sPM GMT\+1 your time\)$/);
  await london.context().close();
  await newYork.context().close();
});

test("without JavaScript the zone is UTC until the poster picks theirs, and the pick is kept", async ({ browser }) => {
  const title = "Before-and-After Car Detailing Content in Phoenix";
  const { page } = await sponsorIn(browser, { timezoneId: "America/Phoenix", javaScriptEnabled: false, post: title });
  await page.goto("/app/opportunities/new");
  await expect(page.getByLabel("Time zone")).toHaveValue("UTC");

  const postUrl = await editPost(page, title);
  await page.getByLabel("Date").fill("2030-07-15");
  await page.getByLabel("Time", { exact: true }).fill("18:30");
  await page.getByLabel("Time zone").selectOption("America/Phoenix");
  await saveUnchanged(page, postUrl);
  // Phoenix keeps standard time all year: UTC-7.
  await expect(page.locator('time[datetime="2030-07-16T01:30:00.000Z"]')).toHaveText(/^Jul 15, 2030, 6:30\sPM MST$/);
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Time zone")).toHaveValue("America/Phoenix");
  await page.context().close();
});

test("impossible and skipped deadlines are refused with a message, keeping what was typed", async ({ browser }) => {
  const { page } = await sponsorIn(browser, { timezoneId: "America/New_York" });
  await page.goto("/app/opportunities/new");
  await expect(page.getByLabel("Time zone")).toHaveValue("America/New_York");
  await page.getByLabel("Title").fill("Deadline checks");
  await page.getByLabel("Description").fill("Nothing here should be posted.");

  const attempts: [string, string, string, string][] = [
    ["2026-02-30", "12:00", "Date", "Enter a real date: that day doesn't exist"],
    ["0000-01-01", "12:00", "Date", "Enter a year from 1900 to 9999"],
    ["2026-13-01", "12:00", "Date", "Enter a real date: that day doesn't exist"],
    ["2030-07-15", "25:99", "Time", "Enter a time between 00:00 and 23:59"],
    ["2030-07-15", "24:00", "Time", "Enter a time between 00:00 and 23:59"],
    // 8 March 2026: New York's clocks go from 02:00 straight to 03:00.
    ["2026-03-08", "02:30", "Time", "02:30 doesn't exist on 2026-03-08 in America/New York: the clocks skip it. Enter a later time"],
  ];
  for (const [date, time, field, message] of attempts) {
    // Browsers without a date or time picker give a plain text box, where people can type anything.
    // (Set directly: React puts type="date" back whenever it sees an input event.)
    for (const [label, value] of [["Date", date], ["Time", time]] as const) {
      await page.getByLabel(label, { exact: true }).evaluate((input: HTMLInputElement, typed) => {
        input.type = "text";
        input.value = typed;
      }, value);
    }
    const answer = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: "Post opportunity" }).click();
    expect((await answer).status()).toBe(400);
    await expect(page.getByLabel(field, { exact: true })).toHaveAccessibleDescription(message);
    await expect(page).toHaveURL("/app/opportunities/new");
    await expect(page.getByLabel("Title")).toHaveValue("Deadline checks");
  }
  await page.context().close();
});

test("a date without a time, or a time without a date, saves the post without a deadline and says so (SPEC §5)", async ({ browser }) => {
  const title = "Trail Season Ambassadors: Backpacking and Thru-Hiking Creators";
  const { page } = await sponsorIn(browser, { timezoneId: "America/New_York", post: title });
  for (const [date, time] of [["2030-07-15", ""], ["", "18:30"]] as const) {
    const postUrl = await editPost(page, title);
    await page.getByLabel("Date").fill(date);
    await page.getByLabel("Time", { exact: true }).fill(time);
    await saveUnchanged(page, postUrl);
    await expect(page.getByRole("status").filter({ hasText: "Your changes were saved." }).locator("p")).toHaveText(
      "Your changes were saved. Saved without a deadline: a deadline needs both a date and a time.",
    );
    await expect(page.getByText("No deadline")).toBeVisible();
  }
  await page.context().close();
});
