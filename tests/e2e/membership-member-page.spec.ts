import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, otherClient, signedInAs, test, uniqueEmail, waitForMail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import type { MemberPageQuery } from "#server/tools/test-hooks/contract";

/**
 * A member's own page, opened by the signed link of their mail, signed out: what they have,
 * what it costs and when it renews, a form for each change (cancel asks first, without
 * JavaScript too), a link that is tampered with or replaced refused, new links by mail, and the
 * signed-in fan's list. The provider's side of each change is unit-tested against a fake
 * (server/domains/memberships/member-actions.test.ts): no change here calls the provider.
 */
const PHONE = { width: 390, height: 844 };
const NOT_VALID = "This member link is not valid.";

async function expectAccessibleAndFits(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), label).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} scrolls sideways`).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** A creator (left signed in on `page`) with a page, tiers and one membership of Gold for `memberEmail`. */
async function membershipFor(page: Page, memberEmail: string, status?: MemberPageQuery["status"]) {
  await signedInAs(page, { prefix: "member-creator", name: "Maya", type: "creator" });
  return testHooks(page.request).memberPage({ memberEmail, status, name: `Maya Makes ${randomBytes(3).toString("hex")}` });
}

test("a member opens their page by its link, signed out on a phone, sees what they have, and cancelling asks first", async ({ page, browser }) => {
  const made = await membershipFor(page, uniqueEmail("member"));
  const { context, page: fan } = await otherClient(browser, { viewport: PHONE });
  const response = await fan.goto(made.path);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["cache-control"]).toContain("no-store");
  // The page's own policy comes last, and the last one a browser knows wins: the token is never sent on as a Referer.
  expect(response?.headers()["referrer-policy"]?.split(/[\n,]\s*/).at(-1)).toBe("no-referrer");
  await expect(fan.getByRole("heading", { level: 1, name: "Gold" })).toBeVisible();
  await expect(fan.getByText(`Your membership of ${made.pageName}`)).toBeVisible();
  await expect(fan.getByTestId("membership-status")).toHaveText("Active");
  await expect(fan.getByText("$5/month", { exact: true })).toBeVisible();
  await expect(fan.getByText("Renews on")).toBeVisible();
  await expect(fan.getByRole("listitem").filter({ hasText: "A monthly behind-the-scenes video" })).toBeVisible();
  await expect(fan.getByText(/^Changes apply from your next renewal on .+: a new tier starts now, its price from then\. Nothing is charged today\.$/)).toBeVisible();
  await expect(fan.getByRole("button", { name: "Switch to Silver" })).toBeVisible();
  await expect(fan.getByRole("button", { name: "Pay yearly: $50/year" })).toBeVisible();
  await expect(fan.getByRole("button", { name: "Update your card" })).toBeVisible();
  // A paused tier takes no one: it is not offered.
  await expect(fan.getByText("Paused tier")).toHaveCount(0);
  await expect(fan.getByRole("link", { name: "Posts for members" })).toHaveAttribute("href", `${made.path}/posts`);
  await expectAccessibleAndFits(fan, "member page on a phone");

  await fan.getByRole("link", { name: "Cancel membership" }).click();
  await expect(fan.getByRole("heading", { name: "Cancel your membership?" })).toBeVisible();
  await expect(fan.getByText(/^You stay a member until .+ and won't be charged again\. You can resume it any time before then\.$/)).toBeVisible();
  await expect(fan.getByRole("button", { name: "Yes, cancel my membership" })).toBeVisible();
  await expectAccessibleAndFits(fan, "cancel confirmation on a phone");
  await fan.getByRole("link", { name: "Keep my membership" }).click();
  await expect(fan).toHaveURL(made.path);
  await expect(fan.getByRole("heading", { name: "Cancel your membership?" })).toHaveCount(0);
  await context.close();

  // Without JavaScript: every button is a form, and the confirmation a page of its own.
  const noScript = await otherClient(browser, { javaScriptEnabled: false });
  await noScript.page.goto(made.path);
  await noScript.page.getByRole("link", { name: "Cancel membership" }).click();
  await expect(noScript.page).toHaveURL(`${made.path}?confirm=cancel`);
  await expect(noScript.page.getByRole("button", { name: "Yes, cancel my membership" })).toBeVisible();
  await noScript.context.close();
});

test("a past-due member is told to update their card; an ended one is offered to join again and nothing to change", async ({ page, browser }) => {
  const pastDue = await membershipFor(page, uniqueEmail("member-late"), "past_due");
  const { context, page: fan } = await otherClient(browser);
  await fan.goto(pastDue.path);
  await expect(fan.getByTestId("membership-status")).toHaveText("Past due");
  await expect(fan.getByRole("alert").filter({ hasText: "Payment failed — update your card" })).toBeVisible();
  await expect(fan.getByRole("button", { name: "Update your card" })).toHaveCount(1);
  await expectAccessibleAndFits(fan, "past-due member page");

  const ended = await testHooks(page.request).memberPage({ memberEmail: uniqueEmail("member-gone"), status: "ended", name: "Maya Ended" });
  await fan.goto(ended.path);
  await expect(fan.getByTestId("membership-status")).toHaveText("Ended");
  await expect(fan.getByText("Ended on")).toBeVisible();
  await expect(fan.getByRole("link", { name: "Join Maya Ended again" })).toBeVisible();
  await expect(fan.getByRole("link", { name: "Cancel membership" })).toHaveCount(0);
  await expect(fan.getByRole("button", { name: "Switch to Silver" })).toHaveCount(0);
  await context.close();
});

test("a tampered link is refused, and new links come by mail and stop every earlier one", async ({ page, browser }) => {
  const memberEmail = uniqueEmail("member-links");
  const made = await membershipFor(page, memberEmail);
  const { context, page: fan } = await otherClient(browser);

  const last = made.path.at(-1) === "A" ? "B" : "A";
  const tampered = await fan.goto(`${made.path.slice(0, -1)}${last}`);
  expect(tampered?.status()).toBe(404);
  await expect(fan.getByRole("heading", { level: 1, name: "Member link not valid" })).toBeVisible();
  await expect(fan.getByRole("alert")).toContainText(NOT_VALID);
  await expectAccessibleAndFits(fan, "member link not valid");

  await fan.goto(made.path);
  await expect(fan.getByText("This page opens from the link in every email we send you about this membership (to m•••@e2e.example).", { exact: false })).toBeVisible();
  await fan.getByRole("link", { name: "Send me a new link" }).click();
  await expect(fan.getByRole("heading", { level: 1, name: "A new member link" })).toBeVisible();
  await expectAccessibleAndFits(fan, "new link, asked first");
  await fan.getByRole("button", { name: "Email me a new link" }).click();
  await expect(fan.getByRole("status").filter({ hasText: "We emailed a new link to m•••@e2e.example. Every earlier link, this one included, no longer works." })).toBeVisible();

  const mail = await waitForMail(memberEmail, { subject: /^Your new member link for Maya Makes/ });
  const fresh = mail.links.find((href) => new URL(href).pathname.startsWith("/membership/"));
  expect(fresh).toBeTruthy();
  const stale = await fan.goto(made.path);
  expect(stale?.status()).toBe(404);
  await expect(fan.getByRole("alert")).toContainText(NOT_VALID);
  const opened = await fan.goto(new URL(fresh!).pathname);
  expect(opened?.status()).toBe(200);
  await expect(fan.getByRole("heading", { level: 1, name: "Gold" })).toBeVisible();
  await context.close();
});

test("a signed-in fan finds the membership they joined as a guest with their address, from My Account, and manages it", async ({ page, browser }) => {
  const fanEmail = uniqueEmail("member-fan");
  const made = await membershipFor(page, fanEmail);
  // The creator has joined no one.
  await page.goto("/app/account/memberships");
  await expect(page.getByTestId("no-memberships")).toHaveText("You're not a member of anyone yet. Join a creator from the tiers on their page.");

  const { context, page: fan } = await otherClient(browser);
  await testHooks(fan.request).signedInAccount({ email: fanEmail, password: "tidy-harbor-42", name: "Fan Person", type: "sponsor" });
  await fan.goto("/app/account");
  await fan.getByRole("link", { name: "My memberships" }).click();
  await expect(fan.getByRole("heading", { level: 1, name: "My memberships" })).toBeVisible();
  const row = fan.getByTestId("my-membership");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("heading", { name: made.pageName })).toBeVisible();
  await expect(row).toContainText("Gold · $5/month");
  await expect(row).toContainText("Active");
  await expect(row).toContainText(/Renews on \w+ \d+, \d{4}/);
  await expectAccessibleAndFits(fan, "my memberships");
  await row.getByRole("link", { name: `Manage your membership of ${made.pageName}` }).click();
  await expect(fan).toHaveURL(made.path);
  await expect(fan.getByRole("heading", { level: 1, name: "Gold" })).toBeVisible();
  await context.close();
});
