import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, signedInAs, signInAsStaff, test } from "./fixtures";

/**
 * The back office's Memberships: a creator has members in several statuses (written by a test
 * hook: the one writer makes them only from the sandbox's truth); staff open the list from the
 * back office's navigation, find the newest first with each one's tier, page, member, amount and
 * status, keep to one status, and read the creator's memberships on their account's page.
 */
const MEMBERSHIPS = "/app/admin/memberships";

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("staff list every membership newest first, keep to one status, and see a creator's memberships on their account", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const creator = await otherClient(browser);
  const account = await signedInAs(creator.page, { prefix: "members-creator", name: "Maya Members", type: "creator" });
  const tier = `Gold ${Date.now()}`;
  const made = await testHooks(creator.page.request).staffMemberships({ statuses: ["active", "past_due", "cancelled", "active"], tier, amount: 700 });
  await signInAsStaff(page);

  await page.goto("/app/admin");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Memberships" }).click();
  await expect(page).toHaveURL(MEMBERSHIPS);
  await expect(page.getByRole("heading", { name: "Memberships", level: 1 })).toBeVisible();

  const table = page.getByRole("table", { name: "Memberships, newest first" });
  // Newest first: ours in the reverse of the order they were made (other specs' memberships may sit between).
  await expect(table.getByRole("row").filter({ hasText: made.memberships[0]!.memberEmail })).toHaveCount(1);
  const texts = await table.getByRole("row").allInnerTexts();
  const places = made.memberships.map((m) => texts.findIndex((text) => text.includes(m.memberEmail)));
  expect(places.every((place) => place > 0)).toBe(true);
  expect([...places].sort((a, b) => b - a)).toEqual(places);
  const newest = made.memberships.at(-1)!;
  const firstRow = table.getByRole("row").filter({ hasText: newest.memberEmail });
  await expect(firstRow).toContainText(newest.memberEmail);
  await expect(firstRow).toContainText(tier);
  await expect(firstRow).toContainText(`/${made.pageEnding}`);
  await expect(firstRow).toContainText(account.email);
  await expect(firstRow).toContainText("$7.00 / month");
  await expect(firstRow).toContainText("Active");
  for (const membership of made.memberships) await expect(table.getByRole("row").filter({ hasText: membership.memberEmail })).toHaveCount(1);
  await axeClean(page);

  // Only the past-due ones.
  await page.getByRole("navigation", { name: "Memberships by status" }).getByRole("link", { name: /^Past due \(retrying\) \(\d+\)$/ }).click();
  await expect(page).toHaveURL(`${MEMBERSHIPS}?status=past_due`);
  const pastDue = made.memberships.find((m) => m.status === "past_due")!;
  await expect(table.getByRole("row").filter({ hasText: pastDue.memberEmail })).toContainText("Past due (retrying)");
  for (const other of made.memberships.filter((m) => m.status !== "past_due")) await expect(table.getByRole("row").filter({ hasText: other.memberEmail })).toHaveCount(0);

  // The creator's account page counts their memberships and what renews each month: two active and one past due at $7.00.
  await page.goto(`/app/admin/accounts?q=${encodeURIComponent(account.email)}`);
  await page.getByRole("link", { name: account.email }).first().click();
  await expect(page.getByRole("heading", { name: "Memberships of their pages" })).toBeVisible();
  await expect(page.getByTestId("membership-counts")).toContainText("Active2");
  await expect(page.getByTestId("membership-counts")).toContainText("Past due (retrying)1");
  await expect(page.getByTestId("membership-counts")).toContainText("Cancelled (runs to period end)1");
  await expect(page.getByTestId("membership-mrr")).toContainText(": $21");
  await expect(page.getByText("They are not a member of any page.")).toBeVisible();
  await axeClean(page);
});
