import AxeBuilder from "@axe-core/playwright";
import { devices, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, payWithTestCard, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * The supporter wall and the goal bar, as a creator and a fan meet them: the
 * creator sets a goal and turns the wall on in the editor; a signed-out fan
 * tips through the sandbox's checkout and finds their message on the wall and
 * the bar moved; the creator hides the entry, shows it again, then refunds the
 * tip and the bar goes back down. The bio page is served from cached bytes, so
 * each change is seen only because the write redrew it.
 */
const REFUNDS = "/app/account/sponsors/payments";

async function creatorWithPage(page: Page): Promise<{ name: string; ending: string; pageId: string }> {
  const tag = randomBytes(4).toString("hex");
  const name = `Wall Creator ${tag}`;
  await signedInAs(page, { prefix: "wall", name });
  await testHooks(page.request).paymentsReady();
  const ending = `wall_${tag}`;
  const response = await page.request.post("/app/account/bizbio/new", {
    data: new URLSearchParams([["name", name], ["customEnding", ending], ["blurb", "I make videos."]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  await page.goto("/app/account/bizbio");
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(/\/edit\/\w+$/);
  return { name, ending, pageId: page.url().split("/").pop()! };
}

async function axeAtPhoneAndDesktop(page: Page, label: string) {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), `${label} at ${viewport.width} px`).toEqual([]);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${label} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
  }
}

test("a fan tips, sees themself on the wall and the goal bar move; hiding and a refund take them off", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  // A whole journey (a paid tip, its webhook, hide, show, a refund) with four axe passes: on two busy cores it outgrew 60 s.
  test.setTimeout(120_000);
  const creator = await creatorWithPage(page);
  const settings = page.getByRole("region", { name: "Supporter wall and goal" });

  // A wrong target is refused beside the field, and nothing is saved.
  await settings.getByLabel("Goal title").fill("New camera");
  await settings.getByLabel("Target (USD)").fill("0");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(settings.getByText("The target must be more than $0")).toBeVisible();
  await expect(settings.getByLabel("Target (USD)")).toHaveAttribute("aria-invalid", "true");
  await expect(settings.getByLabel("Goal title")).toHaveValue("New camera");

  await settings.getByLabel("Target (USD)").fill("500");
  await settings.getByLabel("Show a supporter wall on my page").check();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(`Your changes to ${new URL(BIO_ORIGIN).host}/${creator.ending} were saved.`)).toBeVisible();
  await page.goto(`/edit/${creator.pageId}`);
  await expect(settings.getByTestId("goal-progress")).toHaveText("So far: $0 of $500 raised · 0%");
  await expect(settings.getByLabel("Show a supporter wall on my page")).toBeChecked();
  await axeAtPhoneAndDesktop(page, "editor with the wall and goal form");

  // The fan, signed out, on a phone-sized desktop browser of their own.
  const context = await browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders });
  const fan = await context.newPage();
  const bioPage = `${BIO_ORIGIN}/${creator.ending}`;
  await fan.goto(bioPage);
  const goal = fan.getByRole("region", { name: "New camera" });
  await expect(goal.getByRole("progressbar", { name: "New camera" })).toHaveAttribute("value", "0");
  await expect(goal).toContainText("$0 of $500 raised · 0%");
  const wall = fan.getByRole("region", { name: "Supporters" });
  await expect(wall).toContainText("No supporters yet: be the first.");

  const message = `Camera fund from fan ${randomBytes(3).toString("hex")}`;
  await fan.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await fan.getByLabel("Amount (USD)").fill("120");
  await fan.getByLabel("Sponsor email").fill("wall-fan@e2e.example");
  await fan.getByLabel("Message").fill(message);
  await fan.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(fan).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
  await payWithTestCard(fan);
  await expect(fan).toHaveURL(/\/app\/payments\/success\?session=ss_[0-9a-f]{24}$/);
  await expect(fan.getByText(`Your tip of $120.00 to ${creator.name} was successful.`)).toBeVisible({ timeout: 30_000 });
  const sessionId = new URL(fan.url()).searchParams.get("session")!;

  await fan.goto(bioPage);
  await expect(goal.getByRole("progressbar")).toHaveAttribute("value", "24");
  await expect(goal).toContainText("$120 of $500 raised · 24%");
  const entry = wall.getByRole("listitem").filter({ hasText: message });
  await expect(entry).toContainText("Someone");
  await expect(entry).toContainText("$120");

  // The creator hides the entry: it leaves the wall (the goal still counts the money), and comes back with Show.
  await page.goto(`/app/account/bizbio/${creator.pageId}/supporters`);
  await expect(page.getByRole("heading", { level: 1, name: creator.name })).toBeVisible();
  const row = page.getByRole("list", { name: "Supporters" }).getByRole("listitem").filter({ hasText: message });
  await expect(row).toContainText("$120 · ");
  await axeAtPhoneAndDesktop(page, "supporters list");
  await row.getByRole("button", { name: /^Hide/ }).click();
  await expect(page.getByText("Hidden from your supporter wall.")).toBeVisible();
  await expect(row).toContainText("Hidden from the wall");
  await fan.goto(bioPage);
  await expect(wall).not.toContainText(message);
  await expect(goal).toContainText("$120 of $500 raised · 24%");

  await row.getByRole("button", { name: /^Show/ }).click();
  await expect(page.getByText("Shown on your supporter wall again.")).toBeVisible();
  await fan.goto(bioPage);
  await expect(wall).toContainText(message);

  // The creator refunds the tip (answering the question yes): the bar goes back down and the supporter leaves the wall.
  const refund = await page.request.post(`${REFUNDS}/${sessionId}/refund`, { form: { returnTo: REFUNDS, confirmed: "yes" }, maxRedirects: 0 });
  expect(refund.status()).toBe(302);
  await expect.poll(async () => (await testHooks(page.request).sponsorSession(sessionId)).status, { timeout: 15_000 }).toBe("refunded");
  await fan.goto(bioPage);
  await expect(goal.getByRole("progressbar")).toHaveAttribute("value", "0");
  await expect(goal).toContainText("$0 of $500 raised · 0%");
  await expect(wall).toContainText("No supporters yet: be the first.");
  await context.close();

  // Removing the goal empties its fields, and the one Save takes the bar off the page.
  await page.goto(`/edit/${creator.pageId}`);
  await expect(page.getByText("Changes show here as you make them.")).toBeVisible();
  await settings.getByRole("button", { name: "Remove goal" }).click();
  await expect(settings.getByLabel("Goal title")).toHaveValue("");
  await expect(settings.getByText("The goal comes off your page when you save.")).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(`Your changes to ${new URL(BIO_ORIGIN).host}/${creator.ending} were saved.`)).toBeVisible();
  await page.goto(bioPage);
  await expect(page.getByRole("heading", { level: 1, name: creator.name })).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveCount(0);
});

test("another person's supporters list and hide buttons answer not found", async ({ page }) => {
  const creator = await creatorWithPage(page);
  await page.context().clearCookies();
  await signedInAs(page, { prefix: "other", name: "Other Person" });
  const list = await page.request.get(`/app/account/bizbio/${creator.pageId}/supporters`);
  expect(list.status()).toBe(404);
  const hide = await page.request.post(`/app/account/bizbio/${creator.pageId}/supporters`, { form: { intent: "hide", session: `ss_${"0".repeat(24)}` }, maxRedirects: 0 });
  expect(hide.status()).toBe(404);
});
