import { parse } from "csv-parse/sync";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import { DEMO, expect, signedInAs, signIn, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * A creator's side of taking money: whether each page can, the setup checklist until it can, the
 * home with earnings, views, link and supporters, the header's "My page" and "Supporters", the CSV
 * of received payments checked against the ledger to the cent, and Refund asking first. Every test
 * but the demo's signs up its own verified person; money moves only along the real path (the
 * sandbox's checkout and its webhook, through the test hooks).
 */
const BIO_DASHBOARD = "/app/account/bizbio";
const MY_PAYMENTS = "/app/account/payments";
const SUPPORTERS = "/app/account/supporters";
const SPONSORS = "/app/account/sponsors";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function verifiedUser(page: Page, name = "Home Creator"): Promise<string> {
  const { email } = await signedInAs(page, { prefix: "home", name });
  return email;
}

/** A page made through the form's own endpoint; answers its id from the dashboard's Edit link. */
async function createPage(page: Page, name: string): Promise<{ id: string; ending: string }> {
  const ending = `home_${randomBytes(4).toString("hex")}`;
  const response = await page.request.post(`${BIO_DASHBOARD}/new`, {
    data: new URLSearchParams([["name", name], ["customEnding", ending], ["blurb", "Tips welcome."]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto(BIO_DASHBOARD);
  const href = await page.getByRole("listitem", { name, exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href");
  return { id: href!.replace("/edit/", ""), ending };
}

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** axe and no sideways scrolling, on a phone and on a desktop. */
async function fitsAndPasses(page: Page, path: string) {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.goto(path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await axeClean(page);
  }
}

/** "$1,234.56" or "-$0.50" → minor units. */
const cents = (text: string) => {
  const match = /(-?)\$([\d,]+)\.(\d\d)/.exec(text);
  if (!match) throw new Error(`No amount in ${text}`);
  const value = Number(match[2]!.replaceAll(",", "")) * 100 + Number(match[3]);
  return match[1] ? -value : value;
};

/** "25.00" or "-0.50" → minor units, exactly. */
const decimalCents = (text: string) => {
  const negative = text.startsWith("-");
  const [whole, frac] = text.replace("-", "").split(".");
  const value = Number(whole) * 100 + Number(frac);
  return negative ? -value : value;
};



test("a new creator sees the checklist until payouts are connected through the sandbox; then the page takes tips", async ({ page, context }) => {
  // Sign-up, onboarding and axe on two screens at two sizes: more than the default minute on two busy cores.
  test.slow();
  await verifiedUser(page);
  await page.goto("/app");
  const main = page.getByRole("navigation", { name: "Main" });
  // No page yet: "My page" leads to the dashboard of pages, and there is nothing to earn from.
  await expect(main.getByRole("link", { name: "My page" })).toHaveAttribute("href", BIO_DASHBOARD);
  await expect(main.getByRole("link", { name: "Supporters" })).toHaveCount(0);
  await expect(page.locator("[data-creator-home]")).toHaveCount(0);

  const { id, ending } = await createPage(page, "Tip Jar");
  await page.goto(BIO_DASHBOARD);
  const row = page.getByRole("listitem", { name: "Tip Jar", exact: true });
  await expect(row).toContainText("Can't take money yet: connect payouts");
  await expect(row.getByRole("link", { name: "connect payouts for Tip Jar" })).toHaveAttribute("href", "/app/payments/setup");

  const checklist = page.getByRole("region", { name: "Set up your page" });
  await expect(checklist).toBeVisible();
  await expect(checklist).toContainText("Tip Jar: 1 of 6 steps done.");
  const steps = checklist.getByRole("listitem").filter({ has: page.getByRole("heading") });
  await expect(steps).toHaveCount(6);
  await expect(steps.nth(0).getByRole("heading", { name: "Add a photo (to do)" })).toBeVisible();
  await expect(steps.nth(0).getByRole("link", { name: "Add a photo" })).toHaveAttribute("href", "/app/account/photo?returnTo=%2Fapp%2Faccount%2Fbizbio");
  await expect(steps.nth(1).getByRole("heading", { name: "Choose a theme (to do)" })).toBeVisible();
  await expect(steps.nth(1).getByRole("link", { name: "Choose a theme" })).toHaveAttribute("href", `/edit/${id}#look`);
  await expect(steps.nth(2).getByRole("heading", { name: "Connect payouts (to do)" })).toBeVisible();
  await expect(steps.nth(3).getByRole("heading", { name: "Turn on tips Done" })).toBeVisible();
  await expect(steps.nth(3).getByRole("link", { name: "Tip settings" })).toHaveAttribute("href", `/edit/${id}#support`);
  await expect(steps.nth(4).getByRole("heading", { name: "Copy your link (to do)" })).toBeVisible();
  await expect(steps.nth(4).getByRole("textbox", { name: "Address of Tip Jar" })).toHaveValue(`${BIO_ORIGIN}/${ending}`);
  await expect(steps.nth(4).getByRole("img", { name: `QR code for ${BIO_ORIGIN}/${ending}` })).toBeVisible();
  await expect(steps.nth(5).getByRole("heading", { name: "Share it (to do)" })).toBeVisible();

  // Copy puts the address on the clipboard and says so.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await steps.nth(4).getByRole("button", { name: "Copy address of tip jar" }).click();
  await expect(steps.nth(4).getByRole("status")).toHaveText("Copied!");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BIO_ORIGIN}/${ending}`);
  // The copy ticks its step, and it stays ticked: the checklist stays while other steps are to do.
  await expect(steps.nth(4).getByRole("heading", { name: "Copy your link Done" })).toBeVisible();
  await page.reload();
  await expect(steps.nth(4).getByRole("heading", { name: "Copy your link Done" })).toBeVisible();

  // The header: the only page's editor, and Supporters now that there is a page.
  await expect(main.getByRole("link", { name: "My page" })).toHaveAttribute("href", `/edit/${id}`);
  await expect(main.getByRole("link", { name: "Supporters" })).toHaveAttribute("href", SUPPORTERS);
  await fitsAndPasses(page, BIO_DASHBOARD);
  // On a phone the two links are in the menu.
  await page.setViewportSize(PHONE);
  await page.getByText("Menu", { exact: true }).click();
  await expect(page.getByRole("navigation", { name: "Main (mobile)" }).getByRole("link", { name: "Supporters" })).toBeVisible();

  // The home points to the checklist too, above SPEC's own heading and cards.
  await page.setViewportSize(DESKTOP);
  await page.goto("/app");
  await expect(page.getByRole("region", { name: "Finish setting up Tip Jar" })).toContainText("2 of 6 steps done.");
  await expect(page.getByRole("link", { name: "Continue setup" })).toHaveAttribute("href", BIO_DASHBOARD);
  await expect(page.getByRole("heading", { level: 1, name: "What would you like to do today?" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Collect Tips" }).first()).toBeAttached();
  await fitsAndPasses(page, "/app");

  // Step 1 through the sandbox's onboarding, as a person does it.
  await page.goto(BIO_DASHBOARD);
  await checklist.getByRole("link", { name: "Connect payouts" }).click();
  await expect(page).toHaveURL("/app/payments/setup?next=%2Fapp%2Faccount%2Fbizbio");
  await page.getByRole("button", { name: "Connect with Sandbox" }).click();
  await expect(page).toHaveURL(/\/sandbox\/onboarding\/acct_sbx_/);
  await page.getByRole("textbox", { name: /Legal name/ }).fill("Home Creator");
  await page.getByRole("checkbox", { name: /I agree/ }).check();
  await page.getByRole("button", { name: "Agree and continue" }).click();
  // Back on the checklist, not My Payments: the step is ticked and the rest still wait.
  await expect(page).toHaveURL(BIO_DASHBOARD);
  await expect(steps.nth(2).getByRole("heading", { name: "Connect payouts Done" })).toBeVisible();
  await expect(checklist).toContainText("3 of 6 steps done.");
  await expect(row).toContainText("Takes tips");
  await expect(row).not.toContainText("Can't take money yet");
  await page.goto("/app");
  await expect(page.getByRole("heading", { name: /^Next step/ })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Your link" })).toContainText("Takes tips");
});

test("the home shows earnings after tips; the CSV matches the ledger to the cent; Refund asks first", async ({ page }) => {
  test.slow();
  await verifiedUser(page, "Earning Creator");
  const hooks = testHooks(page.request);
  await hooks.paymentsReady();
  const made = await hooks.sponsorPayments({ paid: 2, amount: 500 });

  await page.goto("/app");
  const earnings = page.getByRole("region", { name: "Earnings", exact: true });
  const home = async () => ({ month: cents(await earnings.locator("dt", { hasText: "This month" }).locator("xpath=following-sibling::dd[1]").innerText()) });
  const before = await home();
  expect(before.month).toBeGreaterThan(0);
  expect(before.month).toBeLessThanOrEqual(1000);
  await expect(earnings.locator('svg[data-chart="earnings"]')).toHaveAttribute("aria-label", /What you received per month over the last 12 months, in USD/);
  await earnings.getByText("Show as table").click();
  await expect(earnings.getByRole("table")).toContainText(new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date()));
  const supporters = page.getByRole("list", { name: "Latest supporters" });
  await expect(supporters.getByRole("listitem")).toHaveCount(2);
  await expect(supporters.getByRole("listitem").first()).toContainText("No name given");
  await expect(supporters.getByRole("listitem").first()).toContainText("$5.00");
  await expect(supporters).toContainText("Thanks for everything #1");
  await expect(page.getByRole("region", { name: "Page views" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your link" }).getByRole("textbox")).toHaveValue(`${BIO_ORIGIN}/${made.ending}`);
  await fitsAndPasses(page, "/app");

  // Refund asks first, on the Sponsors Dashboard: the amount and who gets it back.
  await page.goto(SPONSORS);
  const refunded = made.paid[0]!;
  const rowOf = page.getByRole("list", { name: "Recent sponsors" }).getByRole("listitem").filter({ has: page.locator(`a[href$="/payments/${refunded}"]`) });
  // Hydrated: the button asks on the spot (type "button"); before that it is the no-JavaScript
  // form's submit, which asks on a page of its own, and a busy machine can be that slow.
  await expect(rowOf.getByRole("button", { name: "Refund", exact: true })).toHaveAttribute("type", "button");
  await rowOf.getByRole("button", { name: "Refund", exact: true }).click();
  const question = rowOf.getByRole("group", { name: /^Are you sure\? Refund \$5\.00 to fan-.+@sponsor\.example\?$/ });
  await expect(question).toBeVisible();
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await axeClean(page);
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toHaveCount(0);
  expect(await hooks.sponsorSession(refunded)).toMatchObject({ status: "completed", refundRequest: null });
  await rowOf.getByRole("button", { name: "Refund", exact: true }).click();
  await question.getByRole("button", { name: "Yes, refund" }).click();
  await expect.poll(async () => (await hooks.sponsorSession(refunded)).status, { timeout: 15_000 }).toBe("refunded");

  // The home subtracts the refund in this month.
  await page.goto("/app");
  const after = await home();
  expect(after.month).toBeLessThan(before.month);
  await expect(page.getByRole("list", { name: "Latest supporters" })).toContainText("(refunded)");

  // My Payments' Earnings, and the CSV it offers: each money column sums to them, to the cent.
  await page.goto(MY_PAYMENTS);
  const received = page.getByRole("region", { name: "Earnings", exact: true });
  const figure = async (term: string) => cents(await received.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd[1]").innerText());
  const shown = { gross: await figure("Supporters paid (gross)"), fee: await figure("platform fee"), net: await figure("You receive (net)") };
  expect(shown.net).toBe(after.month);
  const download = page.waitForEvent("download");
  await received.getByRole("link", { name: "Download CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^payments-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await fs.readFile((await file.path())!, "utf8");
  expect(text.startsWith("\uFEFF")).toBe(true);
  const [header, ...rows] = parse(text.slice(1)) as string[][];
  expect(header).toEqual(["date", "supporter", "email", "private", "kind", "type", "currency", "gross", "fee", "net", "status", "session_id", "checkout_session_id", "payment_intent_id", "provider_reference", "message", "deal_id"]);
  const col = (name: string) => header!.indexOf(name);
  const sum = (name: string) => rows.reduce((total, r) => total + decimalCents(r[col(name)]!), 0);
  expect({ gross: sum("gross"), fee: sum("fee"), net: sum("net") }).toEqual(shown);
  // One row per ledger entry: two payments and the refund, whose entries the ledger holds.
  expect(rows.map((r) => r[col("type")]).sort()).toEqual(["payment", "payment", "refund"]);
  let ledgerGross = 0;
  for (const sessionId of made.paid) {
    const state = await hooks.sponsorSession(sessionId);
    ledgerGross += state.entries.reduce((total, e) => total + e.gross, 0);
    const mine = rows.filter((r) => r[col("session_id")] === sessionId);
    expect(mine.map((r) => decimalCents(r[col("gross")]!)).sort()).toEqual(state.entries.map((e) => e.gross).sort());
    for (const r of mine) {
      expect(r[col("checkout_session_id")]).not.toBe("");
      expect(r[col("payment_intent_id")]).not.toBe("");
      expect(r[col("currency")]).toBe("USD");
    }
  }
  expect(sum("gross")).toBe(ledgerGross);
  expect(rows.find((r) => r[col("type")] === "refund")![col("gross")]).toBe("-5.00");
  await fitsAndPasses(page, MY_PAYMENTS);
});

test("the demo creator's pages take tips out of the box after seeding", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  await expect(page.getByRole("heading", { name: /^Next step/ })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Your link" })).toContainText("Takes tips");
  await page.goto(BIO_DASHBOARD);
  // Her pages take money; the checklist still offers the steps that make a page known (photo, share).
  const checklist = page.getByRole("region", { name: "Set up your page" });
  await expect(checklist.getByRole("heading", { name: "Connect payouts Done" })).toBeVisible();
  await expect(checklist.getByRole("heading", { name: "Turn on tips Done" })).toBeVisible();
  const rows = page.getByRole("list", { name: "Your bio pages" }).getByRole("listitem");
  expect(await rows.count()).toBeGreaterThan(0);
  for (const row of await rows.all()) await expect(row).toContainText("Takes tips");
  // The public page offers to pay her: a way to checkout, with no JavaScript.
  await page.goto(`${BIO_ORIGIN}/mayamakes`);
  await expect(page.locator('a[href*="/app/payments/checkout"], form[action*="/app/payments/checkout"]').first()).toBeAttached();
});
