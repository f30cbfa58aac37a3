import { expect, test, type Browser, type Page } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";

// Guest pages answered from memory (server/platform/page-cache/): the same bytes as a render, headers
// right, never stale after a change, never a signed-in person's page. Each test starts its own
// server processes (PGlite; and two processes on one PostgreSQL database when DATABASE_URL is
// set, as in CI), so they run one at a time.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const SPONSOR = { email: "jordan@demo.sponsorgrid.example", password: "sponsorgrid-demo" };
const CREATOR = { email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo" };
const SECRET = "guest-pages-e2e-session-secret-0123456789";
const ENGINES = process.env.DATABASE_URL ? (["pglite", "postgres"] as const) : (["pglite"] as const);

const running: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two app processes on PostgreSQL (one database), or the one PGlite process twice. */
async function startApps(engine: "pglite" | "postgres"): Promise<[ServerProcess, ServerProcess]> {
  if (engine === "pglite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-e2e-guest-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const only = await startServerProcess({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    running.push(only);
    return [only, only];
  }
  const name = `sg_e2e_guest_${Date.now()}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), SESSION_SECRET: SECRET, DATA_DIR: os.tmpdir() };
  const first = await startServerProcess(env);
  running.push(first);
  const second = await startServerProcess(env);
  running.push(second);
  return [first, second];
}

/** A guest's request as a browser sends it (no cookie), read as text. */
async function guest(url: string) {
  const response = await fetch(url, { headers: { "accept-encoding": "gzip, deflate, br", "accept-language": "en-US" } });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

async function signedInPage(browser: Browser, base: string, who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: base });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(`${base}/app`);
  return page;
}

test("a guest gets the same bytes again, from memory, with a hash-based policy that lets the page hydrate", async ({ page }) => {
  const [app] = await startApps("pglite");
  for (const pagePath of ["/", "/youtube-sponsorships", "/app/opportunities"]) {
    const fresh = await guest(`${app.url}${pagePath}`);
    const kept = await guest(`${app.url}${pagePath}`);
    expect(fresh.status).toBe(200);
    expect(kept.headers.get("x-guest-cache"), pagePath).toBe("hit");
    expect(kept.body).toBe(fresh.body);
    expect(kept.body).not.toContain("nonce=");
    for (const name of ["content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy", "content-type", "content-encoding", "vary"]) {
      expect(kept.headers.get(name), `${pagePath} ${name}`).toBe(fresh.headers.get(name));
    }
    expect(kept.headers.get("content-security-policy")).not.toContain("'nonce-");
    expect(kept.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  }

  // In Chromium, the kept list page's inline scripts pass the policy and the page hydrates.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(`${app.url}/app/opportunities`);
  expect(response?.headers()["x-guest-cache"]).toBe("hit");
  await page.waitForFunction(() => (window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules !== undefined);
  // A client-side navigation works only once hydrated.
  await page.getByRole("link", { name: "Blog", exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("a signed-in person is never answered from the guest cache, and their page is never kept", async ({ browser }) => {
  const [app] = await startApps("pglite");
  const warm = await guest(`${app.url}/app/opportunities`);
  expect(warm.body).toContain("Sign In");
  const creator = await signedInPage(browser, app.url, CREATOR);
  const response = await creator.goto("/app/opportunities");
  expect(response?.headers()["x-guest-cache"]).toBeUndefined();
  await expect(creator.getByRole("link", { name: "Sign In", exact: true })).toHaveCount(0);
  // What they saw on a page no guest had asked for yet is not what the next guest gets.
  await creator.goto("/app/opportunities?page=0");
  const next = await guest(`${app.url}/app/opportunities?page=0`);
  expect(next.headers.get("x-guest-cache")).toBe("miss");
  expect(next.body).not.toContain("Maya");
  expect(next.body).toContain("Sign In");
  // A toast cookie (a guest just signed out) bypasses too.
  const withToast = await fetch(`${app.url}/app/opportunities`, { headers: { cookie: "__flash=anything" } });
  expect(withToast.headers.get("x-guest-cache")).toBeNull();
});

for (const engine of ENGINES) {
  test(`${engine}: a new, edited or deleted post and a heart are on the very next guest request${engine === "postgres" ? ", in the other process too" : ""}`, async ({ browser }) => {
    const [writer, reader] = await startApps(engine);
    const title = `Guest cache check ${Date.now()}`;
    const listUrl = `${reader.url}/app/opportunities`;
    // Both processes have the list kept before the change.
    for (const app of [writer, reader]) {
      await guest(`${app.url}/app/opportunities`);
      expect((await guest(`${app.url}/app/opportunities`)).headers.get("x-guest-cache")).toBe("hit");
    }

    const sponsor = await signedInPage(browser, writer.url, SPONSOR);
    await sponsor.goto("/app/opportunities/new");
    await sponsor.getByLabel("Title").fill(title);
    await sponsor.getByLabel("Organization").fill("Northwind Audio");
    await sponsor.getByLabel("Description").fill("A post to see the guest pages follow every change.");
    await sponsor.getByLabel("Website").fill("https://northwind.example/");
    await sponsor.getByLabel("Minimum contribution (US dollars)").fill("100");
    await sponsor.getByLabel("Contact email").fill("jordan@northwind.example");
    await sponsor.getByLabel("streamer sponsorship").check();
    await sponsor.getByRole("button", { name: "Post opportunity" }).click();
    await expect(sponsor).toHaveURL(/\/app\/opportunities\/\d{10}_[A-Za-z0-9]{20}$/);
    const postPath = new URL(sponsor.url()).pathname;
    expect((await guest(listUrl)).body).toContain(title);

    const detailUrl = `${reader.url}${postPath}`;
    await guest(detailUrl);
    expect((await guest(detailUrl)).headers.get("x-guest-cache")).toBe("hit");
    await sponsor.getByRole("link", { name: "Edit" }).click();
    await sponsor.getByLabel("Title").fill(`${title} (edited)`);
    await sponsor.getByRole("button", { name: "Save changes" }).click();
    await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText(`${title} (edited)`);
    expect((await guest(detailUrl)).body).toContain(`${title} (edited)`);
    expect((await guest(listUrl)).body).toContain(`${title} (edited)`);

    // A heart moves the count guests see.
    expect((await guest(detailUrl)).body).toMatch(/0 hearts/);
    const creator = await signedInPage(browser, writer.url, CREATOR);
    await creator.goto(postPath);
    const saved = creator.waitForResponse((response) => /\/heart(\.data)?(\?|$)/.test(response.url()) && response.request().method() === "POST");
    await creator.getByRole("button", { name: /^Save “.*”, 0 hearts$/ }).click();
    expect((await saved).ok()).toBe(true);
    expect((await guest(detailUrl)).body).toMatch(/1 heart\b/);

    await sponsor.getByRole("link", { name: "Delete" }).click();
    await sponsor.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(sponsor).toHaveURL(`${writer.url}/app/account/opportunities`);
    expect((await guest(detailUrl)).status).toBe(404);
    expect((await guest(listUrl)).body).not.toContain(title);
  });
}
