import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, signedInAs, signInAsStaff, test } from "./fixtures";

/**
 * A chargeback end to end: a creator's sandbox payment is disputed from the
 * sandbox's payouts dashboard (playing the sponsor's bank), the sandbox's
 * event reaches our webhook, the creator is told with the deadline and sees
 * the payment as Disputed, staff see it in the queue, the ledger has the
 * dispute with its fee; then the bank decides and everything follows.
 */
const LIST = "/app/account/sponsors/payments";
const PHONE = { width: 375, height: 812 };

async function staffPage(browser: Browser): Promise<Page> {
  const { page } = await otherClient(browser);
  await signInAsStaff(page);
  return page;
}

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const cardOf = (page: Page, sessionId: string) => page.getByRole("listitem").filter({ has: page.locator(`a[href$="/payments/${sessionId}"]`) });

test("a disputed sandbox payment: the creator is told with the deadline, staff see it, the ledger has the fee; won and lost follow", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signedInAs(page, { prefix: "disputed", name: "Disputed Creator" });
  const hooks = testHooks(page.request);
  const { accountId } = await hooks.paymentsReady();
  const made = await hooks.sponsorPayments({ paid: 2, amount: 2500 });
  const [wonSession, lostSession] = made.paid as [string, string];
  const state = (session: string) => hooks.sponsorSession(session);
  const wonIntent = (await state(wonSession)).paymentIntentId!;

  // The sponsor's bank disputes the payment, from the sandbox's payouts dashboard.
  await page.goto((await hooks.sandbox.login(accountId!)).url);
  await expect(page.getByRole("heading", { level: 1, name: "Payouts dashboard" })).toBeVisible();
  const disputeForms = page.getByRole("form", { name: /^Test actions for the payment of/ });
  await expect(disputeForms).toHaveCount(2);
  // Newest first: the second payment made is listed first.
  const wonForm = disputeForms.last();
  await wonForm.getByRole("button", { name: "Open a dispute" }).click();
  await expect(page.getByText(/The sponsor's bank disputed the payment/)).toBeVisible();
  await expect(wonForm.getByRole("button", { name: "Dispute won" })).toBeVisible();
  await expect(page.getByText(/dispute fee \$15\.00/)).toBeVisible();

  // The event reaches our webhook: the ledger has the dispute with the provider's fee, the payment is disputed.
  await expect.poll(async () => (await state(wonSession)).status, { timeout: 30_000 }).toBe("disputed");
  const entries = (await state(wonSession)).entries;
  expect(entries.filter((e) => e.kind === "dispute")).toEqual([{ kind: "dispute", gross: -2500, providerFee: 1500, providerReference: expect.stringMatching(/^du_/) }]);

  // The creator is told: the amount, the deadline, what to do.
  await page.goto("/app/notifications");
  const notice = page.getByRole("list", { name: "Your notifications" }).getByRole("listitem").filter({ hasText: "Dispute opened" });
  await expect(notice).toContainText("$25.00");
  await expect(notice).toContainText(/Evidence is due by [A-Z][a-z]+ \d{1,2}, \d{4}/);
  await expect(notice).toContainText("Do not refund this payment now");

  // Their payment shows Disputed with the deadline, and its Info page the guidance and the fee.
  await page.goto(LIST);
  const card = cardOf(page, wonSession);
  await expect(card).toContainText("Disputed");
  await expect(card).toContainText(/evidence due by [A-Z][a-z]+ \d{1,2}, \d{4}/);
  await axeClean(page);
  await page.goto(`${LIST}/${wonSession}`);
  await expect(page.getByRole("region", { name: "Dispute" })).toContainText("Send");
  // The card fee ($1.03) and the dispute fee ($15.00), both the platform's.
  await expect(page.getByRole("region", { name: "Fees" })).toContainText("$16.03");

  // Staff see it in the queue, open first, with a link to the payment.
  const staff = await staffPage(browser);
  await staff.goto("/app/admin/disputes");
  await expect(staff.getByRole("heading", { name: "Disputes", level: 1 })).toBeVisible();
  const row = staff.getByRole("row").filter({ has: staff.getByRole("link", { name: new RegExp(`Payment ${wonSession}`) }) });
  await expect(row).toContainText("Needs response");
  await expect(row).toContainText("$25.00");
  await expect(row).toContainText("$15.00");
  await expect(row).toContainText("Disputed Creator");
  await expect(row.getByRole("link")).toHaveAttribute("href", `/app/admin/payments/${wonSession}`);
  await axeClean(staff);

  // The bank decides for the creator, from the dashboard: the money comes back, the fee does not.
  await page.goto((await hooks.sandbox.login(accountId!)).url);
  await page.getByRole("form", { name: /^Test actions for the payment of/ }).last().getByRole("button", { name: "Dispute won" }).click();
  await expect(page.getByText(/The bank decided for the creator/)).toBeVisible();
  await expect.poll(async () => (await state(wonSession)).status, { timeout: 30_000 }).toBe("completed");
  expect((await state(wonSession)).entries.filter((e) => e.kind === "dispute_reversal")).toEqual([
    { kind: "dispute_reversal", gross: 2500, providerFee: 0, providerReference: entries.find((e) => e.kind === "dispute")!.providerReference },
  ]);
  await page.goto(LIST);
  await expect(cardOf(page, wonSession)).toContainText("Dispute won");
  await staff.reload();
  await expect(row).toContainText("Won");

  // The other payment: disputed and lost through the test hook.
  const lostIntent = (await state(lostSession)).paymentIntentId!;
  expect(lostIntent).not.toBe(wonIntent);
  await hooks.sandbox.dispute(lostIntent);
  await expect.poll(async () => (await state(lostSession)).status, { timeout: 30_000 }).toBe("disputed");
  await hooks.sandbox.dispute(lostIntent, "lost");
  await expect.poll(async () => {
    await page.goto(LIST);
    return (await cardOf(page, lostSession).textContent()) ?? "";
  }, { timeout: 30_000 }).toContain("Dispute lost");
  await expect(cardOf(page, lostSession)).toContainText("Disputed");
  await page.goto("/app/notifications");
  await expect(page.getByRole("list", { name: "Your notifications" }).getByRole("listitem").filter({ hasText: "Dispute lost" })).toHaveCount(1);
  await expect(page.getByRole("list", { name: "Your notifications" }).getByRole("listitem").filter({ hasText: "Dispute won" })).toHaveCount(1);
  await staff.reload();
  await expect(staff.getByRole("row").filter({ has: staff.getByRole("link", { name: new RegExp(`Payment ${lostSession}`) }) })).toContainText("Lost");

  // At a phone's width each dispute is a card, every value led by its column's name: nothing scrolls sideways.
  await staff.setViewportSize(PHONE);
  await staff.reload();
  await expect(staff.getByRole("row").filter({ has: staff.getByRole("link", { name: new RegExp(`Payment ${lostSession}`) }) }).getByText("Evidence due", { exact: true })).toBeVisible();
  expect(await staff.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await staff.context().close();
});
