import { devices, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";
import { expect, otherClient, signedInAs, test, uniqueEmail } from "./fixtures";

/**
 * Memberships, the joining side: a creator who can take payments adds two tiers from the bio
 * editor's "Edit membership tiers" (a refused price shown beside its field); the public bio page
 * shows them under Support without any script; a fan on a phone opens Join, picks yearly, pays
 * more (below the price refused first) and is sent to the provider's hosted membership checkout.
 */
const PHONE = { width: 390, height: 844 };

async function creatorWithPage(page: Page): Promise<{ name: string; ending: string }> {
  const tag = randomBytes(4).toString("hex");
  const name = `Maya Makes ${tag}`;
  await signedInAs(page, { prefix: "tiers-creator", name: "Maya", type: "creator" });
  await testHooks(page.request).paymentsReady();
  const ending = `maya_${tag}`;
  const response = await page.request.post("/app/account/bizbio/new", { form: { name, customEnding: ending, blurb: "Things I make." }, maxRedirects: 0 });
  expect(response.status(), await response.text()).toBe(302);
  return { name, ending };
}

async function addTier(page: Page, fields: { name: string; monthly: string; yearly?: string; benefits?: string; limit?: string; welcome?: string }) {
  const form = page.getByRole("form", { name: "Add a tier" });
  await form.getByLabel("Name").fill(fields.name);
  await form.getByLabel("Monthly price (USD)").fill(fields.monthly);
  await form.getByLabel("Yearly price (USD, optional)").fill(fields.yearly ?? "");
  await form.getByLabel("Benefits").fill(fields.benefits ?? "");
  await form.getByLabel("Member limit (optional)").fill(fields.limit ?? "");
  await form.getByLabel("Welcome message").fill(fields.welcome ?? "");
  await form.getByRole("button", { name: "Add tier" }).click();
}

/** The creator's two tiers, made on the tiers screen as a person makes them. */
async function creatorWithTiers(page: Page) {
  const creator = await creatorWithPage(page);
  await page.goto("/app/account/bizbio");
  await page.getByRole("link", { name: `Edit ${creator.name}` }).click();
  await page.getByRole("link", { name: "Edit membership tiers" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Membership tiers");
  await expect(page.getByText("No tiers yet.")).toBeVisible();

  await addTier(page, { name: "Gold", monthly: "2", yearly: "50", benefits: "Early videos\nA monthly live call", welcome: "Welcome to Gold! The call link is in your mail." });
  const adding = page.getByRole("form", { name: "Add a tier" });
  await expect(adding.getByText("The monthly price must be from $3 to $1,000")).toBeVisible();
  await expect(adding.getByLabel("Monthly price (USD)")).toHaveAttribute("aria-invalid", "true");
  await expect(adding.getByLabel("Name")).toHaveValue("Gold");
  await adding.getByLabel("Monthly price (USD)").fill("5");
  await adding.getByRole("button", { name: "Add tier" }).click();
  await expect(page.getByText("Tier added to your page.")).toBeVisible();
  await addTier(page, { name: "Inner circle", monthly: "20", benefits: "Everything in Gold\nYour name in the credits", limit: "3" });
  await expect(page.getByText("Tier added to your page.")).toBeVisible();
  const tiers = page.getByRole("list", { name: "Your tiers" });
  await expect(tiers.getByRole("heading", { level: 3 })).toHaveText(["1. Gold", "2. Inner circle"]);
  await expect(tiers.getByText("Offered · 0 members of 3")).toBeVisible();
  return creator;
}

test("a creator adds two tiers, the bio page shows them without script, and a fan on a phone joins yearly paying more", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const creator = await creatorWithTiers(page);

  const { context, page: fan } = await otherClient(browser, { ...devices["Pixel 7"], viewport: PHONE, screen: PHONE });
  const response = await fan.goto(`${BIO_ORIGIN}/${creator.ending}`);
  expect(await response!.text()).not.toMatch(/<script/i);
  const members = fan.getByRole("region", { name: "Become a member" });
  await expect(members.getByRole("listitem").filter({ hasText: "Gold" }).first()).toContainText("$5/month");
  await expect(members).toContainText("or $50/year");
  await expect(members.getByRole("list", { name: "What members get" }).first().getByRole("listitem")).toHaveText(["Early videos", "A monthly live call"]);
  await expect(members).toContainText("3 spots left");
  await expect(members.getByRole("link", { name: "Join Inner circle" })).toBeVisible();
  expect(await fan.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  await members.getByRole("link", { name: "Join Gold" }).click();
  await expect(fan).toHaveURL(/\/app\/memberships\/join\?page=[\w]+&tier=tier_[\w-]+$/);
  await expect(fan.getByRole("heading", { level: 1 })).toHaveText("Join Gold");
  expect(await fan.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // Yearly, paying less than the yearly price: refused beside the field, with what was typed kept.
  await fan.getByLabel(/^Yearly/).check();
  await fan.getByLabel("Pay more (optional, USD)").fill("40");
  await fan.getByRole("button", { name: "Continue to payment" }).click();
  await expect(fan.getByText("The least you can pay is the tier's price, $50/year")).toBeVisible();
  await expect(fan.getByLabel("Pay more (optional, USD)")).toHaveAttribute("aria-invalid", "true");
  await expect(fan.getByText("Enter your email: your member link and receipts go there")).toBeVisible();
  await expect(fan.getByLabel(/^Yearly/)).toBeChecked();

  await fan.getByLabel("Pay more (optional, USD)").fill("60");
  await fan.getByLabel("Email").fill(uniqueEmail("tiers-fan"));
  await fan.getByLabel("Your name (optional)").fill("Sam Fan");
  await fan.getByLabel("Keep my membership private").check();
  await fan.getByRole("button", { name: "Continue to payment" }).click();
  // The provider's hosted membership checkout (the sandbox's page).
  await expect(fan).toHaveURL(/\/sandbox\/membership-checkout\/[\w-]+$/, { timeout: 15_000 });
  expect(new URL(fan.url()).pathname.startsWith("/sandbox/membership-checkout/")).toBe(true);
  await context.close();
});

test("a paused tier leaves the bio page, and its join page says so without a form", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const creator = await creatorWithTiers(page);
  const tiers = page.getByRole("list", { name: "Your tiers" });
  await tiers.getByRole("button", { name: "Pause “Gold”" }).click();
  await expect(page.getByText("Tier paused: your page shows it no more, and its members stay.")).toBeVisible();
  await expect(tiers.getByText("Paused: no new members · 0 members")).toBeVisible();

  const { context, page: fan } = await otherClient(browser);
  await fan.goto(`${BIO_ORIGIN}/${creator.ending}`);
  const members = fan.getByRole("region", { name: "Become a member" });
  await expect(members.getByRole("link", { name: "Join Inner circle" })).toBeVisible();
  await expect(members.getByRole("link", { name: "Join Gold" })).toHaveCount(0);
  // Someone holding the old Join link is told, with no form to fill.
  const goldId = await tiers.getByRole("form", { name: "Tier Gold" }).locator('input[name="tierId"]').getAttribute("value");
  await fan.goto(`/app/memberships/join?page=${creator.ending}&tier=${goldId}`);
  await expect(fan.getByRole("heading", { level: 1 })).toHaveText("Join Gold");
  await expect(fan.getByText("isn't taking new Gold members right now.")).toBeVisible();
  await expect(fan.getByRole("button", { name: "Continue to payment" })).toHaveCount(0);
  await context.close();
});
