import AxeBuilder from "@axe-core/playwright";
import { devices, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, otherClient, payWithTestCard, signedInAs, test, uniqueEmail, waitForMail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * A tip as a fan meets it: on a 390×844 phone the amount chips (in the
 * creator's colours), the message box and the pay button are all on the
 * first screen, the optional name and "keep it private" folded away; the
 * thank-you says where the fan now shows and leads back to the creator's
 * page; no internal id is shown on any page of the way, nor in the receipt.
 * Then the same on a desktop, kept private.
 */
const PHONE = { width: 390, height: 844 };
const CANDY = { background: "rgb(255, 228, 241)", button: "rgb(190, 24, 93)" };
const RAW_ID = /\b(ss|cs|pi)_[0-9a-zA-Z]{6,}/;

function postForm(request: APIRequestContext, path: string, fields: [string, string][]) {
  return request.post(path, { data: new URLSearchParams(fields).toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0 });
}

/** A creator who takes tips, on the Candy theme with the supporter wall on; left signed in on `page`. */
async function candyCreator(page: Page): Promise<{ name: string; ending: string }> {
  const tag = randomBytes(4).toString("hex");
  const name = `Candy Maker ${tag}`;
  await signedInAs(page, { prefix: "phone-tip", name });
  await testHooks(page.request).paymentsReady();
  const ending = `candy_${tag}`;
  expect((await postForm(page.request, "/app/account/bizbio/new", [["name", name], ["customEnding", ending], ["blurb", "Sweet videos."]])).status()).toBe(302);
  await page.goto("/app/account/bizbio");
  const href = await page.getByRole("link", { name: `Edit ${name}` }).getAttribute("href");
  // The editor's one form, as its Save button sends it: the page, its look and the wall together.
  const saved = await postForm(page.request, href!, [
    ["intent", "save"], ["name", name], ["customEnding", ending], ["blurb", "Sweet videos."],
    ["themePreset", "candy"], ["themeFont", "rounded"], ["wallEnabled", "on"], ["goalTitle", ""], ["goalTarget", ""],
  ]);
  expect(saved.status()).toBeLessThan(400);
  return { name, ending };
}

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), label).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} scrolls sideways`).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** The element's bottom edge, in CSS pixels from the top of the page. */
async function bottomOf(locator: Locator): Promise<number> {
  return locator.evaluate((element) => element.getBoundingClientRect().bottom + window.scrollY);
}

/** Every text of the page a person can read, for raw ids. */
const visibleText = (page: Page) => page.locator("body").innerText();

test("on a phone a fan tips from the first screen, is told they are on the wall, and is led back to the page", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const creator = await candyCreator(page);
  const { context, page: fan } = await otherClient(browser, { ...devices["Pixel 7"], viewport: PHONE, screen: PHONE });
  await fan.goto(`${BIO_ORIGIN}/${creator.ending}`);
  await fan.getByRole("region", { name: `Support ${creator.name}` }).getByRole("link", { name: "$5", exact: true }).click();
  await expect(fan).toHaveURL(`/app/payments/checkout?page=${creator.ending}&kind=tip&amount=500`);
  await expect(fan.getByRole("heading", { level: 1 })).toHaveText(`Send a tip to ${creator.name}`);

  // The first screen holds the chips, the message box and the button (the fold: 844 px, the page as it opens).
  const chips = fan.getByRole("list", { name: "Suggested amounts" });
  const message = fan.getByLabel("Message");
  const pay = fan.getByRole("button", { name: "Proceed to Checkout" });
  expect(await fan.evaluate(() => window.scrollY)).toBe(0);
  for (const [what, locator] of [["the amount chips", chips], ["the message box", message], ["the pay button", pay]] as const) {
    await expect(locator).toBeVisible();
    expect(await bottomOf(locator), `${what} end below the fold`).toBeLessThanOrEqual(PHONE.height);
  }
  // The optional fields are folded; the chips wear the creator's colours, the chosen one the page's button.
  await expect(fan.getByLabel("Your name")).toBeHidden();
  await expect(fan.getByLabel("Keep my support private")).toBeHidden();
  const five = chips.getByRole("link", { name: "$5", exact: true });
  await expect(five).toHaveAttribute("aria-current", "true");
  await expect(five).toHaveCSS("background-color", CANDY.button);
  await expect(chips.getByRole("link", { name: "$10", exact: true })).toHaveCSS("background-color", CANDY.background);
  await expect(fan.getByText("It goes on the supporter wall too, unless you keep it private.")).toBeVisible();
  await expect(fan.getByText(RAW_ID)).toHaveCount(0);
  await expectNoAxeViolations(fan, "tip checkout on a phone");

  // The fold opens from the keyboard, as a screen reader's user would open it.
  await fan.locator("summary", { hasText: "Your name, or stay private" }).focus();
  await fan.keyboard.press("Enter");
  await expect(fan.getByLabel("Your name")).toBeVisible();
  await expect(fan.getByText(`Shown to ${creator.name} and on their supporter wall.`)).toBeVisible();
  await expectNoAxeViolations(fan, "tip checkout, optional fields open");

  const email = uniqueEmail("phone-fan");
  const words = `Sweet! ${randomBytes(3).toString("hex")}`;
  await fan.getByLabel("Your name").fill("Sam Phone");
  await fan.getByLabel("Sponsor email").fill(email);
  await message.fill(words);
  await pay.click();
  await expect(fan).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
  await payWithTestCard(fan);

  await expect(fan.getByRole("heading", { level: 1 })).toHaveText("Thank you for your tip!", { timeout: 30_000 });
  await expect(fan.getByText(`Your tip of $5.00 to ${creator.name} was successful.`)).toBeVisible();
  const where = fan.getByRole("region", { name: "Where you appear" });
  await expect(where).toContainText(`You're on ${creator.name}'s supporter wall as “Sam Phone”, with your message and amount.`);
  await expect(where.getByRole("link", { name: `${creator.name}'s supporter wall` })).toHaveAttribute("href", `${BIO_ORIGIN}/${creator.ending}#w`);
  await expect(fan.getByRole("link", { name: `Back to ${creator.name}'s page` })).toHaveAttribute("href", `${BIO_ORIGIN}/${creator.ending}`);
  expect(await visibleText(fan)).not.toMatch(RAW_ID);
  await expectNoAxeViolations(fan, "thank-you on a phone");

  // Where the page said: back on the creator's page, on the wall by name.
  await fan.getByRole("link", { name: `Back to ${creator.name}'s page` }).click();
  await expect(fan.getByRole("region", { name: "Supporters" }).getByRole("listitem").filter({ hasText: words })).toContainText("Sam Phone");

  // The receipt names no internal id either.
  const receipt = await waitForMail(email, { subject: /^Your receipt: \$5\.00/ });
  expect(receipt.html).toContain(`Thank you for supporting ${creator.name}`);
  expect(receipt.text).not.toMatch(RAW_ID);
  expect(receipt.html).not.toMatch(RAW_ID);
  await context.close();
});

test("on a desktop a fan keeps a tip private and the thank-you says how the wall shows it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const creator = await candyCreator(page);
  const { context, page: fan } = await otherClient(browser, { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } });
  await fan.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await expectNoAxeViolations(fan, "tip checkout on a desktop");
  // A chip first: were the page not hydrated yet, the chip is a link that reloads the form with its amount.
  await fan.getByRole("link", { name: "$10", exact: true }).click();
  await expect(fan.getByLabel("Amount (USD)")).toHaveValue("10");
  await fan.locator("summary", { hasText: "Your name, or stay private" }).click();
  await fan.getByLabel("Keep my support private").check();
  await expect(fan.getByLabel("Keep my support private")).toHaveAccessibleDescription(
    `The wall shows “A private supporter”, without your name, message or amount. ${creator.name} still sees them.`,
  );
  await fan.getByLabel("Sponsor email").fill(uniqueEmail("desk-fan"));
  await fan.getByLabel("Message").fill("Quietly cheering");
  await fan.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(fan).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
  await payWithTestCard(fan);

  await expect(fan.getByRole("heading", { level: 1 })).toHaveText("Thank you for your tip!", { timeout: 30_000 });
  await expect(fan.getByRole("region", { name: "Where you appear" })).toContainText(
    `You kept it private: ${creator.name}'s supporter wall shows “A private supporter”, without your name, message or amount. ${creator.name} still sees them.`,
  );
  expect(await visibleText(fan)).not.toMatch(RAW_ID);
  await expectNoAxeViolations(fan, "thank-you on a desktop");
  await context.close();
});
