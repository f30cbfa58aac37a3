import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, signedInAs, signInAsStaff, test } from "./fixtures";

/**
 * The back office's Deals: two new accounts make a deal through the deal room's pages (a sponsor
 * posts a brief, a creator applies, the sponsor counters and the creator accepts); staff find it
 * by its title and by a party's email, and read every terms version and every move.
 */
const DEALS = "/app/admin/deals";

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** A sponsor's brief, a creator's $900 application, the sponsor's $700 counter and the creator's acceptance, all through the pages. */
async function agreedDeal(browser: Browser, title: string) {
  const sponsor = await otherClient(browser);
  const sponsorAccount = await signedInAs(sponsor.page, { prefix: "deal-sponsor", name: "Northwind Audio", type: "sponsor" });
  await sponsor.page.goto("/app/opportunities/sponsor");
  await sponsor.page.getByRole("link", { name: "Post a brief" }).click();
  await sponsor.page.getByLabel("Title").fill(title);
  await sponsor.page.getByLabel("Organization").fill("Northwind Audio");
  await sponsor.page.getByLabel("Description").fill("Review our new studio headphones in a dedicated video.");
  await sponsor.page.getByLabel("Minimum contribution (US dollars)").fill("750");
  await sponsor.page.getByRole("button", { name: "Post opportunity" }).click();
  await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText(title);
  const postPath = new URL(sponsor.page.url()).pathname;

  const creator = await otherClient(browser);
  const creatorAccount = await signedInAs(creator.page, { prefix: "deal-creator", name: "Priya Plays", type: "creator" });
  await testHooks(creator.page.request).paymentsReady();
  await creator.page.goto(postPath);
  await creator.page.getByRole("link", { name: "Apply" }).click();
  await creator.page.getByLabel("Your pitch").fill("I review audio gear for 80k producers.");
  await creator.page.getByLabel("Channel 1").fill("YouTube");
  await creator.page.getByLabel("What is made 1").fill("A dedicated 8-minute review");
  await creator.page.getByLabel("Due 1").fill("2031-05-01");
  await creator.page.getByLabel("Price (US dollars)").fill("900");
  await creator.page.getByRole("button", { name: "Send application" }).click();
  await expect(creator.page.getByText("Sent. You'll hear when they answer.")).toBeVisible();
  const dealPath = new URL(creator.page.url()).pathname;

  await sponsor.page.goto(dealPath);
  await sponsor.page.getByText("Answer with new terms").click();
  await sponsor.page.getByLabel("Price (US dollars)").fill("700");
  await sponsor.page.getByLabel(/^A message to/).fill("Our budget tops out at $700.");
  await sponsor.page.getByRole("button", { name: "Send new terms" }).click();
  await expect(sponsor.page.getByText("Your terms were sent.")).toBeVisible();

  await creator.page.reload();
  await creator.page.getByRole("button", { name: "Accept $700" }).click();
  await expect(creator.page.getByText("Terms accepted.")).toBeVisible();
  return { sponsor, creator, sponsorEmail: sponsorAccount.email, creatorEmail: creatorAccount.email, dealId: dealPath.split("/").at(-1)! };
}

test("staff find a deal two accounts made, by title and by a party's email, and read its terms versions and every move", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const title = `Studio headphones ${Date.now()}`;
  const deal = await agreedDeal(browser, title);
  await signInAsStaff(page);

  await page.goto("/app/admin");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Deals" }).click();
  await expect(page).toHaveURL(DEALS);
  await expect(page.getByRole("heading", { name: "Deals", level: 1 })).toBeVisible();
  await page.getByLabel("Title or party email").fill(title);
  await page.getByRole("button", { name: "Filter" }).click();
  const deals = page.getByRole("table", { name: "Deals, newest activity first" });
  await expect(deals.getByRole("row")).toHaveCount(1 + 1);
  const row = deals.getByRole("row").nth(1);
  await expect(row).toContainText(deal.creatorEmail);
  await expect(row).toContainText(deal.sponsorEmail);
  await expect(row).toContainText("agreed");
  await expect(row).toContainText("$700.00");
  // The counts per state are the search's: this one deal, agreed.
  const states = page.getByRole("navigation", { name: "Deals by state" });
  await expect(states.getByRole("link", { name: "All (1)" })).toHaveAttribute("aria-current", "page");
  await expect(states.getByRole("link", { name: "agreed (1)" })).toBeVisible();
  await expect(states.getByRole("link", { name: "proposed (0)" })).toBeVisible();
  await axeClean(page);

  // The same deal by the creator's email; none of theirs is declined.
  await page.getByLabel("Title or party email").fill(deal.creatorEmail);
  await page.getByLabel("State", { exact: true }).selectOption("declined");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No deals match these filters.")).toBeVisible();
  await states.getByRole("link", { name: "agreed (1)" }).click();
  await expect(deals.getByRole("row")).toHaveCount(1 + 1);

  await deals.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(`${DEALS}/${deal.dealId}`);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: deal.creatorEmail })).toHaveAttribute("href", /^\/app\/admin\/accounts\/[^/]+$/);
  await expect(page.getByRole("link", { name: deal.sponsorEmail })).toHaveAttribute("href", /^\/app\/admin\/accounts\/[^/]+$/);
  await expect(page.getByText(`Version 2 by ${deal.creatorEmail}`)).toBeVisible();

  const versions = page.getByRole("table", { name: "Terms versions, oldest first" });
  await expect(versions.getByRole("row")).toHaveCount(1 + 2);
  await expect(versions.getByRole("row").nth(1)).toContainText("$900.00");
  await expect(versions.getByRole("row").nth(2)).toContainText("$700.00");
  await expect(versions.getByRole("row").nth(2)).toContainText("Our budget tops out at $700.");

  const activity = page.getByRole("table", { name: "Activity, in order" });
  await expect(activity.getByRole("row")).toHaveCount(1 + 3);
  const moves = [
    [deal.creatorEmail, "(creator)", "application", "— → proposed", "1"],
    [deal.sponsorEmail, "(sponsor)", "counter", "proposed → proposed", "2"],
    [deal.creatorEmail, "(creator)", "accept", "proposed → agreed", "2"],
  ];
  for (const [i, words] of moves.entries()) {
    const move = activity.getByRole("row").nth(i + 1);
    for (const word of words) await expect(move).toContainText(word);
    // The network each move came from is kept, as the request's address.
    await expect(move.getByRole("cell").last()).toHaveText(/(\d{1,3}\.){3}\d{1,3}|:[0-9a-f]*:/i);
  }
  await axeClean(page);

  // Staff open a party's account page from the deal.
  await page.getByRole("link", { name: deal.sponsorEmail }).click();
  await expect(page).toHaveURL(/\/app\/admin\/accounts\/[^/]+$/);
  await expect(page.getByRole("definition").filter({ hasText: deal.sponsorEmail })).toBeVisible();
  await Promise.all([deal.creator.context.close(), deal.sponsor.context.close()]);
});

test("someone who is not staff gets the site's 404 from the deals pages, even a party to the deal; a guest is sent to sign in", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const deal = await agreedDeal(browser, `Refused deal ${Date.now()}`);
  for (const client of [deal.creator.page, deal.sponsor.page]) {
    for (const path of [DEALS, `${DEALS}/${deal.dealId}`, `${DEALS}?q=${encodeURIComponent(deal.creatorEmail)}`]) {
      const response = await client.goto(path);
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 });
    }
    await expect(client.getByRole("navigation", { name: "Back office" })).toHaveCount(0);
  }
  await Promise.all([deal.creator.context.close(), deal.sponsor.context.close()]);
  await page.goto(`${DEALS}/${deal.dealId}`);
  await expect(page).toHaveURL(/\/signin\?/);
});
