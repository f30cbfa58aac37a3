import AxeBuilder from "@axe-core/playwright";
import { devices, type APIRequestContext, type Page } from "@playwright/test";
import { randomBytes, randomInt } from "node:crypto";
import { expect, shownFor, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_HOST, BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * The owner's side of bio pages: dashboard, form, delete, no-JS,
 * forged posts. Every test signs up its own verified person: no other spec
 * reads their pages. The public page itself is the bio host's (its own spec);
 * here only its address is checked.
 */
const DASHBOARD = "/app/account/bizbio";
const HTTP = "URL must start with either http:// or https://";

async function verifiedUser(page: Page): Promise<string> {
  const { email } = await signedInAs(page, { prefix: "bio", name: "Bio Owner" });
  return email;
}

const ending = (prefix: string) => `${prefix}_${randomBytes(4).toString("hex")}`;

/** Posts a form as the signed-in browser would, repeated fields included. */
function postForm(request: APIRequestContext, path: string, fields: [string, string][]) {
  return request.post(path, {
    data: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
}

/** Creates a page through the form's own endpoint; returns its id from the dashboard's Edit link. */
async function createPage(page: Page, fields: { name: string; customEnding: string; links?: [string, string][] }): Promise<string> {
  const body: [string, string][] = [["name", fields.name], ["customEnding", fields.customEnding], ["blurb", "About me."]];
  for (const [type, url] of fields.links ?? []) body.push(["linkType", type], ["linkUrl", url]);
  const response = await postForm(page.request, `${DASHBOARD}/new`, body);
  expect(response.status()).toBe(302);
  expect(response.headers().location).toBe(DASHBOARD);
  await page.goto(DASHBOARD);
  const href = await rowOf(page, fields.name).getByRole("link", { name: /^Edit/ }).getAttribute("href");
  return href!.replace("/edit/", "");
}

const rowOf = (page: Page, name: string) => page.getByRole("listitem", { name, exact: true });

test("creates a page with links, showing every validation message beside its field", async ({ page }) => {
  await verifiedUser(page);
  await page.goto(DASHBOARD);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your Pages");
  await expect(page.getByText("You don't have any bio pages yet.")).toBeVisible();
  await page.getByRole("link", { name: "Create your first page" }).click();
  await expect(page).toHaveURL(`${DASHBOARD}/new`);
  await expect(page.getByText(`${BIO_HOST}/`, { exact: true })).toBeVisible();

  const about = page.getByLabel("About");
  await page.getByLabel("Custom ending").fill("Maya-Makes");
  await about.fill("b".repeat(1000));
  await page.getByLabel("Link 1 type").selectOption("youtube");
  await page.getByLabel("Link 1 address").fill("ftp://youtube.com/@maya");
  await page.getByRole("button", { name: "Add link" }).click();
  await expect(page.getByLabel("Link 2 type")).toBeFocused();
  await page.getByLabel("Link 2 type").selectOption("patreon");
  await page.getByLabel("Link 2 address").fill("https://evil.example/patreon.com/maya");
  await page.getByRole("button", { name: "Add link" }).click();
  await page.getByLabel("Link 3 type").selectOption("instagram");
  await page.getByLabel("Link 3 address").fill("JavaScript:alert(1)");
  await page.getByRole("button", { name: "Add link" }).click();
  await page.getByLabel("Link 4 type").selectOption("website");
  await page.getByLabel("Link 4 address").fill("maya.example");
  // With JavaScript a type already used can't be chosen twice.
  await expect(page.getByLabel("Link 4 type").locator("option[value=youtube]")).toBeDisabled();
  await page.getByRole("button", { name: "Create page" }).click();

  const name = page.getByLabel("Name");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#field-name-error")).toHaveText("Required");
  await expect(page.locator("#field-customEnding-error")).toHaveText("You may only use lowercase letters, numbers, and underscore");
  await expect(page.locator("#field-blurb-error")).toHaveText("Must be under 1000 characters");
  await expect(page.locator("#link-error-0")).toHaveText(`${HTTP} and be on youtube.com or youtu.be`);
  await expect(page.locator("#link-error-1")).toHaveText(`${HTTP} and be on patreon.com`);
  await expect(page.locator("#link-error-2")).toHaveText(`${HTTP} and be on instagram.com`);
  await expect(page.locator("#link-error-3")).toHaveText(HTTP);
  await expect(page.getByLabel("Link 1 address")).toHaveAttribute("aria-describedby", "link-error-0");
  await expect(page.getByRole("alert").filter({ hasText: "Please correct these 7 fields" })).toBeVisible();
  // What was typed is still there.
  await expect(page.getByLabel("Custom ending")).toHaveValue("Maya-Makes");
  await expect(page.getByLabel("Link 3 address")).toHaveValue("JavaScript:alert(1)");
  await expect(about).toHaveValue("b".repeat(1000));

  await name.fill("n".repeat(100));
  await page.getByLabel("Custom ending").fill("mayamakes"); // a seeded demo page has it
  await about.fill("I make videos about making things.");
  await page.getByLabel("Link 1 address").fill("https://www.youtube.com/@maya");
  await page.getByLabel("Link 2 address").fill("https://www.patreon.com/maya");
  await page.getByRole("button", { name: "Remove link 3" }).click();
  await page.getByLabel("Link 3 address").fill("https://maya.example");
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.locator("#field-name-error")).toHaveText("Must be under 100 characters");
  await expect(page.locator("#field-customEnding-error")).toHaveText("This URL is already taken");
  await page.getByLabel("Custom ending").fill("admin");
  await page.getByLabel("Name").fill("Maya Makes Things");
  await page.getByRole("button", { name: "Create page" }).click();
  // The answer to this round: the name is fine now (the ending's message was already on screen).
  await expect(page.locator("#field-name-error")).toHaveCount(0);
  await expect(page.getByLabel("Custom ending")).toHaveValue("admin");
  await expect(page.locator("#field-customEnding-error")).toHaveText("This URL is already taken");

  const mine = ending("maya");
  await page.getByLabel("Custom ending").fill(mine);
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page).toHaveURL(DASHBOARD);
  await expect(page.getByRole("status").filter({ hasText: `Your page is live at ${BIO_HOST}/${mine}.` })).toBeVisible();
  const row = rowOf(page, "Maya Makes Things");
  await expect(row).toContainText(`${BIO_HOST}/${mine}`);
  await expect(row).toContainText("Views0");
  // `?saved`: the bio host answers the owner as of their last save, whichever process answers (ADR 0046).
  await expect(row.getByRole("link", { name: /^View/ })).toHaveAttribute("href", `${BIO_ORIGIN}/${mine}?saved`);
  await expect(row.getByRole("link", { name: /^View/ })).toHaveAttribute("target", "_blank");
  const editHref = await row.getByRole("link", { name: /^Edit/ }).getAttribute("href");
  expect(editHref).toMatch(/^\/edit\/[A-Za-z0-9_]+$/);
  await expect(row.getByRole("link", { name: /^Insights/ })).toHaveAttribute("href", `${DASHBOARD}/${editHref!.slice(6)}/insights`);
});

test("edit keeps the ending read-only and saves; both edit addresses reach the same form", async ({ page }) => {
  await verifiedUser(page);
  const mine = ending("edit");
  const id = await createPage(page, { name: "Before", customEnding: mine, links: [["twitch", "https://twitch.tv/before"]] });

  await rowOf(page, "Before").getByRole("link", { name: /^Edit/ }).click();
  await expect(page).toHaveURL(`/edit/${id}`);
  const field = page.getByLabel("Custom ending");
  await expect(field).toHaveValue(mine);
  await expect(field).toHaveAttribute("readonly", "");
  await expect(page.getByRole("link", { name: `${BIO_HOST}/${mine}` })).toHaveAttribute("href", `${BIO_ORIGIN}/${mine}?saved`);
  await expect(page.getByLabel("Link 1 address")).toHaveValue("https://twitch.tv/before");

  await page.getByLabel("Name").fill("After");
  await page.getByRole("button", { name: "Add link" }).click();
  await page.getByLabel("Link 2 type").selectOption("youtube");
  await page.getByLabel("Link 2 address").fill("https://youtu.be/after");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(DASHBOARD);
  await expect(page.getByRole("status").filter({ hasText: `Your changes to ${BIO_HOST}/${mine} were saved.` })).toBeVisible();
  await expect(rowOf(page, "After")).toContainText(`${BIO_HOST}/${mine}`);

  await page.goto(`${DASHBOARD}/edit?page=${id}`);
  await expect(page.getByLabel("Name")).toHaveValue("After");
  await expect(page.getByLabel("Custom ending")).toHaveValue(mine);
  await expect(page.getByLabel("Link 2 address")).toHaveValue("https://youtu.be/after");
  // The legacy address lands on the new form.
  await page.goto("/app/bizbio/new");
  await expect(page).toHaveURL(`${DASHBOARD}/new`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New bio page");
});

test("a signed-out visitor sees the new page on the bio host, each visitor adds a view, and an edit shows on the next visit", async ({ page, browser }) => {
  await verifiedUser(page);
  const mine = ending("live");
  const id = await createPage(page, {
    name: "Live Page",
    customEnding: mine,
    links: [["youtube", "https://www.youtube.com/@livepage"], ["website", "https://live.example/shop"]],
  });

  // Another browser, as a stranger who followed the link: no session, a person's User-Agent (so it counts),
  // and an address of its own (one client network counts one view per page per half hour).
  const fromOwnAddress = () => ({ "X-Forwarded-For": `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}` });
  const stranger = await browser.newContext({ ...devices["Desktop Chrome"], extraHTTPHeaders: fromOwnAddress() });
  const visitor = await stranger.newPage();
  for (let visit = 0; visit < 3; visit++) expect((await visitor.goto(`${BIO_ORIGIN}/${mine}`))!.status()).toBe(200);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Live Page");
  await expect(visitor.getByText("About me.")).toBeVisible();
  await expect(visitor.getByRole("link", { name: /YouTube/ })).toHaveAttribute("href", `/${mine}/go/youtube`);
  await expect(visitor.getByRole("link", { name: /Website/ })).toContainText("live.example/shop");
  expect(await stranger.cookies()).toEqual([]);
  // A second visitor, from elsewhere.
  const other = await browser.newContext({ ...devices["Desktop Chrome"], extraHTTPHeaders: fromOwnAddress() });
  expect((await (await other.newPage()).goto(`${BIO_ORIGIN}/${mine}`))!.status()).toBe(200);
  await other.close();

  // Views are written within a second; the owner's dashboard shows one per visitor: the stranger's three visits are one.
  await expect
    .poll(async () => {
      await page.goto(DASHBOARD);
      return rowOf(page, "Live Page").textContent();
    })
    .toContain("Views2");

  const saved = await postForm(page.request, `/edit/${id}`, [["name", "Live Page, renamed"], ["customEnding", mine], ["blurb", "New about text."], ["linkType", "website"], ["linkUrl", "https://live.example/shop"]]);
  expect(saved.status()).toBe(302);
  await visitor.reload();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Live Page, renamed");
  await expect(visitor.getByText("New about text.")).toBeVisible();
  await expect(visitor.getByRole("link", { name: /YouTube/ })).toHaveCount(0);
  await stranger.close();
});

test("delete: No keeps the page; Yes shows Done! for 2 s, then the row and its address are gone", async ({ page }) => {
  await page.clock.install();
  await verifiedUser(page);
  const kept = ending("kept");
  const doomed = ending("doomed");
  await createPage(page, { name: "Kept page", customEnding: kept });
  await createPage(page, { name: "Doomed page", customEnding: doomed });

  const row = rowOf(page, "Doomed page");
  await row.getByRole("link", { name: /^Delete/ }).click();
  await expect(row.getByText("Are you sure? This can't be undone.")).toBeVisible();
  await expect(row.getByRole("link", { name: /^No/ })).toBeFocused();
  await row.getByRole("link", { name: /^No/ }).click();
  await expect(row.getByText("Are you sure?")).toHaveCount(0);
  await expect(row.getByRole("link", { name: /^Delete/ })).toBeFocused();
  await expect(page).toHaveURL(DASHBOARD);

  await row.getByRole("link", { name: /^Delete/ }).click();
  await page.clock.pauseAt(Date.now() + 60_000);
  await row.getByRole("button", { name: /^Yes/ }).click();
  await shownFor(page, row.getByText("Done!"), 2_000);
  await expect(row).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Your Pages" })).toBeFocused();
  await expect(rowOf(page, "Kept page")).toBeVisible();

  await page.reload();
  await expect(rowOf(page, "Doomed page")).toHaveCount(0);
  await expect(rowOf(page, "Kept page")).toBeVisible();
  // The bio host answers 404 for the deleted ending (Chromium resolves *.localhost to this machine).
  const gone = await page.goto(`${BIO_ORIGIN}/${doomed}`);
  expect(gone?.status()).toBe(404);
});

test("without JavaScript: links are added and removed by the server, the page is created and deleted", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  await verifiedUser(page);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, extraHTTPHeaders, storageState: await page.context().storageState() });
  const plain = await context.newPage();
  await plain.goto(`${DASHBOARD}/new`);
  await plain.getByLabel("Name").fill("No script");
  const mine = ending("nojs");
  await plain.getByLabel("Custom ending").fill(mine);
  await plain.getByLabel("Link 1 type").selectOption("youtube");
  await plain.getByLabel("Link 1 address").fill("https://youtube.com/@noscript");
  await plain.getByRole("button", { name: "Add link" }).click();
  await expect(plain.getByLabel("Link 2 type")).toBeVisible();
  // The server re-rendered the form with what was typed, and saved nothing.
  await expect(plain.getByLabel("Name")).toHaveValue("No script");
  await expect(plain.getByLabel("Link 1 address")).toHaveValue("https://youtube.com/@noscript");
  await plain.getByLabel("Link 2 type").selectOption("twitch");
  await plain.getByLabel("Link 2 address").fill("https://twitch.tv/noscript");
  await plain.getByRole("button", { name: "Add link" }).click();
  await plain.getByLabel("Link 3 type").selectOption("website");
  await plain.getByLabel("Link 3 address").fill("https://noscript.example");
  await plain.getByRole("button", { name: "Remove link 2" }).click();
  await expect(plain.getByLabel("Link 3 type")).toHaveCount(0);
  await expect(plain.getByLabel("Link 2 address")).toHaveValue("https://noscript.example");
  // Enter in a text field saves: it doesn't press the first row's Remove.
  await plain.getByLabel("Name").press("Enter");
  await expect(plain).toHaveURL(DASHBOARD);
  await expect(plain.getByText(`Your page is live at ${BIO_HOST}/${mine}.`)).toBeVisible();

  const row = rowOf(plain, "No script");
  // SPEC's /app/account/bizbio/delete address, opened as a link, asks the same question on the dashboard.
  const id = (await row.getByRole("link", { name: /^Edit/ }).getAttribute("href"))!.replace("/edit/", "");
  await plain.goto(`${DASHBOARD}/delete?page=${id}`);
  await expect(plain).toHaveURL(`${DASHBOARD}?confirm=${id}`);
  await expect(row.getByText("Are you sure? This can't be undone.")).toBeVisible();
  await plain.goto(DASHBOARD);
  await row.getByRole("link", { name: /^Delete/ }).click();
  await expect(plain).toHaveURL(new RegExp(`${DASHBOARD}\\?confirm=`));
  await expect(row.getByText("Are you sure? This can't be undone.")).toBeVisible();
  await row.getByRole("link", { name: /^No/ }).click();
  await expect(row.getByRole("link", { name: /^Delete/ })).toBeVisible();
  await row.getByRole("link", { name: /^Delete/ }).click();
  await row.getByRole("button", { name: /^Yes/ }).click();
  await expect(plain).toHaveURL(DASHBOARD);
  await expect(plain.getByText(`Deleted ${BIO_HOST}/${mine}.`)).toBeVisible();
  await expect(plain.getByText("You don't have any bio pages yet.")).toBeVisible();
  await context.close();
});

test("forged posts get a 4xx with a clear message and change nothing", async ({ page }) => {
  await verifiedUser(page);
  const mine = ending("forged");
  const id = await createPage(page, { name: "Target", customEnding: mine, links: [["youtube", "https://youtube.com/@target"]] });
  const snapshot = async () => (await (await page.request.get(`${DASHBOARD}/edit?page=${id}`)).text()).replace(/nonce="[^"]*"/g, "");
  const demoCard = async () => (await (await page.request.get("/featured")).text()).includes(`${BIO_HOST}/mayamakes`);
  const before = await snapshot();
  expect(await demoCard()).toBe(true);

  const valid: [string, string][] = [["name", "Target"], ["blurb", "About me."]];
  const links = (rows: [string, string][]) => rows.flatMap(([type, url]): [string, string][] => [["linkType", type], ["linkUrl", url]]);
  const editPath = `${DASHBOARD}/edit?page=${id}`;
  const types = ["amazon", "facebook", "instagram", "linkedin", "patreon", "pinterest", "reddit", "store", "tiktok", "twitch", "website"];
  const hosts: Record<string, string> = { amazon: "amazon.com", facebook: "facebook.com", instagram: "instagram.com", linkedin: "linkedin.com", patreon: "patreon.com", pinterest: "pinterest.com", reddit: "reddit.com", store: "shop.example", tiktok: "tiktok.com", twitch: "twitch.tv", website: "site.example" };
  const cases: { what: string; path: string; fields: [string, string][]; status: number; message: string }[] = [
    { what: "someone else's page", path: `${DASHBOARD}/edit?page=demo_page_mayamakes`, fields: [...valid, ["name", "Hijacked"]], status: 404, message: "" },
    { what: "someone else's page (short address)", path: "/edit/demo_page_mayamakes", fields: valid, status: 404, message: "" },
    { what: "11 links", path: editPath, fields: [...valid, ...links(types.map((t) => [t, `https://${hosts[t]}/x`]))], status: 400, message: "You can add at most 10 links" },
    { what: "duplicate types", path: editPath, fields: [...valid, ...links([["youtube", "https://youtube.com/a"], ["youtube", "https://youtube.com/b"]])], status: 400, message: "You already have a YouTube link: one link per type" },
    { what: "an unknown type", path: editPath, fields: [...valid, ...links([["myspace", "https://myspace.com/x"]])], status: 400, message: "Unknown link type" },
    { what: "javascript:", path: editPath, fields: [...valid, ...links([["website", "javascript:alert(document.cookie)"]])], status: 400, message: HTTP },
    { what: "JAVASCRIPT: with a tab", path: editPath, fields: [...valid, ...links([["website", "JAVA\tSCRIPT:alert(1)"]])], status: 400, message: HTTP },
    { what: "percent-encoded javascript:", path: editPath, fields: [...valid, ...links([["website", "%6Aavascript:alert(1)"]])], status: 400, message: HTTP },
    { what: "data:", path: editPath, fields: [...valid, ...links([["website", "data:text/html,<script>alert(1)</script>"]])], status: 400, message: HTTP },
    { what: "vbscript:", path: editPath, fields: [...valid, ...links([["website", "VBScript:msgbox(1)"]])], status: 400, message: HTTP },
    { what: "a 100-character name", path: editPath, fields: [["name", "n".repeat(100)]], status: 400, message: "Must be under 100 characters" },
    { what: "a 1000-character about", path: editPath, fields: [["name", "Target"], ["blurb", "b".repeat(1000)]], status: 400, message: "Must be under 1000 characters" },
    { what: "a field past the form cap", path: editPath, fields: [["name", "Target"], ["blurb", "b".repeat(30_000)]], status: 400, message: "longer than 20,000 characters" },
    { what: "an ending change", path: editPath, fields: [...valid, ["customEnding", ending("moved")]], status: 400, message: "The custom ending is permanent and can't be changed" },
    { what: "someone else's post as a sponsorship", path: editPath, fields: [...valid, ["sponsorship", "1700000000_notMine"]], status: 400, message: "Set up payments before you offer sponsorship options" },
  ];
  for (const forged of cases) {
    const response = await postForm(page.request, forged.path, forged.fields);
    expect(response.status(), forged.what).toBe(forged.status);
    if (forged.message) expect(await response.text(), forged.what).toContain(forged.message.replace(/'/g, "&#x27;"));
  }
  const deleteOther = await postForm(page.request, `${DASHBOARD}/delete`, [["pageId", "demo_page_mayamakes"]]);
  expect(deleteOther.status()).toBe(404);
  const deleteFetcher = await postForm(page.request, `${DASHBOARD}/delete`, [["pageId", "demo_page_mayamakes"], ["via", "fetcher"]]);
  expect(deleteFetcher.status()).toBe(404);
  expect(await snapshot()).toBe(before);
  expect(await demoCard()).toBe(true);

  // With payments on, the picker offers the person's own posts (none yet) and still refuses anyone else's.
  await page.goto(editPath);
  await expect(page.getByText("Sponsorship options let visitors pay you")).toBeVisible();
  await expect(page.getByRole("link", { name: "set up payments" })).toHaveAttribute("href", "/app/payments/setup");
  await testHooks(page.request).setPaymentsEnabled(true);
  await page.goto(editPath);
  await expect(page.getByText("You haven't posted any opportunities yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Post an opportunity" })).toHaveAttribute("href", "/app/opportunities/new");
  const demoPost = (await (await page.request.get("/app/opportunities")).text()).match(/href="\/app\/opportunities\/(\d{10}_[A-Za-z0-9_-]+)"/)![1]!;
  const notOwn = await postForm(page.request, editPath, [...valid, ["sponsorship", demoPost]]);
  expect(notOwn.status()).toBe(400);
  expect(await notOwn.text()).toContain("You can only offer your own opportunities as sponsorship options");
});

test("on a 375px phone neither the dashboard nor the form scrolls sideways, and axe finds nothing", async ({ page }) => {
  await verifiedUser(page);
  await createPage(page, { name: "A page with quite a long name to see how it wraps on a phone", customEnding: ending("a_rather_long_custom_ending_for_a_phone"), links: [["youtube", "https://youtube.com/@x"]] });
  await page.setViewportSize({ width: 375, height: 740 });
  const noSideScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.goto(DASHBOARD);
  await noSideScroll();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await rowOf(page, "A page with quite a long name to see how it wraps on a phone").getByRole("link", { name: /^Delete/ }).click();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.goto(`${DASHBOARD}/new`);
  await noSideScroll();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.locator("#field-name-error")).toHaveText("Required");
  await noSideScroll();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.goto(DASHBOARD);
  await page.getByRole("link", { name: /^Edit/ }).first().click();
  await noSideScroll();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("featured bio pages on /featured and the home page's phones open the pages on the bio host", async ({ page }) => {
  await page.goto("/featured");
  const section = page.getByRole("region", { name: "Featured bio pages" });
  const card = section.getByRole("listitem").filter({ hasText: `${BIO_HOST}/mayamakes` });
  await expect(card.getByRole("link")).toHaveAttribute("href", `${BIO_ORIGIN}/mayamakes`);
  await expect(card).toContainText("Links: YouTube");
  await page.goto("/");
  await expect(page.getByRole("img", { name: /^The bio page of Maya Chen \| Maya Makes on a phone/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open Maya Chen | Maya Makes" })).toHaveAttribute("href", `${BIO_ORIGIN}/mayamakes`);
});
