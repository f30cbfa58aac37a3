import type { Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, signedInAs, test } from "./fixtures";

/**
 * The deal forms are plain HTML posts underneath: with JavaScript off a creator applies to a
 * brief (a refused try keeps what they typed), the two write in the thread, the terms go back and
 * forth, and the sponsor accepts: every step a full page load.
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
