import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, otherClient, shownFor, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The Notifications screen (SPEC §2.5 "Notifications", §4, §9).
 * Every test signs up its own user; notifications are written through
 * sendNotification by the notifications test hook, as producers write them.
 */
const PATH = "/app/notifications";
const PHONE = { width: 375, height: 812 };

type Notification = { title: string; message?: string; buttonText?: string; buttonDestination?: string; count?: number };

async function verifiedUser(page: Page, prefix = "alerts"): Promise<string> {
  const { email } = await signedInAs(page, { prefix, name: "Alert Reader", password: "quiet-lantern-58" });
  // Verifying wrote the welcome notification; each test here starts from an empty list, so it is deleted
  // the way a person would, through the screen's own action.
  const [welcome, ...others] = await stored(page, email);
  expect(others).toEqual([]);
  expect(welcome!.title).toBe("Welcome to Sponsorgrid!");
  expect((await page.request.post(PATH, { form: { intent: "delete", id: welcome!.id } })).status()).toBeLessThan(400);
  expect(await stored(page, email)).toEqual([]);
  return email;
}

/** Notifications for `email`, one after another (oldest first); answers their ids, newest first. */
async function send(page: Page, email: string, notification: Notification): Promise<string[]> {
  const sent = await testHooks(page.request).sendNotifications({
    email,
    title: notification.title,
    message: notification.message ?? `About ${notification.title}.`,
    buttonText: notification.buttonText || undefined,
    buttonDestination: notification.buttonDestination || undefined,
    count: notification.count || undefined,
  });
  return sent.ids;
}

const stored = (page: Page, email: string) => testHooks(page.request).storedNotifications(email);

const list = (page: Page) => page.getByRole("list", { name: "Your notifications" });
const cardOf = (page: Page, title: string) => list(page).getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
const menuLink = (page: Page) => page.locator(`header a[href="${PATH}"]`);

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Clicks `button` on a paused page clock: 'Done!' then shows in `card` for 2 s of that clock, then goes. */
async function clickShowsDone(page: Page, button: Locator, card: Locator): Promise<void> {
  await page.clock.pauseAt(Date.now() + 60_000);
  await button.click();
  await shownFor(page, card.getByText("Done!", { exact: true }), 2_000);
}

test("the cards show newest first, with the call-to-action destinations rewritten", async ({ page }) => {
  const email = await verifiedUser(page);
  await send(page, email, { title: "Oldest: a plain note" });
  await send(page, email, { title: "Set up payouts", buttonText: "Set up payments", buttonDestination: "/app/payments/setup" });
  await send(page, email, { title: "Your sponsors", buttonText: "See sponsors", buttonDestination: "/app/my-sponsors/all" });
  await send(page, email, { title: "Post something", buttonText: "Post", buttonDestination: "/app/post/opportunity" });
  await send(page, email, { title: "Make a page", buttonText: "New page", buttonDestination: "/app/bizbio/new" });
  await send(page, email, { title: "A sneaky one", buttonText: "Click me", buttonDestination: "javascript:alert(document.cookie)" });
  await send(page, email, { title: "No words on the button", buttonDestination: "/app/account" });
  await send(page, email, { title: "Newest: help article", buttonText: "Read the guide", buttonDestination: "https://help.example.com/payouts" });

  await page.goto(PATH);
  await expect(page).toHaveTitle(/^Notifications \| Sponsorgrid$/);
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  await expect(list(page).getByRole("heading", { level: 2 })).toHaveText([
    "Newest: help article", "No words on the button", "A sneaky one", "Make a page", "Post something", "Your sponsors", "Set up payouts", "Oldest: a plain note",
  ]);
  await expect(cardOf(page, "Set up payouts").getByRole("link", { name: "Set up payments" })).toHaveAttribute("href", "/app/account/payments");
  await expect(cardOf(page, "Your sponsors").getByRole("link", { name: "See sponsors" })).toHaveAttribute("href", "/app/account/sponsors");
  await expect(cardOf(page, "Post something").getByRole("link", { name: "Post" })).toHaveAttribute("href", "/app/opportunities/new");
  await expect(cardOf(page, "Make a page").getByRole("link", { name: "New page" })).toHaveAttribute("href", "/app/account/bizbio/new");
  await expect(cardOf(page, "No words on the button").getByRole("link", { name: "Open" })).toHaveAttribute("href", "/app/account");
  await expect(cardOf(page, "Newest: help article").getByRole("link", { name: "Read the guide" })).toHaveAttribute("href", "https://help.example.com/payouts");
  // A javascript: destination gets no button at all, and nothing on the page links to it.
  await expect(cardOf(page, "A sneaky one").getByRole("link", { name: "Click me" })).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(cardOf(page, "Oldest: a plain note").getByText("Unread", { exact: true })).toBeVisible();
  await expect(cardOf(page, "Oldest: a plain note").getByText("About Oldest: a plain note.")).toBeVisible();
  await expect(cardOf(page, "Oldest: a plain note").locator("time")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Mark all as read" })).toBeVisible();
  await axeClean(page);

  await cardOf(page, "Set up payouts").getByRole("link", { name: "Set up payments" }).click();
  await expect(page).toHaveURL("/app/account/payments");

  await page.setViewportSize(PHONE);
  await page.goto(PATH);
  await expect(list(page).getByRole("listitem")).toHaveCount(8);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const markBox = await cardOf(page, "Make a page").getByRole("button", { name: "Mark as Read" }).boundingBox();
  expect(markBox!.height).toBeGreaterThanOrEqual(44);
  const deleteBox = await cardOf(page, "Make a page").getByRole("link", { name: "Delete" }).boundingBox();
  expect(deleteBox!.height).toBeGreaterThanOrEqual(44);
  await axeClean(page);
});

test("Mark as Read shows 'Done!' for 2 seconds, then the card is read with its date and the menu count drops", async ({ page }) => {
  const email = await verifiedUser(page);
  await send(page, email, { title: "First news" });
  await send(page, email, { title: "Second news" });
  await page.clock.install();
  await page.goto(PATH);
  await expect(menuLink(page)).toContainText("Notifications (2)");

  const card = cardOf(page, "First news");
  // During 'Done!' the card still reads as it was; the count in the menu already follows the server.
  await clickShowsDone(page, card.getByRole("button", { name: "Mark as Read" }), card);
  await expect(card.getByRole("button", { name: "Mark as Read" })).toBeDisabled();
  await expect(card.getByText("Unread", { exact: true })).toHaveCount(0);
  await expect(card.getByText(/^Read on/)).toBeVisible();
  await expect(cardOf(page, "Second news").getByText("Unread", { exact: true })).toBeVisible();
  await expect(menuLink(page)).toContainText("Notifications (1)");
  const rows = await stored(page, email);
  expect(rows.find((row) => row.title === "First news")).toMatchObject({ unread: false, readOn: expect.any(String) });

  // After a reload the card is still read, its button still disabled.
  await page.reload();
  await expect(cardOf(page, "First news").getByRole("button", { name: "Mark as Read" })).toBeDisabled();
  await expect(cardOf(page, "Second news").getByRole("button", { name: "Mark as Read" })).toBeEnabled();
});

test("Delete asks 'Are you sure?': Cancel keeps the card, Confirm shows 'Done!' and removes it", async ({ page }) => {
  const email = await verifiedUser(page);
  await send(page, email, { title: "Keep me" });
  await send(page, email, { title: "Remove me" });
  await page.clock.install();
  await page.goto(PATH);

  const keep = cardOf(page, "Keep me");
  await keep.getByRole("link", { name: "Delete" }).click();
  await expect(keep.getByRole("heading", { name: "Are you sure?" })).toBeVisible();
  await expect(keep.getByText("Please confirm that you would like to delete this notification.")).toBeVisible();
  await expect(keep.getByRole("link", { name: "Cancel" })).toBeFocused();
  await keep.getByRole("link", { name: "Cancel" }).click();
  await expect(keep.getByRole("heading", { name: "Are you sure?" })).toHaveCount(0);
  await expect(keep.getByRole("link", { name: "Delete" })).toBeFocused();
  await expect(page).toHaveURL(PATH);

  const remove = cardOf(page, "Remove me");
  await remove.getByRole("link", { name: "Delete" }).click();
  await clickShowsDone(page, remove.getByRole("button", { name: "Confirm" }), remove);
  await expect(remove).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeFocused();
  await expect(menuLink(page)).toContainText("Notifications (1)");
  expect((await stored(page, email)).map((row) => row.title)).toEqual(["Keep me"]);
});

test("Mark all as read reads every card and then goes away; with none left the empty text shows", async ({ page }) => {
  const email = await verifiedUser(page);
  await page.goto(PATH);
  await expect(page.getByText("You don't have any notifications at this time.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await axeClean(page);

  await send(page, email, { title: "Batch", count: 3 });
  await page.goto(PATH);
  await expect(menuLink(page)).toContainText("Notifications (3)");
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByText("Done!", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0, { timeout: 10_000 });
  for (const title of ["Batch 1", "Batch 2", "Batch 3"]) await expect(cardOf(page, title).getByRole("button", { name: "Mark as Read" })).toBeDisabled();
  await expect(menuLink(page)).not.toContainText("(");
  expect((await stored(page, email)).every((row) => !row.unread && row.readOn)).toBe(true);

  for (const title of ["Batch 3", "Batch 2", "Batch 1"]) {
    await cardOf(page, title).getByRole("link", { name: "Delete" }).click();
    await cardOf(page, title).getByRole("button", { name: "Confirm" }).click();
    await expect(cardOf(page, title)).toHaveCount(0, { timeout: 10_000 });
  }
  await expect(page.getByText("You don't have any notifications at this time.")).toBeVisible();
});

test("more than a page loads on demand, in place with JavaScript and as its own page without", async ({ page, browser }) => {
  const email = await verifiedUser(page);
  await send(page, email, { title: "Item", count: 13 });
  await page.clock.install();
  await page.goto(PATH);
  await expect(list(page).getByRole("listitem")).toHaveCount(12);
  await expect(cardOf(page, "Item 1")).toHaveCount(0);
  // The next page is held back a moment, so its 'Loading....' can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/app\/notifications\.data\?.*cursor=/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("link", { name: "Load more" }).click();
  await expect(page.getByText("Loading....", { exact: true })).toBeVisible();
  release();
  await expect(list(page).getByRole("listitem")).toHaveCount(13);
  await expect(page.getByText("Loading....", { exact: true })).toHaveCount(0);
  await expect(cardOf(page, "Item 1")).toBeVisible();
  await expect(page.getByRole("link", { name: "Load more" })).toHaveCount(0);
  await expect(page).toHaveURL(PATH);
  // A card of the second page works like the others.
  await clickShowsDone(page, cardOf(page, "Item 1").getByRole("button", { name: "Mark as Read" }), cardOf(page, "Item 1"));
  await expect(cardOf(page, "Item 1").getByRole("button", { name: "Mark as Read" })).toBeDisabled();

  const { context, page: noJs } = await otherClient(browser, { javaScriptEnabled: false, storageState: await page.context().storageState() });
  await noJs.goto(PATH);
  await expect(list(noJs).getByRole("listitem")).toHaveCount(12);
  await noJs.getByRole("link", { name: "Load more" }).click();
  await expect(noJs).toHaveURL(/\/app\/notifications\?cursor=/);
  await expect(list(noJs).getByRole("listitem")).toHaveCount(1);
  await expect(cardOf(noJs, "Item 1")).toBeVisible();
  await noJs.getByRole("link", { name: "Back to the newest notifications" }).click();
  await expect(list(noJs).getByRole("listitem")).toHaveCount(12);
  await context.close();

  const bad = await page.request.get(`${PATH}?cursor=not-a-cursor`);
  expect(bad.status()).toBe(400);
});

test("another person's alert: a forged POST is 404 and nothing changes", async ({ page, browser }) => {
  const owner = await verifiedUser(page, "owner");
  const [id] = await send(page, owner, { title: "Private to the owner" });
  const before = await stored(page, owner);

  const { context, page: intruder } = await otherClient(browser);
  await verifiedUser(intruder, "intruder");
  for (const intent of ["read", "delete"]) {
    const response = await intruder.request.post(PATH, { form: { intent, id: id!, via: "fetcher" } });
    expect(response.status(), intent).toBe(404);
    const plain = await intruder.request.post(PATH, { form: { intent, id: id! }, maxRedirects: 0 });
    expect(plain.status(), intent).toBe(404);
  }
  const malformed = await intruder.request.post(PATH, { form: { intent: "read", id: "not-a-uuid" }, maxRedirects: 0 });
  expect(malformed.status()).toBe(404);
  const unknown = await intruder.request.post(PATH, { form: { intent: "explode", id: id! }, maxRedirects: 0 });
  expect(unknown.status()).toBe(400);
  // Mark all as read only ever reads the asker's own.
  expect((await intruder.request.post(PATH, { form: { intent: "read-all", via: "fetcher" } })).status()).toBe(200);
  await intruder.goto(`${PATH}?confirm=${id}`);
  await expect(intruder.getByText("You don't have any notifications at this time.")).toBeVisible();
  await context.close();

  expect(await stored(page, owner)).toEqual(before);
  await page.goto(PATH);
  await expect(cardOf(page, "Private to the owner").getByText("Unread", { exact: true })).toBeVisible();
});

test("without JavaScript: mark as read and delete with its confirm panel, each back on the page with a toast", async ({ page, browser }) => {
  const email = await verifiedUser(page);
  await send(page, email, { title: "Read me plainly" });
  await send(page, email, { title: "Delete me plainly" });
  const { context, page: noJs } = await otherClient(browser, { javaScriptEnabled: false, storageState: await page.context().storageState() });

  await noJs.goto(PATH);
  await expect(menuLink(noJs)).toContainText("Notifications (2)");
  await cardOf(noJs, "Read me plainly").getByRole("button", { name: "Mark as Read" }).click();
  await expect(noJs).toHaveURL(PATH);
  await expect(noJs.getByText("Done! The notification is marked as read.")).toBeVisible();
  await expect(cardOf(noJs, "Read me plainly").getByRole("button", { name: "Mark as Read" })).toBeDisabled();
  await expect(cardOf(noJs, "Read me plainly").getByText(/^Read on/)).toBeVisible();
  await expect(menuLink(noJs)).toContainText("Notifications (1)");

  const card = cardOf(noJs, "Delete me plainly");
  await card.getByRole("link", { name: "Delete" }).click();
  await expect(noJs).toHaveURL(/\/app\/notifications\?confirm=[0-9a-f-]{36}$/);
  await expect(card.getByRole("heading", { name: "Are you sure?" })).toBeVisible();
  await expect(card.getByText("Please confirm that you would like to delete this notification.")).toBeVisible();
  await card.getByRole("link", { name: "Cancel" }).click();
  await expect(noJs).toHaveURL(PATH);
  await expect(card.getByRole("heading", { name: "Are you sure?" })).toHaveCount(0);

  await card.getByRole("link", { name: "Delete" }).click();
  await card.getByRole("button", { name: "Confirm" }).click();
  await expect(noJs).toHaveURL(PATH);
  await expect(noJs.getByText("Done! The notification is deleted.")).toBeVisible();
  await expect(cardOf(noJs, "Delete me plainly")).toHaveCount(0);
  await expect(menuLink(noJs)).not.toContainText("(");

  await expect(noJs.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await context.close();
  expect((await stored(page, email)).map((row) => row.title)).toEqual(["Read me plainly"]);
});
