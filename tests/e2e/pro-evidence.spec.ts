import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { E2E_TEST_ROUTES_SECRET } from "#tests/support/e2e-secret";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, ownClientHeaders, signedInAs, signInAsStaff, test } from "./fixtures";

/**
 * Pro sold with evidence, to the people it serves: a creator sees on /app/pro how many companies
 * the directory holds, how many arrived this month, and one company with the facts Pro reveals
 * drawn locked (their values never in the page); a sponsor is never sold a directory of sponsors;
 * and the invented sample companies a fresh deployment ships leave every page once staff add a
 * real one. Each at 390 px and on a desktop, with axe.
 */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const unique = () => `zz${randomBytes(4).toString("hex").replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)]!)}`;

/** Axe finds nothing and nothing runs wider than the screen, on a phone and on a desktop. */
async function fitsAndPassesAxe(page: Page, step: string) {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${step} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
    expect((await new AxeBuilder({ page }).analyze()).violations, `${step} at ${viewport.width}`).toEqual([]);
  }
}

/** Links to the Pro page (not /app/profiles, which shares its start). */
const proLinks = (page: Page) => page.locator('main a[href="/app/pro"], main a[href^="/app/pro?"]');

const number = (text: string | null) => Number((text ?? "").replace(/,/g, ""));

test("a creator sees on the Pro page how many companies Pro opens, how many arrived this month, and one company with its facts locked", async ({ page }) => {
  const prefix = unique();
  await testHooks(page.request).addSponsors({ prefix, tag: `${prefix} tag`, count: 3 });
  await signedInAs(page, { prefix: "evidence", name: "Creator Person", type: "creator" });
  await page.setViewportSize(PHONE);
  const response = await page.goto("/app/pro");
  const html = (await response!.text()) ?? "";

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Become a Pro!");
  await expect(page.getByText("Choose one of the plans below")).toBeVisible();
  await expect(page.getByRole("heading", { name: "What Pro unlocks" })).toBeVisible();
  // Real counts: at least this test's three companies, all added this month (the hook dates them now).
  const companies = number(await page.getByTestId("directory-companies").textContent());
  const added = number(await page.getByTestId("directory-added-this-month").textContent());
  expect(added).toBeGreaterThanOrEqual(3);
  expect(companies).toBeGreaterThanOrEqual(added);
  await expect(page.getByText("companies in the directory", { exact: true })).toBeVisible();
  await expect(page.getByText("added this month", { exact: true })).toBeVisible();

  // One company as a non-Pro reader sees it, and what Pro adds, locked.
  const card = page.getByRole("article").filter({ hasText: "A company as you see it now" });
  await expect(card.getByRole("heading", { level: 3 })).toBeVisible();
  for (const fact of ["About the company", "Website", "How to apply"]) await expect(card.getByText(fact, { exact: true })).toBeVisible();
  await expect(card.getByText("Pro only").first()).toBeVisible();
  // The locked facts never reach the page: none of the test companies' blurbs, websites or ways to apply.
  for (const secret of ["sponsors creators in the end-to-end suite", "https://zz", "Through their creator program."]) expect(html).not.toContain(secret);

  // The yearly saving, worked out from the prices: $15 a year against 12 × $2.
  const starPower = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Star Power" }) });
  await expect(starPower).toContainText("$15 per year");
  await expect(starPower).toContainText("37% less than twelve months of Launchpad.");
  await expect(page.getByText(/eight months/)).toHaveCount(0);
  await fitsAndPassesAxe(page, "Pro page");
});

test("a sponsor is not sold the sponsor directory: no upgrade prompt on the directory, and the Pro page says Pro is for creators", async ({ page }) => {
  const prefix = unique();
  const tag = `${prefix} tag`;
  await testHooks(page.request).addSponsors({ prefix, tag, count: 2 });
  await signedInAs(page, { prefix: "evidence-sponsor", name: "Sponsor Person", type: "sponsor" });

  await page.goto("/app/sponsors");
  await expect(page.getByRole("list", { name: "Sponsor previews" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Looking for creators?" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Become a Pro" })).toHaveCount(0);
  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: tag, exact: true }).click();
  const notice = page.locator("#pro-notice");
  await expect(notice).toContainText("Search by tag is for Pro members. Pro is made for creators looking for sponsors");
  await expect(proLinks(page)).toHaveCount(0);
  await fitsAndPassesAxe(page, "directory");

  await page.goto("/app/sponsors/previews");
  await expect(page.getByRole("heading", { name: "Looking for creators?" })).toBeVisible();
  await expect(proLinks(page)).toHaveCount(0);

  // Asked for by address, the plans stay (SPEC), with the truth about them first and no sales pitch.
  await page.goto("/app/pro");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Become a Pro!");
  await expect(page.getByRole("heading", { name: "Pro is made for creators" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What Pro unlocks" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Choose Launchpad" })).toBeVisible();
  await fitsAndPassesAxe(page, "Pro page");

  await page.goto("/app/account");
  await expect(page.getByTestId("pro-status")).toHaveText("Not a Pro member: Pro is made for creators looking for sponsors.");
});

test.describe("on a deployment of its own", () => {
  // A fresh server and database: the shared run's directory already has real companies.
  let dataDir: string;
  let server: ServerProcess | undefined;
  test.beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-e2e-samples-"));
  });
  test.afterEach(async () => {
    await server?.stop("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function clientOf(browser: Browser, url: string): Promise<Page> {
    const context = await browser.newContext({ baseURL: url, extraHTTPHeaders: ownClientHeaders() });
    return context.newPage();
  }

  test("the sample companies are said once while they are all there is, and leave every page once staff add a real company", async ({ browser }) => {
    test.setTimeout(240_000);
    server = await startServerProcess(
      { DATA_DIR: dataDir, ENABLE_TEST_ROUTES: "true", TEST_ROUTES_SECRET: E2E_TEST_ROUTES_SECRET, TRUST_PROXY: "1", ALTCHA_MAX_NUMBER: "1000" },
      { startTimeoutMs: 180_000 },
    );
    const creator = await clientOf(browser, server.url);
    await signedInAs(creator, { prefix: "samples", name: "Creator Person", type: "creator" });

    // Fresh: the shipped sample catalogue, said once above the list, never on a card.
    await creator.goto("/app/sponsors/previews");
    await expect(creator.getByTestId("sample-notice")).toHaveCount(1);
    await expect(creator.getByTestId("sample-notice")).toContainText("These are sample companies");
    await expect(creator.getByRole("list", { name: "Sponsor previews" }).getByRole("heading", { name: "Burrowlight VPN" })).toBeVisible();
    await expect(creator.getByRole("list", { name: "Sponsor previews" }).getByText(/sample compan/i)).toHaveCount(0);
    await fitsAndPassesAxe(creator, "previews with samples");
    await creator.goto("/app/pro");
    await expect(creator.getByText("sample companies in the directory", { exact: true })).toBeVisible();
    await expect(creator.getByTestId("directory-companies")).toHaveText("150");
    await expect(creator.getByTestId("sample-notice")).toHaveCount(1);
    await fitsAndPassesAxe(creator, "Pro page with samples");

    // Staff add a real company in the back office.
    const staff = await clientOf(browser, server.url);
    await signInAsStaff(staff);
    const name = `Real ${unique()}`;
    await staff.goto("/app/admin/sponsors/new");
    await staff.getByLabel("Name", { exact: true }).fill(name);
    await staff.getByLabel("Website", { exact: true }).fill("https://real-company.example");
    await staff.getByLabel("Blurb", { exact: true }).fill(`${name} sponsors tech reviewers and tutorial channels with integrated reads and discount codes.`);
    await staff.getByLabel("How to apply", { exact: true }).fill("Apply through the creator form on the company's own site.");
    await staff.getByLabel("Source", { exact: true }).fill("https://press.example/real-company");
    await staff.getByRole("checkbox", { name: "vpn" }).check();
    await staff.getByRole("button", { name: "Add company" }).click();
    await expect(staff.getByText(`Added ${name}.`)).toBeVisible();

    // The samples are gone from every reader's page; the real company stands in the preview.
    await creator.goto("/app/sponsors/previews");
    const previews = creator.getByRole("list", { name: "Sponsor previews" });
    await expect(previews.getByRole("heading", { name })).toBeVisible();
    await expect(previews.getByRole("heading", { name: "Burrowlight VPN" })).toHaveCount(0);
    await expect(creator.getByTestId("sample-notice")).toHaveCount(0);
    await fitsAndPassesAxe(creator, "previews without samples");
    await creator.goto("/app/pro");
    await expect(creator.getByTestId("directory-companies")).toHaveText("1");
    await expect(creator.getByText("company in the directory", { exact: true })).toBeVisible();
    await expect(creator.getByTestId("directory-added-this-month")).toHaveText("1");
    await expect(creator.getByRole("article").getByRole("heading", { name })).toBeVisible();
    await expect(creator.getByTestId("sample-notice")).toHaveCount(0);
    await fitsAndPassesAxe(creator, "Pro page without samples");
  });
});
