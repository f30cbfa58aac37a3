import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { expect, linkIn, signedInAs, signUp, test, uniqueEmail, waitForMail } from "./fixtures";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * The front door and each side's first run, as a person does them: the home page's phones and
 * doors, sign-up with the side chosen, the verification mail, then a creator making their page and
 * working the setup checklist (payouts through the sandbox come back to it), a sponsor browsing
 * creators and posting a brief, and someone with no side choosing one on the home.
 */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PASSWORD = "tidy-harbor-42";
const CHECKLIST = "/app/account/bizbio";

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function fitsAndPasses(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await axeClean(page);
}

/** Signs up from the home page's door for `side`, follows the mail's link, and answers the address. */
async function joinFromHome(page: Page, side: "creator" | "sponsor", name: string): Promise<string> {
  await page.goto("/");
  await page.getByRole("link", { name: `I'm a ${side}` }).first().click();
  await expect(page).toHaveURL(`/signup?type=${side}`);
  await expect(page.getByText(`You're signing up as a ${side}.`)).toBeVisible();
  const email = uniqueEmail(`first-${side}`);
  await signUp(page, { email, password: PASSWORD, name, type: side });
  await expect(page).toHaveURL("/app/verify");
  await page.goto(linkIn(await waitForMail(email, { subject: /Verify your email/ }), "/app/verify"));
  return email;
}

test("the home page shows real pages as themed phones and what a sponsor gets, at 390 px and on a desktop", async ({ page }) => {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.goto("/");
    const hero = page.locator("[data-home-hero-phone]");
    await expect(hero.getByRole("img", { name: /^The bio page of .+ on a phone/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "What a fan sees" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "What a sponsor gets" })).toBeVisible();
    await expect(page.getByRole("list", { name: "A deal, from booking to payout" })).toBeVisible();
    // The demo's featured pages, each in its own theme, each opening the real page.
    const phones = page.getByRole("img", { name: /^The bio page of .+ on a phone/ });
    expect(await phones.count()).toBeGreaterThanOrEqual(2);
    const backgrounds = await phones.evaluateAll((all) => all.map((el) => getComputedStyle(el).backgroundColor));
    expect(new Set(backgrounds).size).toBeGreaterThan(1);
    await expect(page.getByRole("link", { name: "Open Maya Chen | Maya Makes" })).toHaveAttribute("href", `${BIO_ORIGIN}/mayamakes`);
    await expect(page.getByRole("link", { name: "I'm a creator" })).toHaveAttribute("href", "/signup?type=creator");
    await expect(page.getByRole("link", { name: "I'm a sponsor" })).toHaveAttribute("href", "/signup?type=sponsor");
    await fitsAndPasses(page);
  }
});

test("sign-up says which side was chosen and switches to the other", async ({ page }) => {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.goto("/signup?type=creator");
    await expect(page.getByText("You're signing up as a creator.")).toBeVisible();
    await fitsAndPasses(page);
    await page.getByRole("link", { name: "I'm a sponsor instead" }).click();
    await expect(page).toHaveURL("/signup?type=sponsor");
    await expect(page.getByText("You're signing up as a sponsor.")).toBeVisible();
    await page.goto("/signup");
    await expect(page.getByText("Joining as a creator or a sponsor?")).toBeVisible();
  }
});

test("a creator goes from the home page to a page that takes tips: make the page, then the checklist, which payouts come back to", async ({ page }) => {
  // Sign-up, the mail, page creation, the sandbox's onboarding and axe at two sizes.
  test.slow();
  await page.setViewportSize(PHONE);
  await joinFromHome(page, "creator", "First Creator");
  await expect(page).toHaveURL("/app/account/bizbio/new");
  await fitsAndPasses(page);

  const ending = `first_${randomBytes(4).toString("hex")}`;
  await page.getByLabel("Name", { exact: true }).fill("First Page");
  await page.getByLabel("Custom ending").fill(ending);
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page).toHaveURL(CHECKLIST);

  const checklist = page.getByRole("region", { name: "Set up your page" });
  await expect(checklist).toContainText("First Page: 1 of 6 steps done.");
  await fitsAndPasses(page);
  await page.setViewportSize(DESKTOP);
  await fitsAndPasses(page);

  // The home opens with the creator's side and points back to the checklist.
  await page.goto("/app");
  await expect(page.getByRole("region", { name: "Finish setting up First Page" })).toContainText("1 of 6 steps done.");
  await expect(page.getByRole("heading", { level: 1, name: "What would you like to do today?" })).toBeVisible();
  await expect(page.getByText("For sponsors: open sponsorships, by the kind of creator they are for.")).toBeVisible();
  await fitsAndPasses(page);
  await page.getByRole("link", { name: "Continue setup" }).click();
  await expect(page).toHaveURL(CHECKLIST);

  // The photo step's page brings the person back to the checklist, ticked.
  await checklist.getByRole("link", { name: "Add a photo" }).click();
  await page.getByLabel("Profile photo").setInputFiles({
    name: "me.jpg",
    mimeType: "image/jpeg",
    buffer: await sharp({ create: { width: 400, height: 400, channels: 3, background: "#c0392b" } }).jpeg().toBuffer(),
  });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page).toHaveURL(CHECKLIST);
  await expect(checklist.getByRole("heading", { name: "Add a photo Done" })).toBeVisible();
  await expect(checklist).toContainText("2 of 6 steps done.");

  // Without the clipboard, "I've copied it" ticks the step.
  await checklist.getByRole("button", { name: "I've copied it" }).click();
  await expect(checklist.getByRole("heading", { name: "Copy your link Done" })).toBeVisible();
  await expect(checklist).toContainText("3 of 6 steps done.");

  // Payouts through the sandbox come back to the checklist.
  await checklist.getByRole("link", { name: "Connect payouts" }).click();
  await expect(page.getByRole("link", { name: "← Back to your checklist" })).toHaveAttribute("href", CHECKLIST);
  await page.getByRole("button", { name: "Connect with Sandbox" }).click();
  await expect(page).toHaveURL(/\/sandbox\/onboarding\/acct_sbx_/);
  await page.getByRole("textbox", { name: /Legal name/ }).fill("First Creator");
  await page.getByRole("checkbox", { name: /I agree/ }).check();
  await page.getByRole("button", { name: "Agree and continue" }).click();
  await expect(page).toHaveURL(CHECKLIST);
  await expect(checklist.getByRole("heading", { name: "Connect payouts Done" })).toBeVisible();
  await expect(checklist).toContainText("4 of 6 steps done.");
  await expect(page.getByRole("listitem", { name: "First Page", exact: true })).toContainText("Takes tips");

  // The page now takes tips: its support block offers amounts.
  await page.goto(`${BIO_ORIGIN}/${ending}`);
  await expect(page.getByRole("heading", { name: "Support First Page" })).toBeVisible();
});

test("a payout setup's way back is only ever a path of ours", async ({ page }) => {
  await signedInAs(page, { prefix: "first-next", type: "creator" });
  await page.goto(`/app/payments/setup?next=${encodeURIComponent("https://evil.example/")}`);
  await expect(page.getByRole("link", { name: "← My Payments" })).toBeVisible();
  await page.goto(`/app/payments/setup?next=${encodeURIComponent("//evil.example/")}`);
  await expect(page.getByRole("link", { name: "← My Payments" })).toBeVisible();
});

test("a sponsor's first run leads to browsing creators and posting a brief", async ({ page }) => {
  test.slow();
  await joinFromHome(page, "sponsor", "First Sponsor");
  await expect(page).toHaveURL("/app");
  const home = page.getByRole("region", { name: "Find creators for your brand" });
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await expect(home).toBeVisible();
    await fitsAndPasses(page);
  }
  // No creator's setup on a sponsor's home.
  await expect(page.getByRole("region", { name: "Make your page" })).toHaveCount(0);
  await home.getByRole("link", { name: /Browse creators/ }).click();
  await expect(page).toHaveURL("/app/profiles");
  await page.goto("/app");
  await home.getByRole("link", { name: /Post a brief/ }).click();
  await expect(page).toHaveURL("/app/opportunities/new");
});

test("someone with no side chooses one on the home, once", async ({ page }) => {
  await signedInAs(page, { prefix: "first-none", name: "No Side" });
  await page.goto("/app");
  const choice = page.getByRole("region", { name: "How will you use Sponsorgrid?" });
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await expect(choice).toBeVisible();
    await fitsAndPasses(page);
  }
  await choice.getByRole("button", { name: /I'm a creator/ }).click();
  await expect(page).toHaveURL("/app/account/bizbio/new");
  await page.goto("/app");
  await expect(choice).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Make your page" })).toBeVisible();
  await page.goto("/app/account");
  await expect(page.getByRole("region", { name: "Account Info" })).toContainText("Creator");
});
