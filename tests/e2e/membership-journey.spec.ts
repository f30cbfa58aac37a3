import { devices, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";
import { expect, mailCount, otherClient, payWithTestCard, signedInAs, test, uniqueEmail, waitForMail } from "./fixtures";

/**
 * A membership's life, end to end, as the people in it meet it: a fan joins from a bio page on a
 * phone without an account; the creator sees them on the home; the sandbox's test clock renews the
 * membership twice, each renewal a receipt; the member's card starts failing, the next renewal
 * fails and is fixed from the mail's link; then the member switches tier and cancels, still a
 * member until the period's end. (A creator writing to one tier: membership-posts.spec.ts.)
 */
const PHONE = { width: 390, height: 844 };

async function addTier(page: Page, fields: { name: string; monthly: string; benefits: string; welcome: string }) {
  const form = page.getByRole("form", { name: "Add a tier" });
  await form.getByLabel("Name").fill(fields.name);
  await form.getByLabel("Monthly price (USD)").fill(fields.monthly);
  await form.getByLabel("Benefits").fill(fields.benefits);
  await form.getByLabel("Welcome message").fill(fields.welcome);
  await form.getByRole("button", { name: "Add tier" }).click();
  await expect(page.getByText("Tier added to your page.")).toBeVisible();
}

/** A creator who takes payments, with a page offering Gold ($5) and Silver ($8); left signed in. */
async function creatorWithTiers(page: Page) {
  const tag = randomBytes(4).toString("hex");
  const name = `Journey Maker ${tag}`;
  await signedInAs(page, { prefix: "journey-creator", name: "Jo", type: "creator" });
  await testHooks(page.request).paymentsReady();
  const ending = `journey_${tag}`;
  const created = await page.request.post("/app/account/bizbio/new", { form: { name, customEnding: ending, blurb: "A show about making." }, maxRedirects: 0 });
  expect(created.status()).toBe(302);
  await page.goto("/app/account/bizbio");
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await page.getByRole("link", { name: "Edit membership tiers" }).click();
  await addTier(page, { name: "Gold", monthly: "5", benefits: "Early episodes", welcome: "Early episodes come to your inbox." });
  await addTier(page, { name: "Silver", monthly: "8", benefits: "Early episodes\nA monthly call", welcome: "The call link comes by mail." });
  return { name, ending };
}

/** The member page's address from a mail's button. */
function memberLinkIn(mail: { links: string[] }): string {
  const link = mail.links.find((href) => /\/membership\/m1\.[\w.-]+$/.test(href));
  if (!link) throw new Error(`no member link in ${mail.links.join(", ")}`);
  return new URL(link).pathname;
}

test("a fan joins on a phone, renews twice, fixes a failed renewal from the mail, switches tier and cancels; the creator sees it all", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const hooks = testHooks(page.request);
  const creator = await creatorWithTiers(page);

  // The fan, on a phone, with no account.
  const email = uniqueEmail("journey-fan");
  const { context, page: fan } = await otherClient(browser, { ...devices["Pixel 7"], viewport: PHONE, screen: PHONE });
  await fan.goto(`${BIO_ORIGIN}/${creator.ending}`);
  await fan.getByRole("region", { name: "Become a member" }).getByRole("link", { name: "Join Gold" }).click();
  await fan.getByLabel("Email").fill(email);
  await fan.getByLabel("Your name (optional)").fill("Rosa Fan");
  await fan.getByRole("button", { name: "Continue to payment" }).click();
  await expect(fan).toHaveURL(/\/sandbox\/membership-checkout\/[\w-]+$/, { timeout: 15_000 });
  const checkoutId = new URL(fan.url()).pathname.split("/").pop()!;
  await payWithTestCard(fan, { button: /^Subscribe/ });
  await expect(fan.getByRole("heading", { level: 1 })).toHaveText(/Welcome/, { timeout: 20_000 });
  await expect(fan.getByRole("blockquote")).toHaveText("Early episodes come to your inbox.");

  const welcome = await waitForMail(email, { subject: /^Welcome: you're a Gold member of / });
  const memberPath = memberLinkIn(welcome);

  // The creator sees the new member on the home, with what they bring each month.
  await page.goto("/app");
  const members = page.getByRole("region", { name: "Members" });
  await expect(members.locator("[data-members-running]")).toHaveText("1");
  await expect(members.locator("[data-members-mrr]")).toHaveText("$5.00");

  // The test clock renews twice: two receipts, three paid periods on the creator's members page.
  const { subscriptionId } = await hooks.sandbox.membershipState(checkoutId);
  expect(subscriptionId).toMatch(/^sub_sbx_/);
  for (let renewal = 1; renewal <= 2; renewal += 1) {
    const before = await mailCount(email);
    expect(await hooks.advanceSandboxMemberships(subscriptionId!)).toMatchObject({ renewed: 1, failed: 0, ended: 0 });
    const receipt = await waitForMail(email, { subject: /^Your receipt: \$5\.00 to /, after: before });
    expect(memberLinkIn(receipt)).toBe(memberPath);
  }
  await page.goto("/app/members");
  await expect(page.getByText("Rosa Fan").first()).toBeVisible();
  await page.getByText("Paid periods (3)").click();
  await expect(page.getByRole("list", { name: "Paid periods of Rosa Fan" }).getByRole("button", { name: "Refund", exact: true })).toHaveCount(3);

  // The member's card starts failing (the 0341 test card, from their page's "Update your card"),
  // the next renewal fails and its mail leads back to the page, where a good card pays it.
  await fan.goto(memberPath);
  await fan.getByRole("button", { name: "Update your card" }).click();
  await payWithTestCard(fan, { number: "4000 0000 0000 0341", button: "Save card" });
  await expect(fan.getByText("Your card was updated. Your next renewal will be charged to it.")).toBeVisible();
  expect(await hooks.advanceSandboxMemberships(subscriptionId!)).toMatchObject({ renewed: 0, failed: 1 });
  const failed = await waitForMail(email, { subject: /^Your Gold payment to .* failed$/ });
  await fan.goto(memberLinkIn(failed));
  await expect(fan.getByText("Payment failed — update your card")).toBeVisible({ timeout: 20_000 });
  await fan.getByRole("button", { name: "Update your card" }).click();
  await payWithTestCard(fan, { button: /^Save card and pay \$5\.00/ });
  await expect(fan.getByText("Your card was updated and the unpaid renewal was paid with it. Your membership is active again.")).toBeVisible();
  // The provider's event brings the paid renewal in a moment: the page shows it once it has.
  await expect(async () => {
    await fan.goto(memberPath);
    await expect(fan.getByText("Payment failed — update your card")).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // Switch to Silver (from the next renewal), then cancel: still a member until the period's end.
  await fan.getByRole("button", { name: "Switch to Silver" }).click();
  await expect(fan.getByText(/You're now a Silver member\. From your next renewal on .+, you pay \$8\/month\./)).toBeVisible();
  await fan.getByRole("link", { name: "Cancel membership" }).click();
  await fan.getByRole("button", { name: "Yes, cancel my membership" }).click();
  await expect(fan.getByText(/Your membership is cancelled\. You stay a member until .+, and you won't be charged again\./)).toBeVisible();
  expect(await fan.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The creator is told, and the members page shows the member as cancelled.
  await page.goto("/app/notifications");
  await expect(page.getByText("Rosa Fan joined Gold at $5.00/month")).toBeVisible();
  await expect(page.getByText(/^Rosa Fan cancelled Silver/)).toBeVisible();
  await page.goto("/app/members?state=cancelled");
  await expect(page.getByText("Rosa Fan").first()).toBeVisible();
  await context.close();
});
