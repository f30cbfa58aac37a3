import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { E2E_TEST_ROUTES_SECRET, TEST_ROUTES_SECRET_HEADER } from "#tests/support/e2e-secret";
import { expect, signedInAs, signUp, test, uniqueEmail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The sponsor directory (ADR 0022) and /app/profiles. Every test
 * signs up its own people; Pro is set through the test-only hook `setPro`
 * (buying it is the Pro spec's business), and companies through
 * `addSponsors` (tests/support/test-hooks-client.ts) with a random prefix and tag of this test's own, so other
 * specs' companies never change what a search here shows.
 */
const EMPTY = "Sorry, we couldn't find any sponsors matching your search criteria.";
/**
 * The preview list, whichever companies it holds: the seeded sample companies leave the directory
 * once any real company exists (which other specs of the same run may add at any moment), so no
 * test here counts on one of them.
 */
const PREVIEW_LIST = 'aria-label="Sponsor previews"';
/** A company the sponsors test hook adds (unique() prefix, two-digit number). */
const TEST_COMPANY = /^zz[a-j]{8} \d\d$/;
const PHONE = { width: 375, height: 812 };

function unique(): string {
  return `zz${randomBytes(4).toString("hex").replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)]!)}`;
}

/** Signed in; `verify`: with a verified email (the test hook), else through the sign-up form only, still unverified. */
async function signedUp(page: Page, verify: boolean): Promise<void> {
  if (verify) {
    await signedInAs(page, { prefix: "directory", name: "Directory Reader" });
    return;
  }
  await signUp(page, { email: uniqueEmail("directory"), password: "tidy-harbor-42", name: "Directory Reader" });
  await expect(page).toHaveURL("/app/verify");
}

async function addCompanies(page: Page, count: number): Promise<{ prefix: string; tag: string; companies: { id: string; name: string }[] }> {
  const prefix = unique();
  const tag = `${prefix} tag`;
  return { prefix, tag, companies: await testHooks(page.request).addSponsors({ prefix, tag, count }) };
}

async function makePro(page: Page, pro = true): Promise<void> {
  await testHooks(page.request).setPro(pro);
}

/** Status and Location of a read without following redirects, with the page's cookies. */
async function read(page: Page, path: string): Promise<{ status: number; location: string | undefined; body: string }> {
  const response = await page.request.get(path, { maxRedirects: 0 });
  return { status: response.status(), location: response.headers()["location"], body: await response.text() };
}

const cards = (page: Page) => page.getByRole("list", { name: "Sponsors" }).getByRole("heading", { level: 3 });

test("every gated read, as guest and unverified", async ({ page }) => {
  test.setTimeout(90_000);
  const { prefix, tag, companies } = await addCompanies(page, 3);
  const list = `/app/sponsors?tags[]=${encodeURIComponent(tag)}&name=${prefix}`;
  const detail = `/app/sponsors/${companies[0]!.id}`;

  const blurb = `${companies[0]!.name} sponsors creators in the end-to-end suite.`;

  // Guest: the list explains and sends to sign in; the preview sample is open, with no blurb; the rest needs an account.
  let r = await read(page, list);
  expect(r.status).toBe(200);
  expect(r.body).toContain("Sign Up");
  expect(r.body).not.toContain(companies[0]!.name);
  r = await read(page, "/app/sponsors/previews");
  expect(r.status).toBe(200);
  expect(r.body).toContain(PREVIEW_LIST);
  expect(r.body).not.toContain(blurb);
  expect(r.body).not.toContain(`https://${prefix}-`);
  expect(r.body).toContain('href="/signup?redirectTo=%2Fapp%2Fsponsors%2Fpreviews"');
  for (const path of ["/app/sponsors/recent", detail]) {
    r = await read(page, path);
    expect(r.status, path).toBe(302);
    expect(r.location, path).toBe(`/signin?redirectTo=${encodeURIComponent(path)}`);
  }

  // Unverified: a prompt to verify and no company on the list; the sample stays open; the rest sends to /app/verify.
  await signedUp(page, false);
  r = await read(page, list);
  expect(r.status).toBe(200);
  expect(r.body).toContain("needs a verified email address");
  expect(r.body).not.toContain(companies[0]!.name);
  r = await read(page, "/app/sponsors/previews");
  expect(r.status).toBe(200);
  expect(r.body).toContain(PREVIEW_LIST);
  expect(r.body).not.toContain(blurb);
  expect(r.body).toContain('href="/app/verify"');
  for (const path of ["/app/sponsors/recent", detail]) {
    r = await read(page, path);
    expect(r.location, path).toBe("/app/verify");
  }
});

test("a guest browses the preview sample, sample companies said once and never on a card, with a way to sign up and sign in", async ({ page }) => {
  await page.goto("/app/sponsors");
  await page.getByRole("link", { name: "Browse a sample of the directory" }).click();
  await expect(page).toHaveURL("/app/sponsors/previews");
  await expect(page).toHaveTitle("Sponsor previews | Sponsorgrid");
  const previews = page.getByRole("list", { name: "Sponsor previews" });
  await expect(previews.getByRole("listitem").first().getByRole("heading", { level: 3 })).toBeVisible();
  await expect(previews.getByText(/sample compan/i)).toHaveCount(0);
  expect(await page.getByTestId("sample-notice").count()).toBeLessThanOrEqual(1);
  await expect(page.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup?redirectTo=%2Fapp%2Fsponsors%2Fpreviews");
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In", exact: true })).toHaveAttribute("href", "/signin?redirectTo=%2Fapp%2Fsponsors%2Fpreviews");
  // Public and indexable (SPEC §2.1), unlike the Pro pages beside it.
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/app\/sponsors\/previews$/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.getByRole("link", { name: "Sign Up" }).click();
  await expect(page).toHaveURL("/signup?redirectTo=%2Fapp%2Fsponsors%2Fpreviews");
});

test("Recently Added shows a company added after the seed first", async ({ page }) => {
  await signedUp(page, true);
  await makePro(page);
  const { companies } = await addCompanies(page, 2);
  await page.goto("/app/sponsors/recent");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recently Added Sponsors");
  await expect(cards(page)).toHaveCount(10);
  const names = await cards(page).allTextContents();
  // The hook dates its companies now, one millisecond apart: the second is the newest. Only other
  // tests' companies, added at the same moment by the other worker, may come before it.
  const newest = names.indexOf(companies[1]!.name);
  expect(newest, names.join(", ")).toBeGreaterThanOrEqual(0);
  expect(names[newest + 1]).toBe(companies[0]!.name);
  for (const earlier of names.slice(0, newest)) expect(earlier).toMatch(TEST_COMPANY);
  await expect(page.getByText(/^Added /).first()).toBeVisible();
});

test("every gated read, as non-Pro and Pro: the same addresses", async ({ page }) => {
  test.setTimeout(90_000);
  const { prefix, tag, companies } = await addCompanies(page, 3);
  const secret = `${companies[2]!.name} sponsors creators in the end-to-end suite.`;
  const searches = ["/app/sponsors", `/app/sponsors?tags[]=${encodeURIComponent(tag)}`, `/app/sponsors?name=${prefix}`, `/app/sponsors?tags[]=${encodeURIComponent(tag)}&name=${prefix}&page=1`];
  const detail = `/app/sponsors/${companies[2]!.id}`;
  await signedUp(page, true);

  // Verified, not Pro: previews whatever the address asks, never a blurb; recents and details go to /app/pro.
  for (const path of searches) {
    const r = await read(page, path);
    expect(r.status, path).toBe(200);
    expect(r.body, path).not.toContain(secret);
    expect(r.body, path).toContain("Become a Pro");
  }
  expect((await read(page, "/app/sponsors/previews")).status).toBe(200);
  expect((await read(page, "/app/sponsors/recent")).location).toBe("/app/pro?returnTo=%2Fapp%2Fsponsors%2Frecent");
  expect((await read(page, detail)).location).toBe(`/app/pro?returnTo=${encodeURIComponent(detail)}`);

  // Pro: the same addresses answer with blurbs.
  await makePro(page);
  for (const path of searches.slice(1)) {
    const r = await read(page, path);
    expect(r.status, path).toBe(200);
    expect(r.body, path).toContain(secret);
  }
  expect((await read(page, "/app/sponsors/previews")).status).toBe(200);
  expect((await read(page, "/app/sponsors/recent")).status).toBe(200);
  const shown = await read(page, detail);
  expect(shown.status).toBe(200);
  expect(shown.body).toContain(secret);
  expect((await read(page, "/app/sponsors/nobody-here")).status).toBe(404);

  // Pro ends: the blurbs are gone at once.
  await makePro(page, false);
  expect((await read(page, searches[1]!)).body).not.toContain(secret);
});

test("a guest is told what the directory is and comes back after signing up", async ({ page }) => {
  await page.goto("/app/sponsors");
  await expect(page).toHaveTitle("Sponsors | Sponsorgrid");
  await expect(page.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup?redirectTo=%2Fapp%2Fsponsors");
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In", exact: true })).toHaveAttribute("href", "/signin?redirectTo=%2Fapp%2Fsponsors");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("without Pro: previews, a tag click only explains Pro, recents go to the Pro page", async ({ page }) => {
  const { tag } = await addCompanies(page, 2);
  await signedUp(page, true);
  await page.goto("/app/sponsors");
  await expect(page.getByRole("list", { name: "Sponsor previews" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Become a Pro" })).toBeVisible();

  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: tag, exact: true }).click();
  const notice = page.locator("#pro-notice");
  await expect(notice).toContainText("Search by tag is for Pro members.");
  await expect(notice.getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute("href", "/app/pro?returnTo=%2Fapp%2Fsponsors");
  await expect(page).toHaveURL("/app/sponsors");

  await page.getByLabel("Company name").fill("acme");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(notice).toContainText("Search by name is for Pro members.");
  await expect(page).toHaveURL("/app/sponsors");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.getByRole("link", { name: "Recently Added" }).click();
  await expect(page).toHaveURL("/app/pro?returnTo=%2Fapp%2Fsponsors%2Frecent");
});

test("Pro: tag and name search live in the address, page 10 at a time, and open a company", async ({ page }) => {
  const { prefix, tag, companies } = await addCompanies(page, 25);
  await signedUp(page, true);
  await makePro(page);
  await page.goto("/app/sponsors");

  await page.getByRole("list", { name: "Sponsor tags" }).getByRole("link", { name: tag, exact: true }).click();
  await expect(page).toHaveURL(`/app/sponsors?${new URLSearchParams([["tags[]", tag]])}`);
  await expect(cards(page)).toHaveCount(10);
  await expect(cards(page).first()).toHaveText(companies[0]!.name);

  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page.getByText("Page 2")).toBeVisible();
  await expect(cards(page).first()).toHaveText(companies[10]!.name);
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(cards(page)).toHaveCount(5);
  await expect(page.getByRole("link", { name: "Next →" })).toHaveCount(0);
  await page.reload();
  await expect(cards(page).first()).toHaveText(companies[20]!.name);
  await page.goBack();
  await expect(cards(page).first()).toHaveText(companies[10]!.name);
  await page.goForward();
  await expect(cards(page).first()).toHaveText(companies[20]!.name);

  // A name search keeps the tag and starts again at page 1.
  await page.getByLabel("Company name").fill(`${prefix.toUpperCase()} 1`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`/app/sponsors?${new URLSearchParams([["tags[]", tag], ["name", `${prefix.toUpperCase()} 1`]])}`);
  await expect(cards(page)).toHaveText(companies.slice(9, 19).map((c) => c.name));
  await page.reload();
  await expect(cards(page)).toHaveCount(10);
  await expect(page.getByLabel("Company name")).toHaveValue(`${prefix.toUpperCase()} 1`);

  await page.getByLabel("Company name").fill(`${prefix} nothing`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText(EMPTY)).toBeVisible();
  await page.goBack();
  await expect(cards(page)).toHaveCount(10);

  const company = companies[9]!;
  await page.getByRole("link", { name: `Details of ${company.name}` }).click();
  await expect(page).toHaveURL(`/app/sponsors/${company.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(company.name);
  await expect(page).toHaveTitle(`${company.name} | Sponsorgrid`);
  await expect(page.getByRole("heading", { name: "How to apply" })).toBeVisible();
  await expect(page.getByRole("link", { name: `Apply on ${company.name}'s site` })).toHaveAttribute("rel", /noopener/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.goto("/app/sponsors/recent");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recently Added Sponsors");
  await expect(cards(page)).toHaveCount(10);
});

test("Pro on a phone: the list fits 375 px and passes axe", async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE, extraHTTPHeaders: { "X-Forwarded-For": `127.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`, [TEST_ROUTES_SECRET_HEADER]: E2E_TEST_ROUTES_SECRET } });
  const page = await context.newPage();
  const { tag } = await addCompanies(page, 12);
  await signedUp(page, true);
  await makePro(page);
  await page.goto(`/app/sponsors?${new URLSearchParams([["tags[]", tag]])}`);
  await expect(cards(page)).toHaveCount(10);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await context.close();
});

test("a guest searches /app/profiles and opens a bio page card", async ({ page }) => {
  await page.goto("/app/profiles");
  await expect(page).toHaveTitle("Profiles | Sponsorgrid");
  await page.getByLabel("Search by name").fill("northwind");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL("/app/profiles?name=northwind");
  const card = page.getByRole("link", { name: "Northwind Audio" });
  await expect(card).toHaveAttribute("href", /\/northwind_audio$/);
  await page.getByLabel("Search by name").fill("no such creator anywhere");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No profiles match “no such creator anywhere”.")).toBeVisible();
  await page.setViewportSize(PHONE);
  await page.goto("/app/profiles");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});
