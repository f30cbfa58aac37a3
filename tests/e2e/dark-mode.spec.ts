import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, signedInAs, signInAsStaff, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The app follows the system's dark mode (app/app.css redefines the theme's colours), and every
 * screen keeps WCAG AA contrast in it: the main screens, read by axe in a dark browser on a
 * phone and on a desktop.
 */
test.use({ colorScheme: "dark" });

const VIEWPORTS = [
  { name: "phone", viewport: { width: 390, height: 844 } },
  { name: "desktop", viewport: { width: 1280, height: 900 } },
] as const;

async function axeClean(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${screen} ${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).join(" | ")}`),
  ).toEqual([]);
}

/** The page really is dark: the page's background and its text are the dark scheme's. */
async function isDark(page: Page) {
  const colours = await page.evaluate(() => ({
    background: getComputedStyle(document.documentElement).backgroundColor,
    text: getComputedStyle(document.body).color,
    scheme: getComputedStyle(document.documentElement).colorScheme,
  }));
  expect(colours.background).toBe("rgb(21, 17, 28)");
  expect(colours.text).toBe("rgb(236, 231, 245)");
  expect(colours.scheme).toBe("light dark");
}

async function bioPage(request: APIRequestContext, page: Page): Promise<string> {
  const name = "Night Page";
  const response = await request.post("/app/account/bizbio/new", {
    data: new URLSearchParams([["name", name], ["customEnding", `night_${randomBytes(4).toString("hex")}`], ["blurb", "Hello."]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto("/app/account/bizbio");
  return (await page.getByRole("listitem", { name, exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href"))!;
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`dark mode on a ${name}`, () => {
    test.use({ viewport });

    test("public screens: home, sign in and the opportunities", async ({ page }) => {
      await page.goto("/");
      await isDark(page);
      await axeClean(page, "home");
      await page.goto("/signin");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await axeClean(page, "sign in");
      await page.goto("/app/opportunities");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await axeClean(page, "opportunities");
    });

    test("signed in: the dashboard, the editor, notifications and My Payments", async ({ page }) => {
      test.setTimeout(120_000);
      const { email } = await signedInAs(page, { prefix: "dark", name: "Dana Dark" });
      await testHooks(page.request).sendNotifications({ email, title: "Your page got a new sponsor", buttonText: "See it", buttonDestination: "/app/account/sponsors" });
      await page.goto("/app");
      await expect(page.getByRole("heading", { name: "What would you like to do today?" })).toBeVisible();
      await isDark(page);
      await axeClean(page, "dashboard");

      await page.goto(await bioPage(page.request, page));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await axeClean(page, "editor");

      await page.goto("/app/notifications");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await axeClean(page, "notifications");

      await page.goto("/app/account/payments");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await axeClean(page, "My Payments");
    });

    test("the back office overview", async ({ page }) => {
      await signInAsStaff(page);
      await page.goto("/app/admin");
      await expect(page.getByRole("navigation", { name: "Back office" })).toBeVisible();
      await isDark(page);
      await axeClean(page, "back office");
    });
  });
}

test("a light system keeps the light scheme", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "light" });
  const page = await context.newPage();
  await page.goto("/");
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe("rgb(255, 255, 255)");
  await context.close();
});
