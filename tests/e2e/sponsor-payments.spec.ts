import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, otherClient, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * The owner's payment screens: Sponsors Dashboard, My Sponsorships
 * with its status filter and Refund, and the Info page. Every test signs up
 * its own creator, whose payout account (`paymentsReady`) and payments
 * (`sponsorPayments`, tests/support/test-hooks-client.ts) are made along the real path: the
 * sandbox's checkout paid with the 4242 card, its events through our webhook.
 */
const DASHBOARD = "/app/account/sponsors";
const LIST = "/app/account/sponsors/payments";
const PHONE = { width: 375, height: 812 };

async function verifiedUser(page: Page): Promise<string> {
  const { email } = await signedInAs(page, { prefix: "sponsors", name: "Paid Creator" });
  return email;
}

type Made = { ending: string; paid: string[]; pending: string[]; email: string };

/** A creator who takes payments, with `paid` completed $25 tips and `pending` unpaid checkouts (oldest first). */
/**
 * Clicks Refund and follows SPEC §2.5's states: 'Loading...' while the request is out (held until
 * the test has seen it), then 'Refunded' for 4 s of the page's clock (the caller installed it
 * before the page loaded), then a disabled button until the webhook lands. Leaves the route hold in
 * place; the caller unroutes it once the status has followed.
 */
async function refundShowsItsStates(page: Page, button: Locator, scope: Locator): Promise<void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/refund.data*", async (route) => {
    await released;
    await route.continue();
  });
  // From here page time moves only when the test moves it, however slow the machine is.
  await page.clock.pauseAt(Date.now() + 60_000);
  await confirmRefund(button, scope);
  await expect(button).toHaveText("Loading...");
  await expect(button).toBeDisabled();
  release();
  await expect(button).toHaveText("Refunded");
  await page.clock.runFor(3_999);
  await expect(button).toHaveText("Refunded");
  await page.clock.runFor(1);
  await expect(button).toHaveText("Refund");
  await expect(button).toBeDisabled();
  await page.clock.resume();
}

/**
 * Refund asks first: the question names the amount and the sponsor, Escape or Cancel closes it and
 * gives the focus back to Refund, and only "Yes, refund" sends it.
 */
async function confirmRefund(button: Locator, scope: Locator): Promise<void> {
  const question = scope.getByRole("group", { name: /^Are you sure\? Refund \$25\.00 to fan-.+@sponsor\.example\?$/ });
  await button.click();
  await expect(question).toBeVisible();
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await button.page().keyboard.press("Escape");
  await expect(question).toHaveCount(0);
  await expect(button).toBeFocused();
  await button.click();
  await question.getByRole("button", { name: "Yes, refund" }).click();
}

async function creatorWithPayments(page: Page, counts: { paid: number; pending?: number }): Promise<Made> {
  const email = await verifiedUser(page);
  await testHooks(page.request).paymentsReady();
  const made = await testHooks(page.request).sponsorPayments({ paid: counts.paid, pending: counts.pending ?? 0, amount: 2500 });
  return { ...made, email };
}

const sessionState = (page: Page, sessionId: string) => testHooks(page.request).sponsorSession(sessionId);

const cardOf = (page: Page, sessionId: string) => page.getByRole("listitem").filter({ has: page.locator(`a[href$="/payments/${sessionId}"]`) });

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("the dashboard, the status filter and the Info page show the payments with gross, net and fees", async ({ page }) => {
  const made = await creatorWithPayments(page, { paid: 3, pending: 1 });

  await page.goto(DASHBOARD);
  await expect(page.getByRole("heading", { name: "Sponsors Dashboard", level: 1 })).toBeVisible();
  const sponsors = page.getByRole("list", { name: "Recent sponsors" });
  await expect(sponsors.getByRole("listitem")).toHaveCount(3);
  await expect(sponsors).toContainText(/fan-[0-9a-f]+-2@sponsor\.example/);
  await expect(sponsors).toContainText("$25.00");
  await expect(page.getByRole("list", { name: "Recent activity" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText("You receive (net)")).toBeVisible();
  await axeClean(page);
  await page.getByRole("link", { name: "View All Sponsorships" }).click();
  await expect(page).toHaveURL(LIST);

  const cards = page.getByRole("list", { name: "Payments" }).getByRole("listitem");
  // The default view is money that arrived: the unpaid checkout (made last) waits under Pending (ADR 0030).
  await expect(cards).toHaveCount(3);
  await expect(cardOf(page, made.pending[0]!)).toHaveCount(0);
  await expect(page.getByText("Checkouts that were opened but never paid are under Pending.")).toBeVisible();
  const paidCard = cardOf(page, made.paid[0]!);
  await expect(paidCard).toContainText("Completed");
  await expect(paidCard).toContainText("Thanks for everything #0");
  await expect(paidCard.getByRole("button", { name: "Refund", exact: true })).toBeEnabled();
  await axeClean(page);

  await page.getByRole("link", { name: "Completed", exact: true }).click();
  await expect(page).toHaveURL(`${LIST}?status=completed`);
  await expect(cards).toHaveCount(3);
  await expect(page.getByRole("link", { name: "Completed", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "Pending", exact: true }).click();
  await expect(cards).toHaveCount(1);
  await expect(cardOf(page, made.pending[0]!)).toContainText("Pending");
  await expect(cardOf(page, made.pending[0]!).getByRole("button", { name: "Refund", exact: true })).toBeDisabled();
  await page.getByRole("link", { name: "Refunded", exact: true }).click();
  await expect(page.getByText("There are no refunded payments to show.")).toBeVisible();
  await page.goto(`${LIST}?status=everything`);
  await expect(cards).toHaveCount(3);
  await expect(page.getByRole("link", { name: "All", exact: true })).toHaveAttribute("aria-current", "page");

  await cardOf(page, made.paid[0]!).getByRole("link", { name: "Info", exact: true }).click();
  await expect(page).toHaveURL(`${LIST}/${made.paid[0]}`);
  for (const section of ["Transaction", "Details", "Gross Payment", "Net Payment", "Fees"]) {
    await expect(page.getByRole("heading", { name: section, level: 2 })).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "Gross Payment" })).toContainText("$25.00");
  // The default platform fee is 0 %: the creator gets all of it; the sandbox's card fee (2.9 % + 30¢) is the platform's.
  await expect(page.getByRole("region", { name: "Net Payment" })).toContainText("$25.00");
  const fees = page.getByRole("region", { name: "Fees" });
  await expect(fees).toContainText("$0.00");
  await expect(fees).toContainText("$1.03");
  await expect(page.getByRole("list", { name: "Movements of this payment" })).toContainText("Payment");
  await axeClean(page);

  await page.setViewportSize(PHONE);
  for (const path of [DASHBOARD, LIST, `${LIST}/${made.paid[0]}`]) {
    await page.goto(path);
    await noSidewaysScroll(page);
  }
});

test("Refund: Loading..., 'Refunded' for 4 s, then refunded once the webhook confirms; a double click still makes one refund", async ({ page }) => {
  const made = await creatorWithPayments(page, { paid: 2 });
  const [first, second] = made.paid as [string, string];
  await page.clock.install();
  await page.goto(LIST);
  const card = cardOf(page, first);
  const button = card.getByRole("button", { name: /^(Refund|Loading\.\.\.|Refunded)$/ });

  await refundShowsItsStates(page, button, card);
  // Without a reload: the list follows the provider's webhook.
  await expect(card.getByText("Status: Refunded")).toBeVisible({ timeout: 15_000 });
  await page.unroute("**/refund.data*");

  const refunded = await sessionState(page, first);
  expect(refunded).toMatchObject({ status: "refunded", sandboxRefunds: 1, refundRequest: { status: "succeeded", attempt: 1 } });
  expect(refunded.entries.map((e) => [e.kind, e.gross]).sort()).toEqual([
    ["payment", 2500],
    ["refund", -2500],
  ]);

  await page.goto(`${LIST}?status=refunded`);
  await expect(page.getByRole("list", { name: "Payments" }).getByRole("listitem")).toHaveCount(1);
  await page.goto(`${LIST}/${first}`);
  await expect(page.getByRole("region", { name: "Net Payment" })).toContainText("$0.00");
  await expect(page.getByRole("list", { name: "Movements of this payment" })).toContainText("Refund");

  // A double click, and five more posts from other tabs: one refund reaches the provider.
  await page.goto(LIST);
  await cardOf(page, second).getByRole("button", { name: "Refund", exact: true }).click();
  await cardOf(page, second).getByRole("button", { name: "Yes, refund" }).dblclick();
  await expect(cardOf(page, second).getByRole("button", { name: "Refunded", exact: true })).toBeVisible();
  const posts = await Promise.all(
    Array.from({ length: 5 }, () =>
      page.request.post(`${LIST}/${second}/refund`, { form: { returnTo: LIST, confirmed: "yes" }, maxRedirects: 0 }),
    ),
  );
  expect(posts.map((r) => r.status())).toEqual([302, 302, 302, 302, 302]);
  await expect.poll(async () => (await sessionState(page, second)).status, { timeout: 15_000 }).toBe("refunded");
  const state = await sessionState(page, second);
  expect(state.sandboxRefunds).toBe(1);
  expect(state.entries.filter((e) => e.kind === "refund")).toHaveLength(1);
});

test("under the Completed filter a refunded card says 'Refunded' for 4 s before it leaves the list", async ({ page }) => {
  const made = await creatorWithPayments(page, { paid: 2 });
  const [first, second] = made.paid as [string, string];
  await page.clock.install();
  await page.goto(`${LIST}?status=completed`);
  const cards = page.getByRole("list", { name: "Payments" }).getByRole("listitem");
  await expect(cards).toHaveCount(2);
  const button = cardOf(page, first).getByRole("button", { name: /^(Refund|Loading\.\.\.|Refunded)$/ });
  // The 4 s are counted on the page's clock, which moves only when the test moves it.
  await page.clock.pauseAt(Date.now() + 60_000);
  await button.click();
  await cardOf(page, first).getByRole("button", { name: "Yes, refund" }).click();
  await expect(button).toHaveText("Refunded");
  // The provider confirms within moments and the list is revalidated meanwhile: the card stays, saying so.
  await expect.poll(async () => (await sessionState(page, first)).status, { timeout: 10_000 }).toBe("refunded");
  await page.clock.runFor(3_999);
  await expect(button).toHaveText("Refunded");
  await page.clock.runFor(1);
  await expect(cardOf(page, first)).toHaveCount(0);
  await page.clock.resume();
  // Then the list is the server's: the other completed payment only.
  await expect(cards).toHaveCount(1);
  await expect(cardOf(page, second)).toBeVisible();
});

test("the Sponsors Dashboard's My Sponsors has Refund: only for a completed payment, Loading..., 'Refunded' for 4 s, then the badge follows the webhook", async ({ page, browser, baseURL }) => {
  const made = await creatorWithPayments(page, { paid: 2, pending: 1 });
  const [first, second] = made.paid as [string, string];
  await page.clock.install();
  await page.goto(DASHBOARD);
  const sponsors = page.getByRole("list", { name: "Recent sponsors" });
  const rowOf = (sessionId: string) => sponsors.getByRole("listitem").filter({ has: page.locator(`a[href$="/payments/${sessionId}"]`) });
  // Unpaid checkouts are not sponsors.
  await expect(sponsors.getByRole("listitem")).toHaveCount(2);
  await expect(rowOf(made.pending[0]!)).toHaveCount(0);
  const button = rowOf(first).getByRole("button", { name: /^(Refund|Loading\.\.\.|Refunded)$/ });
  await expect(button).toHaveText("Refund");
  await expect(button).toBeEnabled();

  await refundShowsItsStates(page, button, rowOf(first));
  await expect(rowOf(first).getByText("Status: Refunded")).toBeVisible({ timeout: 15_000 });
  await page.unroute("**/refund.data*");
  expect(await sessionState(page, first)).toMatchObject({ status: "refunded", sandboxRefunds: 1 });
  // The other payment is untouched and still refundable; the activity shows the refund.
  await expect(rowOf(second).getByRole("button", { name: "Refund", exact: true })).toBeEnabled();
  await expect(page.getByRole("list", { name: "Recent activity" })).toContainText("Refund");
  await axeClean(page);

  // Without JavaScript, the same form comes back to the dashboard with the toast.
  const plain = await otherClient(browser, { javaScriptEnabled: false, baseURL, storageState: await page.context().storageState() });
  await plain.page.goto(DASHBOARD);
  await plain.page.getByRole("list", { name: "Recent sponsors" }).getByRole("listitem").filter({ has: plain.page.locator(`a[href$="/payments/${second}"]`) }).getByRole("button", { name: "Refund", exact: true }).click();
  await expect(plain.page.getByRole("heading", { name: /^Are you sure\? Refund \$25\.00 to fan-/ })).toBeVisible();
  await plain.page.getByRole("button", { name: "Yes, refund" }).click();
  await expect(plain.page).toHaveURL(DASHBOARD);
  await expect(plain.page.getByText("Refund requested. The payment shows as refunded once the payment provider confirms it.")).toBeVisible();
  await expect.poll(async () => (await sessionState(page, second)).status, { timeout: 15_000 }).toBe("refunded");
  await plain.context.close();
});

test("the SPEC §7.1 callables answer the signed-in owner on /api/functions, and refuse another site's page", async ({ page, browser, baseURL }) => {
  const made = await creatorWithPayments(page, { paid: 1 });
  const sessionId = made.paid[0]!;
  const info = await page.request.post("/api/functions/sponsorPaymentInfo", { data: { data: { sponsorSessionId: sessionId } } });
  expect(info.status()).toBe(200);
  expect(await info.json()).toMatchObject({ result: { code: 200, transaction: { id: sessionId, status: "completed", amount: 2500 }, grossPayment: 2500 } });

  const forged = await page.request.post("/api/functions/refundSponsorship", { data: { data: { sponsorSessionId: sessionId } }, headers: { Origin: "https://evil.example" } });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toEqual({ error: { status: "PERMISSION_DENIED", message: "This request came from another site and was refused." } });
  expect(await sessionState(page, sessionId)).toMatchObject({ refundRequest: null, sandboxRefunds: 0 });

  const refund = await page.request.post("/api/functions/refundSponsorship", { data: { data: { sponsorSessionId: sessionId } } });
  expect(refund.status()).toBe(200);
  expect(await refund.json()).toMatchObject({ result: { code: 200 } });
  await expect.poll(async () => (await sessionState(page, sessionId)).status, { timeout: 15_000 }).toBe("refunded");

  const guest = await browser.newContext({ baseURL });
  const signedOut = await guest.request.post("/api/functions/sponsorPaymentInfo", { data: { data: { sponsorSessionId: sessionId } } });
  expect(signedOut.status()).toBe(401);
  expect((await signedOut.json()).error.status).toBe("UNAUTHENTICATED");
  await guest.close();

  // A disabled account is signed out here too, on its next call, as on every page.
  await testHooks(page.request).disableAccount(made.email);
  const disabled = await page.request.post("/api/functions/sponsorPaymentInfo", { data: { data: { sponsorSessionId: sessionId } } });
  expect(disabled.status()).toBe(401);
});

test("another person gets 404 on the Info page and cannot refund", async ({ page, browser }) => {
  const made = await creatorWithPayments(page, { paid: 1 });
  const sessionId = made.paid[0]!;
  const stranger = await otherClient(browser);
  await verifiedUser(stranger.page);

  const info = await stranger.page.goto(`${LIST}/${sessionId}`);
  expect(info?.status()).toBe(404);
  const unknown = await stranger.page.goto(`${LIST}/ss_000000000000000000000000`);
  expect(unknown?.status()).toBe(404);
  const refund = await stranger.page.request.post(`${LIST}/${sessionId}/refund`, { form: { returnTo: LIST, confirmed: "yes" }, maxRedirects: 0 });
  expect(refund.status()).toBe(404);
  const question = await stranger.page.goto(`${LIST}/${sessionId}/refund`);
  expect(question?.status()).toBe(404);
  await stranger.page.goto(LIST);
  await expect(stranger.page.getByText("You haven't gotten any sponsors yet.")).toBeVisible();
  await stranger.context.close();

  expect(await sessionState(page, sessionId)).toMatchObject({ status: "completed", refundRequest: null, sandboxRefunds: 0 });
  const own = await page.goto(`${LIST}/${sessionId}`);
  expect(own?.status()).toBe(200);
});

test("a creator with no payments sees the empty state; on a phone nothing scrolls sideways and axe finds nothing", async ({ page }) => {
  await verifiedUser(page);
  await page.setViewportSize(PHONE);
  await page.goto(DASHBOARD);
  await expect(page.getByText("You haven't gotten any sponsors yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "View All Sponsorships" })).toHaveAttribute("href", LIST);
  await noSidewaysScroll(page);
  await axeClean(page);
  await page.goto(`${LIST}?status=completed`);
  await expect(page.getByText("There are no completed payments to show.")).toBeVisible();
  await page.goto(LIST);
  await expect(page.getByText("You haven't gotten any sponsors yet.")).toBeVisible();
  await noSidewaysScroll(page);
  await axeClean(page);
});

test("without JavaScript, Refund asks on a page of its own, then posts and comes back to the list with a toast", async ({ page, browser, baseURL }) => {
  const made = await creatorWithPayments(page, { paid: 1 });
  const sessionId = made.paid[0]!;
  // A post that skipped the question is sent to it, and refunds nothing.
  const unasked = await page.request.post(`${LIST}/${sessionId}/refund`, { form: { returnTo: LIST }, maxRedirects: 0 });
  expect(unasked.status()).toBe(303);
  expect(unasked.headers().location).toBe(`${LIST}/${sessionId}/refund?returnTo=${encodeURIComponent(LIST)}`);
  expect(await sessionState(page, sessionId)).toMatchObject({ status: "completed", refundRequest: null });
  // The question's own page (axe runs scripts, so it looks with the JavaScript-enabled browser).
  await page.goto(unasked.headers().location!);
  await expect(page.getByRole("heading", { level: 1, name: "Refund" })).toBeVisible();
  await axeClean(page);

  const plain = await otherClient(browser, { javaScriptEnabled: false, baseURL, storageState: await page.context().storageState() });
  await plain.page.goto(`${LIST}?status=completed`);
  const refundButton = cardOf(plain.page, sessionId).getByRole("button", { name: "Refund", exact: true });
  await refundButton.click();
  const question = plain.page.getByRole("heading", { name: /^Are you sure\? Refund \$25\.00 to fan-.+@sponsor\.example\?$/ });
  await expect(question).toBeVisible();
  await plain.page.getByRole("link", { name: "Cancel" }).click();
  await expect(plain.page).toHaveURL(`${LIST}?status=completed`);
  expect(await sessionState(page, sessionId)).toMatchObject({ status: "completed", refundRequest: null });
  await refundButton.click();
  await plain.page.getByRole("button", { name: "Yes, refund" }).click();
  await expect(plain.page).toHaveURL(`${LIST}?status=completed`);
  await expect(plain.page.getByText("Refund requested. The payment shows as refunded once the payment provider confirms it.")).toBeVisible();
  await expect.poll(async () => (await sessionState(page, sessionId)).status, { timeout: 15_000 }).toBe("refunded");
  await plain.page.goto(`${LIST}?status=refunded`);
  await expect(cardOf(plain.page, sessionId).getByText("Status: Refunded")).toBeVisible();
  await expect(cardOf(plain.page, sessionId).getByRole("button", { name: "Refund", exact: true })).toBeDisabled();
  await plain.context.close();
});
