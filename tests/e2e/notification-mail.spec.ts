import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomInt } from "node:crypto";
import { E2E_PORTS } from "#tests/support/e2e-ports";
import { expect, linkIn, otherClient, signedInAs, signUp, test, uniqueEmail, waitForMail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

/**
 * Notification mail by choice: My Account's
 * Notifications section turns a kind's mail off, an event of that kind then
 * writes the notification but sends no mail, a kind still on sends mail with the
 * one-click unsubscribe headers, and its unsubscribe link works signed out.
 * Notifications are read through the notification-mail test hook (the Notifications screen is
 * another issue's); mail through the SMTP sink, as a mail server sees it.
 */
const hooked = (page: Page) => testHooks(page.request).notificationMail();

async function verifiedUser(page: Page): Promise<string> {
  const { email } = await signedInAs(page, { prefix: "notify", name: "Notified Creator" });
  return email;
}

const sinkMail = async (to: string) => (await (await fetch(`http://127.0.0.1:${E2E_PORTS.control}/mail?to=${encodeURIComponent(to)}`)).json()) as { subject: string }[];

test("verifying the email writes one welcome alert, which is not mailed by default", async ({ page }) => {
  // Verification is this test's subject: signed up and verified through the forms and the mail.
  const email = uniqueEmail("notify");
  await signUp(page, { email, password: "tidy-harbor-42", name: "Notified Creator" });
  await expect(page).toHaveURL("/app/verify");
  await page.goto(linkIn(await waitForMail(email, { subject: /Verify your email/ }), "/app/verify"));
  await expect(page).toHaveURL("/app");
  await expect.poll(async () => (await hooked(page)).notifications).toEqual([{ kind: "welcome", title: "Welcome to Sponsorgrid!" }]);
  // Following the link again (a replay, a second click) writes no second welcome.
  await page.goto(linkIn(await waitForMail(email, { subject: /Verify your email/ }), "/app/verify"));
  await page.goto("/app/account");
  expect((await hooked(page)).notifications).toHaveLength(1);
  await expect.poll(async () => (await hooked(page)).mailWaiting).toBe(0);
  expect((await sinkMail(email)).map((mail) => mail.subject)).toEqual([expect.stringMatching(/Verify your email/)]);
});

test("preferences turn a kind's mail off; a kind still on mails with one-click headers; the unsubscribe link works signed out", async ({ page, browser }) => {
  const email = await verifiedUser(page);

  // My Account: in-app always, one "Email me" box per kind, money events on by default.
  await page.goto("/app/account");
  const section = page.getByRole("region", { name: "Notifications" });
  await expect(section).toContainText("In-app: always");
  const group = section.getByRole("group", { name: "Email me about" });
  await expect(group.getByRole("checkbox", { name: "Payment received" })).toBeChecked();
  await expect(group.getByRole("checkbox", { name: "Payouts enabled" })).toBeChecked();
  await expect(group.getByRole("checkbox", { name: "Daily hearts" })).not.toBeChecked();
  expect((await new AxeBuilder({ page }).include("#notifications").analyze()).violations).toEqual([]);
  await group.getByRole("checkbox", { name: "Payment received" }).uncheck();
  await section.getByRole("button", { name: "Save email preferences" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Email preferences saved." })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Payment received" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Refund done" })).toBeChecked();

  // Payouts enabled (still on): the notification and its mail, with List-Unsubscribe and one-click POST.
  await testHooks(page.request).paymentsReady();
  const payoutsMail = await waitForMail(email, { subject: /^Payouts enabled$/ });
  expect(payoutsMail.headers["list-unsubscribe"]).toMatch(/^<http:\/\/localhost:\d+\/unsubscribe\/v1\.[^>]+>/);
  expect(payoutsMail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  expect(payoutsMail.text).toContain("Your payout account is ready");

  // A payment (turned off): the notification is there, and once nothing waits in the outbox, no mail came.
  await testHooks(page.request).sponsorPayments({ paid: 1, amount: 2500 });
  await expect.poll(async () => (await hooked(page)).notifications.map((notification) => notification.kind)).toContain("payment-received");
  await expect.poll(async () => (await hooked(page)).mailWaiting).toBe(0);
  const subjects = (await sinkMail(email)).map((mail) => mail.subject);
  expect(subjects).toContain("Payouts enabled");
  // Its mail's subject would be the notification's title: the amount and who paid.
  expect(subjects.filter((subject) => subject.includes("tipped you"))).toEqual([]);

  // The unsubscribe link from the mail, in a browser that is signed out: a confirm page, then off.
  const unsubscribeUrl = /^<([^>]+)>/.exec(payoutsMail.headers["list-unsubscribe"]!)![1]!;
  expect(payoutsMail.links).toContain(unsubscribeUrl);
  const guest = await otherClient(browser);
  await guest.page.goto(unsubscribeUrl);
  await expect(guest.page.getByRole("heading", { name: "Unsubscribe", level: 1 })).toBeVisible();
  await expect(guest.page.getByText("Stop emails about “Payouts enabled”?")).toBeVisible();
  expect((await new AxeBuilder({ page: guest.page }).analyze()).violations).toEqual([]);
  await guest.page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(guest.page.getByRole("status")).toContainText("You're unsubscribed: we won't email you about “Payouts enabled” any more.");
  // Following it again is harmless.
  await guest.page.goto(unsubscribeUrl);
  await guest.page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(guest.page.getByRole("status")).toContainText("You're unsubscribed");
  await guest.context.close();

  await page.goto("/app/account");
  await expect(page.getByRole("checkbox", { name: "Payouts enabled" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Refund done" })).toBeChecked();
});

test("a mail client's one-click POST unsubscribes with 200; tampered and expired links show an error and change nothing", async ({ page, playwright }) => {
  const email = await verifiedUser(page);
  await testHooks(page.request).paymentsReady();
  const mail = await waitForMail(email, { subject: /^Payouts enabled$/ });
  const unsubscribeUrl = /^<([^>]+)>/.exec(mail.headers["list-unsubscribe"]!)![1]!;
  const token = new URL(unsubscribeUrl).pathname.split("/").pop()!;
  const [version, uid, , expires, signature] = token.split(".") as [string, string, string, string, string];

  // As Gmail or Apple Mail send it (RFC 8058): cross-site, no cookies, the one-click body.
  const mailClient = await playwright.request.newContext({ extraHTTPHeaders: { "X-Forwarded-For": `127.${randomInt(1, 255)}.9.${randomInt(1, 255)}` } });
  const tampered = [version, uid, "refund-done", expires, signature].join(".");
  const refused = await mailClient.post(`/unsubscribe/${tampered}`, { form: { "List-Unsubscribe": "One-Click" }, headers: { Origin: "https://mail.example" } });
  expect(refused.status()).toBe(400);
  const oneClick = await mailClient.post(unsubscribeUrl, { form: { "List-Unsubscribe": "One-Click" }, headers: { Origin: "https://mail.example" } });
  expect(oneClick.status()).toBe(200);
  await mailClient.dispose();

  await page.goto("/app/account");
  await expect(page.getByRole("checkbox", { name: "Payouts enabled" })).not.toBeChecked();
  // The tampered link named another kind: that one is untouched.
  await expect(page.getByRole("checkbox", { name: "Refund done" })).toBeChecked();

  await page.goto(`/unsubscribe/${tampered}`);
  await expect(page.getByRole("alert")).toContainText("This unsubscribe link is not valid.");
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  const expired = await testHooks(page.request).expiredUnsubscribe("refund-done");
  const response = await page.goto(expired.url);
  expect(response!.status()).toBe(404);
  await expect(page.getByRole("alert")).toContainText("This unsubscribe link has expired.");
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  await page.goto("/app/account");
  await expect(page.getByRole("checkbox", { name: "Refund done" })).toBeChecked();
});
