import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, payWithTestCard, signedInAs, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** A sponsor posts a brief through the New opportunity form, as "Post a brief" on Become a Sponsor opens it. */
async function postBrief(page: Page, title: string): Promise<string> {
  await page.goto("/app/opportunities/sponsor");
  await page.getByRole("link", { name: "Post a brief" }).click();
  await expect(page.getByRole("radio", { name: /A brief: creators apply/ })).toBeChecked();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Organization").fill("Northwind Audio");
  await page.getByLabel("Description").fill("Review our new studio headphones in a dedicated video. Budget around $750.");
  await page.getByLabel("Minimum contribution (US dollars)").fill("750");
  await page.getByRole("button", { name: "Post opportunity" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  return new URL(page.url()).pathname;
}

/** The deal page's "Answer with new terms" section, opened and sent with a new price and a message. */
async function counter(page: Page, price: string, message: string) {
  await page.getByText("Answer with new terms").click();
  await page.getByLabel("Price (US dollars)").fill(price);
  await page.getByLabel(/^A message to/).fill(message);
  await page.getByRole("button", { name: "Send new terms" }).click();
  await expect(page.getByText("Your terms were sent.")).toBeVisible();
}

test("a creator applies to a brief on a phone, terms go back and forth twice, the sponsor funds it, asks for a change and approves, the creator is paid and the sponsor downloads the invoice", async ({ page, browser }) => {
  // Two people, four rounds, a payment, two rounds of work and two accessibility checks: longer than one page's journey.
  test.setTimeout(180_000);
  const title = `Headphones review ${Date.now()}`;
  await signedInAs(page, { prefix: "brief-sponsor", name: "Northwind Audio", type: "sponsor" });
  const postPath = await postBrief(page, title);
  await expect(page.getByText("A sponsor's brief: creators apply")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Applications (0)" })).toBeVisible();

  const creator = await otherClient(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
  await signedInAs(creator.page, { prefix: "brief-creator", name: "Priya Plays", type: "creator" });
  await testHooks(creator.page.request).paymentsReady();
  await creator.page.goto(postPath);
  await creator.page.getByRole("link", { name: "Apply" }).click();
  await expect(creator.page.getByRole("heading", { level: 1 })).toHaveText("Apply to this brief");
  await expect(creator.page.getByLabel("Price (US dollars)")).toHaveValue("750");
  await creator.page.getByLabel("Your pitch").fill("I review audio gear for 80k producers; a dedicated video fits this launch.");
  await creator.page.getByLabel("Channel 1").fill("YouTube");
  await creator.page.getByLabel("What is made 1").fill("A dedicated 8-minute review");
  await creator.page.getByLabel("Due 1").fill("2031-05-01");
  await creator.page.getByLabel("Price (US dollars)").fill("900");
  expect((await new AxeBuilder({ page: creator.page }).analyze()).violations).toEqual([]);
  await creator.page.getByRole("button", { name: "Send application" }).click();
  await expect(creator.page.getByText("Sent. You'll hear when they answer.")).toBeVisible();
  await expect(creator.page.getByText("Waiting on Northwind Audio to answer these terms.")).toBeVisible();
  const dealPath = new URL(creator.page.url()).pathname;
  // A second click on Apply brings the creator back to the deal they have, not a second one.
  await creator.page.goto(postPath);
  await creator.page.getByRole("link", { name: "Apply" }).click();
  await creator.page.getByLabel("Your pitch").fill("Again");
  await creator.page.getByLabel("Channel 1").fill("YouTube");
  await creator.page.getByLabel("What is made 1").fill("Video");
  await creator.page.getByLabel("Due 1").fill("2031-05-01");
  await creator.page.getByRole("button", { name: "Send application" }).click();
  await expect(creator.page).toHaveURL(dealPath);

  // The sponsor hears of it, finds it in the post's inbox, shortlists it and answers with $700.
  await page.goto("/app/notifications");
  await expect(page.getByText(`Priya Plays applied to “${title}” for $900.`)).toBeVisible();
  await page.goto(postPath);
  await expect(page.getByRole("heading", { name: "Applications (1)" })).toBeVisible();
  await page.getByRole("link", { name: /Priya Plays · \$900/ }).click();
  await expect(page.getByText("Your turn")).toBeVisible();
  // The money split is shown before anyone agrees (the test servers keep no platform fee).
  await expect(page.getByText("The sponsor pays $900; the creator receives all of it.")).toBeVisible();
  await page.getByRole("button", { name: "Shortlist" }).click();
  await expect(page.getByRole("button", { name: "Shortlisted ✓" })).toHaveAttribute("aria-pressed", "true");
  await counter(page, "700", "Our budget tops out at $700 for one video.");
  await expect(page.getByText("Waiting on Priya Plays to answer these terms.")).toBeVisible();

  // The creator sees their turn in My deals, with what changed marked, and counters at $800.
  await creator.page.goto("/app/deals?show=waiting");
  await creator.page.getByRole("link", { name: new RegExp(title) }).click();
  await expect(creator.page.getByText("Our budget tops out at $700 for one video.")).toBeVisible();
  const price = creator.page.getByRole("region", { name: "Terms on the table" }).locator("dd").first();
  await expect(price).toContainText("$700");
  await expect(price).toContainText("Changed");
  await counter(creator.page, "800", "$800 and I add a 30-second short.");

  // The sponsor accepts $800; both sides see who accepted, and the versions are kept.
  await page.reload();
  await expect(page.getByRole("button", { name: "Accept $800" })).toBeVisible();
  await page.getByRole("button", { name: "Accept $800" }).click();
  await expect(page.getByText("Terms accepted.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Agreed terms" })).toBeVisible();
  await expect(page.getByText(/Terms agreed: version 3, accepted by you/)).toBeVisible();
  await expect(page.getByText("Version 2: $700, proposed by you")).toBeVisible();
  await expect(page.getByText("Version 1: $900, proposed by Priya Plays")).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await creator.page.goto(dealPath);
  await expect(creator.page.getByText(/Terms agreed: version 3, accepted by Northwind Audio/)).toBeVisible();
  await expect(creator.page.getByRole("button", { name: /^Accept/ })).toHaveCount(0);
  // Nothing on the phone is wider than the screen.
  expect(await creator.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The sponsor funds the agreed $800; the money is held until the work is approved.
  await page.getByRole("button", { name: "Pay $800 to book" }).click();
  await payWithTestCard(page);
  await page.waitForURL(/\?paid=1$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/Booked: you paid \$800 on/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // On the phone the creator hands the review in; the sponsor asks for a change once, then approves.
  await creator.page.reload();
  const work = creator.page.getByRole("region", { name: "The work" });
  await work.getByLabel("Where is “A dedicated 8-minute review” live?").fill("https://youtube.com/watch?v=northwind");
  await work.getByRole("button", { name: "Hand in" }).click();
  await expect(creator.page.getByText("Handed in. The sponsor has been told.")).toBeVisible();
  await page.reload();
  const review = page.getByRole("region", { name: "The work" });
  await review.getByText("Ask for changes (2 left)").click();
  await review.getByLabel("What should change?").fill("Please show the noise cancelling on a train.");
  await review.getByRole("button", { name: "Send back for changes" }).click();
  await expect(page.getByText("Sent back with your note.")).toBeVisible();
  await creator.page.reload();
  await expect(work).toContainText("Changes asked: “Please show the noise cancelling on a train.”");
  await work.getByLabel("Where is “A dedicated 8-minute review” live?").fill("https://youtube.com/watch?v=northwind2");
  await work.getByRole("button", { name: "Hand in again" }).click();
  await expect(creator.page.getByText("Handed in. The sponsor has been told.")).toBeVisible();
  await page.reload();
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/Complete: every deliverable is approved, and Priya Plays was paid \$800 on/)).toBeVisible();
  await creator.page.reload();
  await expect(creator.page.getByText(/Complete: every deliverable is approved, and you were paid \$800 on/)).toBeVisible();
  await creator.context.close();

  // The sponsor downloads the invoice the booking issued.
  const paperwork = page.getByRole("link", { name: /^Download invoice INV-\d{4} as PDF$/ });
  const downloading = page.waitForEvent("download");
  await paperwork.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^invoice-INV-\d{4}\.pdf$/);
  const chunks: Buffer[] = [];
  for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString("latin1")).toBe("%PDF-");
});

test("a sponsor's offer on a creator's request is declined with a message, and a stranger cannot see the deal", async ({ page, browser }) => {
  const title = `Sponsor my tour vlog ${Date.now()}`;
  await signedInAs(page, { prefix: "request-creator", name: "Tour Vlogger", type: "creator" });
  await page.goto("/app/opportunities/new");
  await expect(page.getByRole("radio", { name: /A sponsorship request: sponsors make offers/ })).toBeChecked();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Twelve cities, one vlog each. Looking for a travel gear sponsor.");
  await page.getByRole("button", { name: "Post opportunity" }).click();
  await expect(page.getByText("A creator's request: sponsors make offers")).toBeVisible();
  const postPath = new URL(page.url()).pathname;

  const sponsor = await otherClient(browser);
  await signedInAs(sponsor.page, { prefix: "request-sponsor", name: "Brightleaf Foods", type: "sponsor" });
  await sponsor.page.goto(postPath);
  await sponsor.page.getByRole("link", { name: "Make an offer" }).click();
  await sponsor.page.getByLabel("Your offer").fill("Snacks for the road and $1,200 for a mention in each vlog.");
  await sponsor.page.getByLabel("Price (US dollars)").fill("1,200");
  await sponsor.page.getByLabel("Channel 1").fill("YouTube");
  await sponsor.page.getByLabel("What is made 1").fill("A 30-second mention");
  await sponsor.page.getByLabel("Due 1").fill("2031-01-10");
  // A wrong row is named, and nothing typed is lost.
  await sponsor.page.getByLabel("Channel 2").fill("Instagram");
  await sponsor.page.getByRole("button", { name: "Send offer" }).click();
  await expect(sponsor.page.getByText("Give each deliverable a channel, what is made and a due date")).toBeVisible();
  await expect(sponsor.page.getByLabel("Your offer")).toHaveValue("Snacks for the road and $1,200 for a mention in each vlog.");
  await sponsor.page.getByLabel("Channel 2").fill("");
  await sponsor.page.getByRole("button", { name: "Send offer" }).click();
  await expect(sponsor.page.getByText("Waiting on Tour Vlogger to answer these terms.")).toBeVisible();
  const dealPath = new URL(sponsor.page.url()).pathname;

  await page.goto("/app/deals");
  await page.getByRole("link", { name: new RegExp(title) }).click();
  await page.getByText("Decline", { exact: true }).click();
  await page.getByLabel("Why, in a word to Brightleaf Foods (optional)").fill("Thanks, but food is not a fit for this tour.");
  await page.getByRole("button", { name: "Decline this offer" }).click();
  await expect(page.getByText("Declined. They have been told.")).toBeVisible();
  await expect(page.getByText("You declined: “Thanks, but food is not a fit for this tour.”")).toBeVisible();

  await sponsor.page.reload();
  await expect(sponsor.page.getByText("Tour Vlogger declined: “Thanks, but food is not a fit for this tour.”")).toBeVisible();
  await expect(sponsor.page.getByRole("button", { name: "Withdraw" })).toHaveCount(0);

  const stranger = await otherClient(browser);
  await signedInAs(stranger.page, { prefix: "deal-stranger" });
  const response = await stranger.page.goto(dealPath);
  expect(response?.status()).toBe(404);
  const forged = await stranger.page.request.post(dealPath, { form: { intent: "withdraw" } });
  expect(forged.status()).toBe(404);
  await Promise.all([sponsor.context.close(), stranger.context.close()]);
});

test("a sponsor finds a creator in Profiles, sends an offer, pays to book it, reviews the work, and the creator is paid", async ({ page, browser }) => {
  // Two people through every step of a deal, the provider's checkout and its webhook included.
  test.setTimeout(120_000);
  const name = `Studio Sam ${Date.now()}`;
  await signedInAs(page, { prefix: "direct-creator", name: "Sam Studio", type: "creator" });
  const { customEnding } = await testHooks(page.request).insightsPage({ name, empty: true });
  await testHooks(page.request).paymentsReady();

  const sponsor = await otherClient(browser);
  await signedInAs(sponsor.page, { prefix: "direct-sponsor", name: "Lumen Lights", type: "sponsor" });
  await sponsor.page.goto(`/app/profiles?name=${encodeURIComponent(name)}`);
  await sponsor.page.getByRole("link", { name: `Make ${name} an offer` }).click();
  await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText("Make Sam Studio an offer");
  await sponsor.page.getByLabel("What is it for?").fill("Desk lamp launch");
  await sponsor.page.getByLabel("Your offer").fill("Show our new lamp in your next studio tour.");
  await sponsor.page.getByLabel("Price (US dollars)").fill("450");
  await sponsor.page.getByLabel("Channel 1").fill("YouTube");
  await sponsor.page.getByLabel("What is made 1").fill("A studio tour segment");
  await sponsor.page.getByLabel("Due 1").fill("2031-02-01");
  await sponsor.page.getByRole("button", { name: "Send offer" }).click();
  await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText("Desk lamp launch");
  await expect(sponsor.page.getByText("Lumen Lights made Sam Studio an offer")).toBeVisible();
  await expect(sponsor.page.getByText(`/${customEnding}`)).toBeVisible();
  // The thread: the sponsor adds the brief in words.
  await expect(sponsor.page.getByText("No messages yet.", { exact: false })).toBeVisible();
  await sponsor.page.getByLabel("Write a message").fill("The lamp ships in matte black; we can send two.");
  await sponsor.page.getByRole("button", { name: "Send message" }).click();
  await expect(sponsor.page.getByRole("listitem").filter({ hasText: "The lamp ships in matte black; we can send two." })).toContainText("You");
  const dealUrl = sponsor.page.url().split("#")[0]!;

  await page.goto("/app/deals?show=waiting");
  await expect(page.getByRole("link", { name: /Desk lamp launch/ })).toContainText("1 new message");
  await page.getByRole("link", { name: /Desk lamp launch/ }).click();
  const message = page.getByRole("listitem").filter({ hasText: "The lamp ships in matte black; we can send two." });
  await expect(message).toContainText("New");
  await expect(message).toContainText("Lumen Lights");
  await page.getByLabel("Write a message").fill("Two would be lovely: one for the desk, one for the shelf.");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Two would be lovely" })).toBeVisible();
  await page.goto("/app/deals");
  await expect(page.getByRole("link", { name: /Desk lamp launch/ })).not.toContainText("new message");
  await page.getByRole("link", { name: /Desk lamp launch/ }).click();
  await page.getByRole("button", { name: "Accept $450" }).click();
  await expect(page.getByText(/Terms agreed: version 1, accepted by you/)).toBeVisible();
  // Only the sponsor pays; the creator waits for the booking.
  await expect(page.getByRole("button", { name: /to book/ })).toHaveCount(0);

  // The sponsor pays to book: the split is on the page before they go, the card on the provider's page.
  await sponsor.page.goto(dealUrl);
  await sponsor.page.reload();
  const payBox = sponsor.page.getByRole("region", { name: "Pay to book" });
  await expect(payBox).toContainText("The platform holds the money, not Sam Studio: they are paid $450 when you approve the work.");
  await payBox.getByRole("button", { name: "Pay $450 to book" }).click();
  await payWithTestCard(sponsor.page);
  await sponsor.page.waitForURL(/\/app\/deals\/deal_[^/?]+\?paid=1$/);
  // The provider's event books the deal, a moment after the sponsor is back.
  await expect(async () => {
    await sponsor.page.reload();
    await expect(sponsor.page.getByText(/Booked: you paid \$450 on/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(sponsor.page.getByRole("region", { name: "Pay to book" })).toHaveCount(0);
  await expect(sponsor.page.getByRole("button", { name: "Call the deal off" })).toHaveCount(0);

  await page.reload();
  await expect(page.getByText(/Booked: Lumen Lights paid \$450 on/)).toBeVisible();
  await expect(page.getByText("Booked", { exact: true })).toBeVisible();

  // The work: the creator hands the segment in, the sponsor sends it back once, then approves it.
  const work = page.getByRole("region", { name: "The work" });
  await expect(work).toContainText("0 of 1 approved.");
  await work.getByLabel("Where is “A studio tour segment” live?").fill("youtube.com/watch?v=tour");
  await work.getByRole("button", { name: "Hand in" }).click();
  await expect(work.getByText("Enter the address where it is live, starting with https://")).toBeVisible();
  await work.getByLabel("Where is “A studio tour segment” live?").fill("https://youtube.com/watch?v=tour");
  await work.getByRole("button", { name: "Hand in" }).click();
  await expect(page.getByText("Handed in. The sponsor has been told.")).toBeVisible();
  await expect(work).toContainText("Waiting on Lumen Lights's review; approved on its own on");

  await sponsor.page.reload();
  const review = sponsor.page.getByRole("region", { name: "The work" });
  await review.getByText("Ask for changes (2 left)").click();
  await review.getByLabel("What should change?").fill("Please show the lamp switched on.");
  await review.getByRole("button", { name: "Send back for changes" }).click();
  await expect(sponsor.page.getByText("Sent back with your note.")).toBeVisible();

  await page.reload();
  await expect(work).toContainText("Changes asked: “Please show the lamp switched on.”");
  await work.getByLabel("Where is “A studio tour segment” live?").fill("https://youtube.com/watch?v=tour2");
  await work.getByRole("button", { name: "Hand in again" }).click();
  await expect(page.getByText("Handed in. The sponsor has been told.")).toBeVisible();

  // The last approval pays the creator: the deal is complete on both sides.
  await sponsor.page.reload();
  await expect(review).toContainText("Ask for changes (1 left)");
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(sponsor.page.getByText(/Complete: every deliverable is approved, and Sam Studio was paid \$450 on/)).toBeVisible();
  await expect(review).toContainText("1 of 1 approved.");
  await expect(review.getByText("Earlier rounds")).toBeVisible();
  await sponsor.context.close();

  await page.reload();
  await expect(page.getByText(/Complete: every deliverable is approved, and you were paid \$450 on/)).toBeVisible();
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  await expect(work.getByRole("button")).toHaveCount(0);
});

test("a booked deal is cancelled when both agree, and the sponsor's money goes back", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const name = `Cancel Cam ${Date.now()}`;
  await signedInAs(page, { prefix: "cancel-creator", name: "Cam Cancel", type: "creator" });
  await testHooks(page.request).insightsPage({ name, empty: true });
  await testHooks(page.request).paymentsReady();

  // A direct offer, accepted and paid for.
  const sponsor = await otherClient(browser);
  await signedInAs(sponsor.page, { prefix: "cancel-sponsor", name: "Quill Pens", type: "sponsor" });
  await sponsor.page.goto(`/app/profiles?name=${encodeURIComponent(name)}`);
  await sponsor.page.getByRole("link", { name: `Make ${name} an offer` }).click();
  await sponsor.page.getByLabel("What is it for?").fill("Fountain pen review");
  await sponsor.page.getByLabel("Your offer").fill("Review our new fountain pen.");
  await sponsor.page.getByLabel("Price (US dollars)").fill("200");
  await sponsor.page.getByLabel("Channel 1").fill("YouTube");
  await sponsor.page.getByLabel("What is made 1").fill("A pen review");
  await sponsor.page.getByLabel("Due 1").fill("2031-02-01");
  await sponsor.page.getByRole("button", { name: "Send offer" }).click();
  await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText("Fountain pen review");
  const dealUrl = sponsor.page.url().split("#")[0]!;

  await page.goto(dealUrl);
  await page.getByRole("button", { name: "Accept $200" }).click();
  await expect(page.getByText("Terms accepted.")).toBeVisible();
  await sponsor.page.reload();
  await sponsor.page.getByRole("button", { name: "Pay $200 to book" }).click();
  await payWithTestCard(sponsor.page);
  await sponsor.page.waitForURL(/\?paid=1$/);
  await expect(async () => {
    await sponsor.page.reload();
    await expect(sponsor.page.getByText(/Booked: you paid \$200 on/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // The creator asks to cancel; nothing ends until the sponsor agrees.
  await page.reload();
  const cancel = page.getByRole("region", { name: "Cancel the deal" });
  await expect(cancel).toContainText("If you both agree to cancel, the deal ends and the sponsor's $200 is refunded in full.");
  await cancel.getByText("Ask to cancel").click();
  await cancel.getByLabel("Why, in a word to Quill Pens (optional)").fill("My camera broke; I cannot film this month.");
  await cancel.getByRole("button", { name: "Ask Quill Pens to cancel" }).click();
  await expect(page.getByText("You asked to cancel. The other side has been told.")).toBeVisible();
  await expect(cancel).toContainText("You asked to cancel. Waiting on Quill Pens to agree.");
  await expect(page.getByText("Booked", { exact: true })).toBeVisible();

  await sponsor.page.reload();
  const answer = sponsor.page.getByRole("region", { name: "Cancel the deal" });
  await expect(answer).toContainText("Cam Cancel asked to cancel. “My camera broke; I cannot film this month.”");
  await answer.getByRole("button", { name: "Agree: cancel and refund $200" }).click();
  await expect(sponsor.page.getByText("The deal is cancelled. The sponsor's money is being refunded.")).toBeVisible();
  await expect(sponsor.page.getByText("You cancelled this booked deal. $200 went back to the sponsor.")).toBeVisible();
  await sponsor.context.close();

  await page.reload();
  await expect(page.getByText("Quill Pens cancelled this booked deal. $200 went back to the sponsor.")).toBeVisible();
  await expect(page.getByText("Cancelled", { exact: true })).toBeVisible();
  // Nothing is left to do on it: no cancelling again, no work to hand in.
  await expect(page.getByRole("region", { name: "Cancel the deal" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Hand in" })).toHaveCount(0);
});
