import { parse } from "csv-parse/sync";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import fs from "node:fs/promises";
import { expect, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The creator sees who stays: Members shows how many run now, the monthly recurring revenue, who
 * joined and left this month, twelve months of members as a chart with its table, the list by tier
 * and state with filters that are plain links, each paid period's Refund (the Supporters one), the
 * CSV of what is shown, and a member's Cancel with a message. The home's card leads there.
 * Memberships are seeded by the `creator-members` hook; the paid periods are real sandbox payments.
 */
const MEMBERS = "/app/members";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function axeClean(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), label).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${label} scrolls sideways`).toBeLessThanOrEqual(0);
}

test("a creator's members: figures, the dated chart and its table, filters, the CSV, a period's refund and a member's cancel", async ({ page }) => {
  test.slow();
  await signedInAs(page, { prefix: "members", name: "Maya Members", type: "creator" });
  const hooks = testHooks(page.request);
  await hooks.paymentsReady();
  const seeded = await hooks.creatorMembers();
  const { names } = seeded;

  // The home's card: members now (Ada, Bea, Cy past due, Di with paid time left), the revenue and who joined this month.
  await page.setViewportSize(PHONE);
  await page.goto("/app");
  const card = page.getByRole("region", { name: "Members", exact: true });
  // $5.00 + $100.00 / 12 = $8.33 + $5.00 + $10.00.
  await expect(card.locator("[data-members-running]")).toHaveText("4");
  await expect(card.locator("[data-members-mrr]")).toHaveText("$28.33");
  await card.getByRole("link", { name: "All members" }).click();
  await expect(page).toHaveURL(MEMBERS);

  // On a phone: the figures, the chart with dated axes, and its table.
  await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  const now = page.getByRole("region", { name: "Now" });
  await expect(now).toContainText("Members4");
  await expect(now).toContainText("Monthly recurring revenue$28.33");
  await expect(now).toContainText("New this month1");
  const chart = page.locator('svg[data-chart="members"]');
  await expect(chart).toHaveAttribute("role", "img");
  await expect(chart).toHaveAttribute("aria-label", /^Members at the end of each month from /);
  await expect(chart.locator("rect[data-month]")).toHaveCount(12);
  await page.getByText("Show as table").first().click();
  const table = page.getByRole("table", { name: /Members per month/ });
  await expect(table.getByRole("row")).toHaveCount(13);
  await expect(table.getByRole("row").nth(1).getByRole("cell").first()).toHaveText("4");
  await axeClean(page, "Members at 390 px");

  // The list by tier then state; a private member is named, marked Private.
  const bronze = page.getByRole("region", { name: "Bronze" });
  const gold = page.getByRole("region", { name: "Gold" });
  await expect(bronze.getByRole("list", { name: "Bronze: Active" })).toContainText(names.ada);
  await expect(bronze.getByRole("list", { name: "Bronze: Past due" })).toContainText(names.cy);
  await expect(bronze.getByRole("list", { name: "Bronze: Ended" })).toContainText(names.ed);
  await expect(gold.getByRole("list", { name: "Gold: Active" })).toContainText(`${names.bea}Private`);
  await expect(gold.getByRole("list", { name: "Gold: Cancelled" })).toContainText(names.di);
  const bea = page.locator(`#member-${seeded.members.bea}`);
  await expect(bea).toContainText("$100.00 /year");

  // Filters are links: by state, then by tier too.
  const filters = page.getByRole("navigation", { name: "Filter members" });
  await filters.getByRole("link", { name: "Active (2)" }).click();
  await expect(page).toHaveURL(`${MEMBERS}?state=active`);
  await expect(page.locator("[data-member]")).toHaveCount(2);
  await filters.getByRole("link", { name: /^Bronze/ }).click();
  await expect(page).toHaveURL(`${MEMBERS}?tier=${seeded.tiers.bronze}&state=active`);
  await expect(page.locator("[data-member]")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", `/app/members.csv?tier=${seeded.tiers.bronze}&state=active`);

  // On a desktop: every member, the CSV of them all.
  await page.setViewportSize(DESKTOP);
  await page.goto(MEMBERS);
  await axeClean(page, "Members at 1280 px");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const text = await fs.readFile((await (await download).path())!, "utf8");
  const rows = parse(text.slice(1), { columns: true }) as Record<string, string>[];
  expect(rows.map((r) => [r.name, r.tier, r.state, r.amount, r.monthly_amount]).sort()).toEqual(
    [
      [names.ada, "Bronze", "active", "5.00", "5.00"],
      [names.bea, "Gold", "active", "100.00", "8.33"],
      [names.cy, "Bronze", "past_due", "5.00", "5.00"],
      [names.di, "Gold", "cancelled", "10.00", "10.00"],
      [names.ed, "Bronze", "ended", "5.00", "5.00"],
    ].sort(),
  );
  expect(rows.find((r) => r.name === names.ada)!.paid_periods).toBe("2");

  // A paid period's Refund is the one every payment has: it asks first, then the sandbox refunds it.
  const ada = page.locator(`#member-${seeded.members.ada}`);
  await ada.getByText("Paid periods (2)").click();
  const period = ada.locator(`[data-period="${seeded.periods[1]}"]`);
  await period.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(ada.getByText(`Are you sure? Refund $5.00 to ${names.ada}?`)).toBeVisible();
  await ada.getByRole("button", { name: "Yes, refund" }).click();
  await expect.poll(async () => (await hooks.sponsorSession(seeded.periods[1]!)).status, { timeout: 15_000 }).toBe("refunded");
  await expect(period).toContainText("Status: Refunded", { timeout: 15_000 });

  // Cancel asks on a page of its own, with an optional message; a message too long is refused beside it.
  await ada.getByRole("link", { name: "Cancel membership" }).click();
  await expect(page).toHaveURL(`${MEMBERS}/${seeded.members.ada}/cancel`);
  await expect(page.getByRole("heading", { name: `End ${names.ada}’s membership now?` })).toBeVisible();
  await axeClean(page, "the cancel question");
  await page.getByRole("link", { name: "Keep it" }).click();
  await expect(page).toHaveURL(`${MEMBERS}#member-${seeded.members.ada}`);
});

test("a creator with no tier is told what members are and where to add tiers; the list is only their own", async ({ page }) => {
  await signedInAs(page, { prefix: "members-none", name: "No Tiers Yet", type: "creator" });
  await page.goto(MEMBERS);
  await expect(page.getByRole("heading", { name: "No members yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add membership tiers to your page" })).toHaveAttribute("href", "/app/account/bizbio/new");
  // Someone else's member or page is not found, as one that does not exist.
  expect((await page.request.get("/app/members/mem_nobody/cancel")).status()).toBe(404);
  expect((await page.request.get("/app/members.csv?bioPage=not_mine")).status()).toBe(404);
  const csv = await page.request.get("/app/members.csv");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
});
