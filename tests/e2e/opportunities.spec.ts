import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signedInAs, signIn, test } from "./fixtures";

// The demo accounts only where a test reads what the seed gave them; a test that posts or hearts
// does it as new accounts of its own, so no other spec sees a demo account change under it.
const SPONSOR = { email: "jordan@demo.sponsorgrid.example", password: "sponsorgrid-demo" };
const CREATOR = { email: "priya@demo.sponsorgrid.example", password: "sponsorgrid-demo" };
const EMPTY = "Sorry, we couldn't find any opportunities matching your search criteria.";

async function totalPosted(page: Page): Promise<number> {
  await page.goto("/app/opportunities");
  const text = await page.getByText(/opportunities posted$/).textContent();
  return Number(text!.replace(/\D/g, ""));
}

test("a guest browses, filters, pages through and is sent to sign in to heart", async ({ page }) => {
  await page.goto("/app/opportunities");
  await expect(page).toHaveTitle("Opportunities | Sponsorgrid");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Opportunities");
  const cards = page.getByRole("main").getByRole("heading", { level: 3 });
  await expect(cards).toHaveCount(20);
  await expect(page.getByRole("link", { name: "New", exact: true })).toHaveAttribute("href", "/app/opportunities/new");
  // Sponsorship types are the default tag group.
  await expect(page.getByRole("link", { name: "Sponsorship types" })).toHaveAttribute("aria-current", "true");

  const firstTitle = await cards.first().textContent();
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page.getByText("Page 2")).toBeVisible();
  await expect(cards.first()).not.toHaveText(firstTitle!);
  await page.getByRole("link", { name: "← Previous" }).click();
  await expect(cards.first()).toHaveText(firstTitle!);

  await page.getByRole("button", { name: /^Save “/ }).first().click();
  await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fapp%2Fopportunities/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("filters come from the address, at most 6, and a forged address is refused with a message", async ({ page }) => {
  const response = await page.goto("/app/opportunities?tags[]=youtube%20sponsorship&tags[]=technology");
  expect(response?.status()).toBe(200);
  const selected = page.getByRole("list", { name: "Selected tags" });
  await expect(selected.getByRole("link", { name: "Remove filter youtube sponsorship" })).toBeVisible();
  await expect(selected.getByRole("link", { name: "Remove filter technology" })).toBeVisible();
  for (const tags of await page.getByRole("main").getByRole("list", { name: "Tags", exact: true }).all()) {
    await expect(tags).toContainText("youtube sponsorship");
    await expect(tags).toContainText("technology");
  }
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  const forged = await page.goto("/app/opportunities?tags[]=not-a-real-tag");
  expect(forged?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("Unknown tag");
  const seven = ["youtube sponsorship", "technology", "gaming", "music", "travel", "pets", "beauty"].map((t) => `tags[]=${encodeURIComponent(t)}`).join("&");
  const tooMany = await page.goto(`/app/opportunities?${seven}`);
  expect(tooMany?.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("You can filter by at most 6 tags at a time.");
  const badCursor = await page.goto("/app/opportunities?after=%27%3Bdrop%20table");
  expect(badCursor?.status()).toBe(400);
});

test("choosing tags in the picker filters, goes back to page 0, and stops at 6", async ({ page }) => {
  await page.goto("/app/opportunities");
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/page=1/);
  await page.getByRole("list", { name: "Sponsorship types tags" }).getByRole("link", { name: "podcast sponsorship" }).click();
  await expect(page).toHaveURL("/app/opportunities?tags%5B%5D=podcast+sponsorship&group=sponsorship_type");
  await page.getByRole("link", { name: "Industries" }).click();
  await page.getByRole("list", { name: "Industries tags" }).getByRole("link", { name: "music", exact: true }).click();
  await expect(page.getByText("Filtering by (2 of 6):")).toBeVisible();
  let count = 2;
  for (const tag of ["technology", "gaming", "travel", "pets"]) {
    await page.getByRole("list", { name: "Industries tags" }).getByRole("link", { name: tag, exact: true }).click();
    await expect(page.getByText(`Filtering by (${++count} of 6):`)).toBeVisible();
  }
  await expect(page.getByRole("status")).toHaveText("You can filter by at most 6 tags at a time. Remove one to add another.");
  await expect(page.getByText(EMPTY)).toBeVisible();
  await page.getByRole("link", { name: "Clear all" }).click();
  await expect(page.getByRole("main").getByRole("heading", { level: 3 })).toHaveCount(20);
});

// The sponsor is in New York in January and sets a July deadline: daylight saving differs between the two dates.
test.describe("in New York in winter", () => {
  test.use({ timezoneId: "America/New_York" });

  test("a sponsor posts with tags and a deadline; a creator filters, hearts and finds it in Liked Posts; the sponsor edits and deletes it", async ({ page, browser }) => {
    await page.clock.setFixedTime(new Date("2027-01-15T10:00:00-05:00"));
    const title = `Sponsor our winter streaming marathon ${Date.now()}`;
    await signedInAs(page, { prefix: "marathon-sponsor", name: "Jordan Reyes", type: "sponsor" });
    const before = await totalPosted(page);

    await page.goto("/app/opportunities/new");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("New opportunity");
    // Validation first: nothing filled in, and bad formats.
    await page.getByLabel("Website").fill("northwind.example");
    await page.getByLabel("Minimum contribution (US dollars)").fill("-20");
    await page.getByRole("button", { name: "Post opportunity" }).click();
    await expect(page.getByText("Please correct the fields marked below.")).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveAccessibleDescription("Required");
    await expect(page.getByLabel("Website")).toHaveAccessibleDescription("URL must start with either http:// or https://");
    await expect(page.getByLabel("Minimum contribution (US dollars)")).toHaveAccessibleDescription(/Enter a whole-dollar amount/);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Organization").fill("Northwind Audio");
    await page.getByLabel("Description").fill("Stream with our new headset for a 12-hour charity marathon. We cover hardware and a fee.");
    await page.getByLabel("Highlights").fill("12 hours live\nCharity partner included");
    await page.getByLabel("Website").fill("https://northwind.example/marathon");
    await page.getByLabel("Minimum contribution (US dollars)").fill("750");
    await page.getByLabel("Date").fill("2030-07-15");
    await page.getByLabel("Time", { exact: true }).fill("18:30");
    await expect(page.getByLabel("Time zone")).toHaveValue("America/New_York"); // the browser's, once it runs
    await page.getByLabel("Contact email").fill("jordan@northwind.example");
    await page.getByLabel("streamer sponsorship").check();
    await page.getByText("Industries", { exact: true }).click();
    await page.getByLabel("gaming", { exact: true }).check();
    await page.getByRole("button", { name: "Post opportunity" }).click();

    await expect(page).toHaveURL(/\/app\/opportunities\/\d{10}_[A-Za-z0-9]{20}$/);
    const postUrl = new URL(page.url()).pathname;
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByText("Minimum contribution $750")).toBeVisible();
    // 18:30 as typed, on New York's summer clock (EDT, UTC-4): 22:30 UTC, not the winter offset's 23:30.
    const deadline = page.locator('time[datetime="2030-07-15T22:30:00.000Z"]');
    await expect(deadline).toHaveText(/^Jul 15, 2030, 6:30\sPM EDT$/);
    expect(await totalPosted(page)).toBe(before + 1);

    // The creator finds it by two tags, from the address, and hearts it in place.
    const creator = await browser.newContext();
    const creatorPage = await creator.newPage();
    await signedInAs(creatorPage, { prefix: "marathon-creator", type: "creator" });
    await creatorPage.goto("/app/opportunities?tags[]=streamer%20sponsorship&tags[]=gaming");
    const card = creatorPage.getByRole("listitem").filter({ has: creatorPage.getByRole("heading", { name: title }) });
    await expect(card).toBeVisible();
    // The button turns pressed at once (optimistically); leaving the page before the server has
    // answered would cancel the save, so the test waits for that answer before it moves on.
    const saved = creatorPage.waitForResponse((response) => /\/heart(\.data)?(\?|$)/.test(response.url()) && response.request().method() === "POST");
    await card.getByRole("button", { name: `Save “${title}”, 0 hearts` }).click();
    await expect(card.getByRole("button", { name: `Unsave “${title}”, 1 heart` })).toHaveAttribute("aria-pressed", "true");
    expect((await saved).ok()).toBe(true);
    await expect(creatorPage).toHaveURL(/tags(\[\]|%5B%5D)=streamer/); // stayed in place
    await creatorPage.goto("/app/account/opportunities/liked");
    await expect(creatorPage.getByRole("heading", { name: title })).toBeVisible();

    // The sponsor edits: id, date and hearts are kept.
    await page.goto(postUrl);
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await expect(page.getByLabel("Date")).toHaveValue("2030-07-15");
    await expect(page.getByLabel("Time", { exact: true })).toHaveValue("18:30");
    await expect(page.getByLabel("Time zone")).toHaveValue("America/New_York");
    await page.getByLabel("Title").fill(`${title} (updated)`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(postUrl);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${title} (updated)`);
    await expect(deadline).toHaveText(/^Jul 15, 2030, 6:30\sPM EDT$/); // not an hour later per save
    await expect(page.getByRole("button", { name: /, 1 heart$/ })).toBeVisible();

    // Someone else cannot edit or delete it.
    const foreign = await creatorPage.request.post(postUrl, { form: { intent: "delete" } });
    expect(foreign.status()).toBe(403);
    const foreignEdit = await creatorPage.goto(`/app/opportunities/edit?docId=${postUrl.split("/").pop()}`);
    expect(foreignEdit?.status()).toBe(403);

    // Delete, with a confirmation: gone from Liked Posts, total down by one.
    await page.getByRole("link", { name: "Delete" }).click();
    await expect(page.getByText("Delete this opportunity?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(page).toHaveURL("/app/account/opportunities");
    await expect(page.getByRole("status").filter({ hasText: "Your opportunity was deleted." })).toBeVisible();
    expect(await totalPosted(page)).toBe(before);
    await creatorPage.goto("/app/account/opportunities/liked");
    await expect(creatorPage.getByRole("heading", { name: title })).toHaveCount(0);
    expect((await creatorPage.goto(postUrl))?.status()).toBe(404);
    await creator.close();
  });
});

test("hearts work as a plain form without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signedInAs(page, { prefix: "no-script-hearts" });
  await page.goto("/app/opportunities?tags[]=esports%20sponsorship");
  const button = page.getByRole("button", { name: /^(Save|Unsave) “/ }).first();
  const label = (await button.getAttribute("aria-label"))!;
  await button.click();
  await expect(page).toHaveURL(/tags(\[\]|%5B%5D)=esports/);
  const toggled = page.getByRole("button", { name: /^(Save|Unsave) “/ }).first();
  await expect(toggled).not.toHaveAttribute("aria-label", label);
  await toggled.click(); // and back
  await expect(page.getByRole("button", { name: /^(Save|Unsave) “/ }).first()).toHaveAttribute("aria-label", label);

  // The same on the post's own page, which sends the reader back there.
  await page.getByRole("main").getByRole("heading", { level: 3 }).first().getByRole("link").click();
  await expect(page).toHaveURL(/\/app\/opportunities\/\d+_/);
  const postUrl = page.url();
  const heart = page.getByRole("button", { name: /^(Save|Unsave) “/ });
  const before = (await heart.getAttribute("aria-label"))!;
  await heart.click();
  await expect(page).toHaveURL(postUrl);
  await expect(heart).not.toHaveAttribute("aria-label", before);
  await heart.click();
  await expect(heart).toHaveAttribute("aria-label", before);
  await context.close();
});

test("My Posts, Liked Posts and Become a Sponsor", async ({ page }) => {
  await signIn(page, SPONSOR.email, SPONSOR.password);
  await expect(page).toHaveURL("/app");
  await page.goto("/app/account/opportunities");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My Posts");
  await expect(page.getByRole("main").getByRole("heading", { level: 3 })).not.toHaveCount(0);
  await page.goto("/app/account/opportunities/liked");
  await expect(page.getByText("You haven't liked any opportunities yet.")).toBeVisible();
  await page.goto("/app/opportunities/sponsor");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Become a Sponsor");
  await expect(page.getByRole("link", { name: "Your deals" })).toHaveAttribute("href", "/app/deals");
  await expect(page.getByRole("link", { name: "Browse creators" })).toHaveAttribute("href", "/app/profiles");
  await page.getByRole("link", { name: "Post a brief" }).click();
  await expect(page).toHaveURL("/app/opportunities/new?kind=brief");
  await expect(page.getByRole("radio", { name: /A brief: creators apply/ })).toBeChecked();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.context().clearCookies();
  await signIn(page, "maya@demo.sponsorgrid.example", "sponsorgrid-demo");
  await expect(page).toHaveURL("/app");
  await page.goto("/app/account/opportunities");
  await expect(page.getByRole("main").getByRole("heading", { level: 3 })).toHaveCount(8);
});

test("a missing post is the 404 page, and so is hearting it", async ({ page }) => {
  const response = await page.goto("/app/opportunities/8000000000_doesnotexist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");
  await signIn(page, CREATOR.email, CREATOR.password);
  await expect(page).toHaveURL("/app");
  const heart = await page.request.post("/app/opportunities/8000000000_doesnotexist/heart", { form: { via: "fetcher" } });
  expect(heart.status()).toBe(404);
});

test("a highlight started as a bullet and left empty is refused with 'Benefit cannot be blank', keeping what was typed", async ({ page }) => {
  await signIn(page, SPONSOR.email, SPONSOR.password);
  await expect(page).toHaveURL("/app");
  await page.goto("/app/opportunities/new");
  await page.getByLabel("Title").fill("Benefit check");
  await page.getByLabel("Description").fill("Nothing here should be posted.");
  await page.getByLabel("Highlights").fill("- Weekly show\n- \n- 20k downloads");
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Post opportunity" }).click();
  expect((await answer).status()).toBe(400);
  await expect(page.getByLabel("Highlights")).toHaveAccessibleDescription(/Benefit cannot be blank/);
  await expect(page.getByLabel("Highlights")).toHaveValue("- Weekly show\n- \n- 20k downloads");
  await expect(page).toHaveURL("/app/opportunities/new");
});
