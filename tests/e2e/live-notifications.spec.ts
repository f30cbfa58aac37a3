import type { Page } from "@playwright/test";
import { expect, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The unread count in the user menu is live in every open tab. Two tabs of one
 * signed-in creator: a sponsor's payment made along the real path (the sandbox's checkout paid
 * with the 4242 card, its event through our webhook) shows in the other tab's menu within a
 * second, without a reload; so do notifications read and deleted elsewhere; and a tab whose stream the
 * server dropped picks up again by itself.
 */
const STREAM = "/api/notifications/stream";

async function verifiedCreator(page: Page) {
  await signedInAs(page, { prefix: "live", name: "Live Creator" });
}

/** Opens `path` and waits until the tab's event stream has given its first count. */
async function openWithStream(page: Page, path: string) {
  const stream = page.waitForResponse((response) => response.url().endsWith(STREAM) && response.status() === 200);
  await page.goto(path);
  await stream;
}

const menuLink = (page: Page) => page.locator('header a[href="/app/notifications"]');
const menuButton = (page: Page) => page.locator("header summary").filter({ hasText: "Account" });
const badge = (page: Page) => menuButton(page).getByText(/^\d+ unread notifications$/);
const announcement = (page: Page) => page.getByRole("status").filter({ hasText: /notification/ });

async function unreadNow(page: Page): Promise<number> {
  return (await testHooks(page.request).notify({ do: "count" })).unread;
}

test("a payment, reading and deleting alerts show in another tab's menu within a second; a dropped stream resumes", async ({ page }) => {
  await verifiedCreator(page);
  await testHooks(page.request).paymentsReady();

  const other = await page.context().newPage();
  await openWithStream(page, "/app");
  await openWithStream(other, "/app/opportunities");
  // A mark on the other tab's document: it is still there at the end only if no reload happened.
  await other.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 17));
  const before = await unreadNow(page);
  await expect(menuLink(other)).toHaveText(before > 0 ? `Notifications (${before})` : "Notifications");
  const summaryBox = await menuButton(other).boundingBox();

  // A sponsor pays $25 on the creator's bio page: the real payment path writes the notification.
  await testHooks(page.request).sponsorPayments({ paid: 1, amount: 2500 });
  const afterPayment = await unreadNow(page);
  expect(afterPayment).toBeGreaterThan(before);
  await expect(menuLink(other)).toHaveText(`Notifications (${afterPayment})`, { timeout: 1_000 });
  await expect(menuLink(page)).toHaveText(`Notifications (${afterPayment})`, { timeout: 1_000 });
  await expect(badge(other)).toHaveText(`${afterPayment} unread notifications`);
  // Said once, politely, for screen readers.
  await expect(announcement(other)).toHaveText(`${afterPayment} unread notification${afterPayment === 1 ? "" : "s"}`);
  await expect(announcement(other)).toHaveAttribute("aria-live", "polite");

  // Everything read elsewhere: the number and the badge go.
  await testHooks(page.request).notify({ do: "read" });
  await expect(menuLink(other)).toHaveText("Notifications", { timeout: 1_000 });
  await expect(badge(other)).toHaveCount(0);
  // The badge comes and goes over the avatar: the menu button itself never moved or resized.
  expect(await menuButton(other).boundingBox()).toEqual(summaryBox);
  await expect(announcement(other)).toHaveText("No unread notifications");

  await testHooks(page.request).notify({ do: "send", n: 3 });
  await expect(menuLink(other)).toHaveText("Notifications (3)", { timeout: 1_000 });
  await testHooks(page.request).notify({ do: "delete" });
  await expect(menuLink(other)).toHaveText("Notifications", { timeout: 1_000 });

  // The server drops every stream; the tab reconnects by itself (retry hint: 2 s) and hears the next notification.
  const reconnected = other.waitForResponse((response) => response.url().endsWith(STREAM) && response.status() === 200);
  await testHooks(page.request).dropNotificationStreams();
  await reconnected;
  await testHooks(page.request).notify({ do: "send", n: 2 });
  await expect(menuLink(other)).toHaveText("Notifications (2)", { timeout: 1_000 });
  // No reload happened in the other tab: it is the same document.
  expect(await other.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(17);
});

test("pages that ship no JavaScript open no stream, and after sign-out the stream answers 401", async ({ page }) => {
  await verifiedCreator(page);
  const streams: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(STREAM)) streams.push(request.url());
  });
  await page.goto("/about");
  await expect(page.locator("script[src]")).toHaveCount(0);
  // The welcome notification from verifying the email, drawn by the server alone.
  await expect(menuLink(page)).toHaveText("Notifications (1)");
  expect(streams).toEqual([]);

  await openWithStream(page, "/app");
  expect(streams).toHaveLength(1);
  // Signing out: the menu (and its stream) go; a guest asking for a stream gets 401.
  await page.getByText("Account", { exact: true }).click();
  await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL("/");
  expect((await page.request.get(STREAM)).status()).toBe(401);
});
