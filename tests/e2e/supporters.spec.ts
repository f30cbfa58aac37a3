import { parse } from "csv-parse/sync";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import { expect, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * One vocabulary for a creator's money: "Supporters" are the people (and the one list of them),
 * "Earnings" the money. A tip's notification says the amount and who paid, and leads to the
 * payment's row on Supporters, where the name, amount, message, Refund, Info and the CSV are; a
 * supporter who asked to stay private is not named in the notification (it leaves the app by mail
 * and webhooks) but is on the list, marked Private. The header, the home and SPEC's own money
 * screens lead to the same list. Money moves only along the real path (the sandbox's checkout and
 * its webhook, through the test hooks).
 */
const SUPPORTERS = "/app/account/supporters";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function axeClean(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), label).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${label} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** The notification → the payment's row on Supporters, at the size the page has now. */
async function followTheNotification(page: Page, title: string, sessionId: string) {
  await page.goto("/app/notifications");
  const card = page.getByRole("list", { name: "Your notifications" }).getByRole("listitem", { name: title });
  await expect(card).toBeVisible();
  await axeClean(page, "notifications");
  await card.getByRole("link", { name: "See it on Supporters" }).click();
  await expect(page).toHaveURL(`${SUPPORTERS}#payment-${sessionId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Supporters" })).toBeVisible();
}

test("a tip's notification names the supporter and the amount and leads to the one list, with the message, Refund and the CSV", async ({ page }) => {
  // Two paid tips, a refund through its webhook and axe on three screens at two sizes: more than the default minute on two busy cores.
  test.slow();
  const tag = randomBytes(3).toString("hex");
  const fan = `Maya Fan ${tag}`;
  const secret = `Secret Sam ${tag}`;
  await signedInAs(page, { prefix: "supporters", name: "Money Words" });
  const hooks = testHooks(page.request);
  await hooks.paymentsReady();
  const [tip] = (await hooks.sponsorPayments({ paid: 1, amount: 1250, name: fan })).paid;
  const [kept] = (await hooks.sponsorPayments({ paid: 1, amount: 700, name: secret, private: true })).paid;

  // On a phone: the notification says who and how much; its button opens the payment's row.
  await page.setViewportSize(PHONE);
  await followTheNotification(page, `${fan} tipped you $12.50`, tip!);
  const row = page.locator(`#payment-${tip}`);
  await expect(row.getByRole("heading", { name: fan })).toBeVisible();
  await expect(row).toContainText("$12.50");
  await expect(row).toContainText("Thanks for everything #0");
  await expect(row).toContainText("Completed");
  await expect(row.getByRole("button", { name: "Refund", exact: true })).toBeVisible();
  await expect(row.getByRole("link", { name: "Info", exact: true })).toHaveAttribute("href", `/app/account/sponsors/payments/${tip}`);
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", "/app/account/payments/export.csv");
  await expect(page.getByRole("link", { name: "Earnings and payouts" })).toHaveAttribute("href", "/app/account/payments");
  await axeClean(page, "Supporters at 390 px");

  // A private supporter: not named where the notification goes, but named on the list, marked Private.
  await page.goto("/app/notifications");
  const quiet = page.getByRole("list", { name: "Your notifications" }).getByRole("listitem", { name: "A private supporter tipped you $7.00" });
  await expect(quiet).toContainText("their name is on Supporters only");
  await expect(quiet).not.toContainText(secret);
  await quiet.getByRole("link", { name: "See it on Supporters" }).click();
  await expect(page.locator(`#payment-${kept}`).getByRole("heading", { name: `${secret} Private` })).toBeVisible();

  // The phone's menu leads there too.
  await page.getByText("Menu", { exact: true }).click();
  await expect(page.getByRole("navigation", { name: "Main (mobile)" }).getByRole("link", { name: "Supporters" })).toHaveAttribute("href", SUPPORTERS);

  // On a desktop: the same way in, then Refund asks first, with the supporter's name.
  await page.setViewportSize(DESKTOP);
  await followTheNotification(page, `${fan} tipped you $12.50`, tip!);
  await axeClean(page, "Supporters at 1280 px");
  // Hydrated: the button asks on the spot (type "button"), not on a page of its own.
  await expect(row.getByRole("button", { name: "Refund", exact: true })).toHaveAttribute("type", "button");
  await row.getByRole("button", { name: "Refund", exact: true }).click();
  const question = row.getByRole("group", { name: `Are you sure? Refund $12.50 to ${fan}?` });
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await axeClean(page, "the refund question");
  await question.getByRole("button", { name: "Yes, refund" }).click();
  await expect.poll(async () => (await hooks.sponsorSession(tip!)).status, { timeout: 15_000 }).toBe("refunded");
  // The badge follows the provider's webhook (the button's own 'Refunded' is not the badge).
  await expect(row).toContainText("Status: Refunded", { timeout: 15_000 });

  // The export: the supporter's name on the payment's rows, and the refund as its own row.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const text = await fs.readFile((await (await download).path())!, "utf8");
  const [header, ...rows] = parse(text.slice(1)) as string[][];
  const col = (name: string) => header!.indexOf(name);
  const mine = rows.filter((r) => r[col("session_id")] === tip);
  expect(mine.map((r) => [r[col("supporter")], r[col("type")], r[col("gross")]]).sort()).toEqual([
    [fan, "payment", "12.50"],
    [fan, "refund", "-12.50"],
  ]);

  // The header and the home say the same words and lead to the same list.
  await page.goto("/app");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Supporters" })).toHaveAttribute("href", SUPPORTERS);
  const card = page.getByRole("region", { name: "Supporters", exact: true });
  await expect(card.getByRole("link", { name: fan })).toHaveAttribute("href", `${SUPPORTERS}#payment-${tip}`);
  await expect(card.getByRole("link", { name: "All supporters" })).toHaveAttribute("href", SUPPORTERS);
  await expect(page.getByRole("region", { name: "Earnings", exact: true }).getByRole("link", { name: "Earnings and payouts" })).toHaveAttribute("href", "/app/account/payments");

  // SPEC's screens keep their words and link into it.
  await page.goto("/app/account/sponsors");
  await expect(page.getByRole("heading", { level: 1, name: "Sponsors Dashboard" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Supporters", exact: true })).toHaveAttribute("href", SUPPORTERS);
  await page.goto("/app/account/sponsors/payments");
  await expect(page.getByRole("heading", { level: 1, name: "My Sponsorships" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Supporters", exact: true })).toHaveAttribute("href", SUPPORTERS);
  await page.goto("/app/account/payments");
  await expect(page.getByRole("heading", { level: 1, name: "My Payments" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Earnings", exact: true }).getByRole("link", { name: "Supporters", exact: true })).toHaveAttribute("href", SUPPORTERS);
});

test("the list is the signed-in creator's own: another person's payments are not on it", async ({ page }) => {
  await signedInAs(page, { prefix: "supporters-other", name: "Nobody Paid" });
  await page.goto(SUPPORTERS);
  await expect(page.getByText("No supporters yet.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Supporters" })).toHaveCount(0);
});
