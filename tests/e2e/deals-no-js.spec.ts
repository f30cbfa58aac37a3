import type { Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, signedInAs, test } from "./fixtures";

/**
 * The deal forms are plain HTML posts underneath: with JavaScript off a creator applies to a
 * brief (a refused try keeps what they typed), the two write in the thread, the terms go back and
 * forth, and the sponsor accepts: every step a full page load. On phone-wide windows the money
 * steps are plain posts too: Pay to book, the provider's card form, handing the work in, approving.
 */

async function postBrief(page: Page, title: string): Promise<string> {
  await page.goto("/app/opportunities/new");
  await page.getByRole("radio", { name: /A brief: creators apply/ }).check();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Organization").fill("Quiet Page Co");
  await page.getByLabel("Description").fill("A written review of our e-reader on your blog, with photos. Budget around $500.");
  await page.getByLabel("Minimum contribution (US dollars)").fill("500");
  await page.getByRole("button", { name: "Post opportunity" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  return new URL(page.url()).pathname;
}

test("with JavaScript off a creator applies to a brief, both write in the thread, and the sponsor accepts", async ({ browser }) => {
  test.setTimeout(90_000);
  const title = `E-reader review ${Date.now()}`;
  const sponsor = await otherClient(browser, { javaScriptEnabled: false });
  await signedInAs(sponsor.page, { prefix: "nojs-sponsor", name: "Quiet Page Co", type: "sponsor" });
  const postPath = await postBrief(sponsor.page, title);

  const creator = await otherClient(browser, { javaScriptEnabled: false });
  await signedInAs(creator.page, { prefix: "nojs-creator", name: "Rosa Reads", type: "creator" });
  await testHooks(creator.page.request).paymentsReady();
  await creator.page.goto(postPath);
  await creator.page.getByRole("link", { name: "Apply" }).click();
  await expect(creator.page.getByRole("heading", { level: 1 })).toHaveText("Apply to this brief");
  const pitch = "I write long reviews of reading gadgets for 40k readers.";
  await creator.page.getByLabel("Your pitch").fill(pitch);
  await creator.page.getByLabel("Channel 1").fill("Blog");
  await creator.page.getByLabel("What is made 1").fill("A 1,500-word review with photos");
  await creator.page.getByLabel("Due 1").fill("2031-06-01");
  // A price the form refuses: the server answers the post with the form, the message and what was typed.
  await creator.page.getByLabel("Price (US dollars)").fill("0.10");
  await creator.page.getByRole("button", { name: "Send application" }).click();
  await expect(creator.page.getByText("The price must be from $0.50 to $10,000")).toBeVisible();
  await expect(creator.page.getByLabel("Your pitch")).toHaveValue(pitch);
  await expect(creator.page.getByLabel("What is made 1")).toHaveValue("A 1,500-word review with photos");
  await creator.page.getByLabel("Price (US dollars)").fill("550");
  await creator.page.getByRole("button", { name: "Send application" }).click();
  await expect(creator.page.getByText("Sent. You'll hear when they answer.")).toBeVisible();
  await expect(creator.page.getByText("Waiting on Quiet Page Co to answer these terms.")).toBeVisible();
  const dealPath = new URL(creator.page.url()).pathname;
  await creator.page.getByLabel("Write a message").fill("Happy to send a draft a week before it goes up.");
  await creator.page.getByRole("button", { name: "Send message" }).click();
  await expect(creator.page.getByText("Happy to send a draft a week before it goes up.")).toBeVisible();

  // The sponsor finds it in the post's inbox, reads the message, answers it and sends $500.
  await sponsor.page.goto(postPath);
  await sponsor.page.getByRole("link", { name: /Rosa Reads · \$550/ }).click();
  await expect(sponsor.page).toHaveURL(dealPath);
  await expect(sponsor.page.getByText("Happy to send a draft a week before it goes up.")).toBeVisible();
  await sponsor.page.getByLabel("Write a message").fill("A draft would be great.");
  await sponsor.page.getByRole("button", { name: "Send message" }).click();
  await expect(sponsor.page.getByText("A draft would be great.")).toBeVisible();
  // The counter form sits in a <details>, which opens without a script.
  await sponsor.page.getByText("Answer with new terms").click();
  await sponsor.page.getByLabel("Price (US dollars)").fill("500");
  await sponsor.page.getByLabel(/^A message to/).fill("Our budget is $500 for this one.");
  await sponsor.page.getByRole("button", { name: "Send new terms" }).click();
  await expect(sponsor.page.getByText("Your terms were sent.")).toBeVisible();
  await expect(sponsor.page.getByText("Waiting on Rosa Reads to answer these terms.")).toBeVisible();

  // The creator meets them at $520, and the sponsor accepts.
  await creator.page.goto(dealPath);
  await expect(creator.page.getByText("Our budget is $500 for this one.")).toBeVisible();
  await creator.page.getByText("Answer with new terms").click();
  await creator.page.getByLabel("Price (US dollars)").fill("520");
  await creator.page.getByRole("button", { name: "Send new terms" }).click();
  await expect(creator.page.getByText("Your terms were sent.")).toBeVisible();
  await sponsor.page.goto(dealPath);
  await sponsor.page.getByRole("button", { name: "Accept $520" }).click();
  await expect(sponsor.page.getByText("Terms accepted.")).toBeVisible();
  await expect(sponsor.page.getByText(/Terms agreed: version 3, accepted by you/)).toBeVisible();
  await creator.page.goto(dealPath);
  await expect(creator.page.getByText(/Terms agreed: version 3, accepted by Quiet Page Co/)).toBeVisible();
  await Promise.all([sponsor.context.close(), creator.context.close()]);
});

test("on phones with JavaScript off a sponsor pays to book, the creator hands the work in, and the sponsor's approval pays them", async ({ browser }) => {
  test.setTimeout(120_000);
  const phone = { javaScriptEnabled: false, viewport: { width: 390, height: 844 } };
  const name = `Quiet Quill ${Date.now()}`;
  const creator = await otherClient(browser, phone);
  await signedInAs(creator.page, { prefix: "nojs-paid-creator", name: "Quinn Quill", type: "creator" });
  await testHooks(creator.page.request).insightsPage({ name, empty: true });
  await testHooks(creator.page.request).paymentsReady();

  const sponsor = await otherClient(browser, phone);
  await signedInAs(sponsor.page, { prefix: "nojs-paid-sponsor", name: "Inkwell Co", type: "sponsor" });
  await sponsor.page.goto(`/app/profiles?name=${encodeURIComponent(name)}`);
  await sponsor.page.getByRole("link", { name: `Make ${name} an offer` }).click();
  await sponsor.page.getByLabel("What is it for?").fill("Ink review");
  await sponsor.page.getByLabel("Your offer").fill("Review our new ink on your channel.");
  await sponsor.page.getByLabel("Price (US dollars)").fill("150");
  await sponsor.page.getByLabel("Channel 1").fill("Instagram");
  await sponsor.page.getByLabel("What is made 1").fill("An ink swatch reel");
  await sponsor.page.getByLabel("Due 1").fill("2031-03-01");
  await sponsor.page.getByRole("button", { name: "Send offer" }).click();
  await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText("Ink review");
  const dealUrl = sponsor.page.url().split("#")[0]!;

  await creator.page.goto(dealUrl);
  await creator.page.getByRole("button", { name: "Accept $150" }).click();
  await expect(creator.page.getByText(/Terms agreed: version 1, accepted by you/)).toBeVisible();

  // Pay to book: a plain form to the provider's page, the card form posted there, and back.
  await sponsor.page.goto(dealUrl);
  await sponsor.page.getByRole("button", { name: "Pay $150 to book" }).click();
  await sponsor.page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await sponsor.page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await sponsor.page.getByLabel("CVC").fill("123");
  await sponsor.page.getByLabel("ZIP code").fill("94107");
  await sponsor.page.getByRole("button", { name: /^Pay \$/ }).click();
  await sponsor.page.waitForURL(/\?paid=1$/);
  await expect(async () => {
    await sponsor.page.goto(dealUrl);
    await expect(sponsor.page.getByText(/Booked: you paid \$150 on/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // Booked: the creator's home shows the money held for them, apart from what they earned.
  await creator.page.goto("/app");
  const held = creator.page.getByRole("region", { name: "Earnings", exact: true }).locator("[data-held-in-deals]");
  await expect(held).toContainText("Held in deals: $150.00");
  await expect(held.getByRole("link", { name: "My deals" })).toHaveAttribute("href", "/app/deals");

  // The work, every step a full page load on a phone-wide window.
  await creator.page.goto(dealUrl);
  const work = creator.page.getByRole("region", { name: "The work" });
  await work.getByLabel("Where is “An ink swatch reel” live?").fill("https://instagram.com/reel/ink");
  await work.getByRole("button", { name: "Hand in" }).click();
  await expect(creator.page.getByText("Handed in. The sponsor has been told.")).toBeVisible();
  expect(await creator.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await sponsor.page.goto(dealUrl);
  await sponsor.page.getByRole("region", { name: "The work" }).getByRole("button", { name: "Approve" }).click();
  await expect(sponsor.page.getByText(/Complete: every deliverable is approved, and Quinn Quill was paid \$150 on/)).toBeVisible();
  await creator.page.goto(dealUrl);
  await expect(creator.page.getByText(/Complete: every deliverable is approved, and you were paid \$150 on/)).toBeVisible();

  // Released: the deal is the creator's earning on My Payments, linking to the deal, and no longer held.
  await creator.page.goto("/app/account/payments");
  const earned = creator.page.getByRole("list", { name: "Deal earnings" }).getByRole("listitem");
  await expect(earned).toHaveCount(1);
  await expect(earned.getByRole("link", { name: "Deal: Ink review" })).toHaveAttribute("href", new URL(dealUrl).pathname);
  await expect(earned).toContainText("from Inkwell Co");
  await expect(earned).toContainText("You received$150.00");
  expect(await creator.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await creator.page.goto("/app");
  await expect(creator.page.locator("[data-held-in-deals]")).toHaveCount(0);
  await Promise.all([sponsor.context.close(), creator.context.close()]);
});
