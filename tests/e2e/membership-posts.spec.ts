import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";
import { expect, mailCount, otherClient, signedInAs, test, waitForMail } from "./fixtures";

/**
 * A creator writes to one tier of their members: compose, preview with the recipient count, send,
 * on a phone without JavaScript. Only that tier's current members get the mail (the SMTP sink,
 * as a mail server sees it), a member opens the post from the mail's link with no account, another
 * tier's member's link does not open it, an ended membership's link says so and where to join
 * again, and the mail's one-click link stops posts' mail. The page, tiers and members come from
 * the memberships-posts-seed hook.
 */
const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

async function expectNoSideScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

test("a creator writes to one tier with a preview; only that tier's members get it, and only their links open it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signedInAs(page, { prefix: "posts-creator", name: "Posts Creator", type: "creator" });
  const prefix = `posts-${randomBytes(4).toString("hex")}`;
  const seed = await testHooks(page.request).membershipsPostsSeed(prefix);
  const member = (name: string) => seed.members.find((m) => m.name === name)!;

  // The creator, on a phone without JavaScript: a refused field is marked beside it, then Preview, then Send.
  const creator = await otherClient(browser, { javaScriptEnabled: false, viewport: PHONE, storageState: await page.context().storageState() });
  const compose = creator.page;
  await compose.goto("/app/members/posts/new");
  await expect(compose.getByRole("heading", { name: "Write to your members" })).toBeVisible();
  await compose.getByLabel("Who gets it").selectOption({ label: "Silver members only" });
  await compose.getByLabel("Your post").fill("Thank you, Silver members.\n\nThe new studio opens on Friday.");
  await compose.getByRole("button", { name: "Preview" }).click();
  await expect(compose.getByText("Write a subject")).toBeVisible();
  await expect(compose.getByLabel("Subject")).toHaveAttribute("aria-invalid", "true");
  await expect(compose.getByLabel("Your post")).toHaveValue("Thank you, Silver members.\n\nThe new studio opens on Friday.");

  await compose.getByLabel("Subject").fill("Studio news for Silver");
  await compose.getByRole("button", { name: "Preview" }).click();
  await expect(compose.getByTestId("recipient-count")).toHaveText("2 members of Posts Studio (Silver members) will get this email.");
  const email = compose.getByRole("article", { name: "The email" });
  await expect(email).toContainText("Subject: Posts Studio: Studio news for Silver");
  await expect(email).toContainText("The new studio opens on Friday.");
  await expect(compose.getByRole("article", { name: "The members' page" })).toContainText("For silver members");
  await compose.getByRole("button", { name: "Send to 2 members" }).click();
  await expect(compose).toHaveURL("/app/members/posts");
  await expect(compose.getByText("Sent to 2 members (Silver members, Posts Studio).")).toBeVisible();
  const sent = compose.getByRole("list", { name: "Sent posts" }).getByRole("listitem");
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText("Studio news for Silver");
  await expect(sent).toContainText("Silver members · 2 recipients");
  await creator.context.close();

  // Silver's two members get the mail, with their own post link and one-click mute headers; Gold's do not.
  const mail = await waitForMail(member("silver-cy").email, { subject: /^Posts Studio: Studio news for Silver$/ });
  await waitForMail(member("silver-di").email, { subject: /^Posts Studio: Studio news for Silver$/ });
  for (const gold of ["gold-ana", "gold-ben", "gold-old"]) expect(await mailCount(member(gold).email)).toBe(0);
  expect(mail.text).toContain("The new studio opens on Friday.");
  const memberUrl = member("silver-cy").memberUrl;
  expect(mail.headers["list-unsubscribe"]).toBe(`<${memberUrl}/mute>`);
  expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const postLink = mail.links.find((link) => link.startsWith(`${memberUrl}/posts/post_`));
  expect(postLink).toBeDefined();
  const postPath = new URL(postLink!).pathname.slice(new URL(memberUrl).pathname.length);

  // The member opens it from the mail, signed out, without JavaScript.
  const fan = await otherClient(browser, { javaScriptEnabled: false, viewport: PHONE });
  await fan.page.goto(postLink!);
  await expect(fan.page.getByRole("heading", { level: 1, name: "Studio news for Silver" })).toBeVisible();
  await expect(fan.page.getByText("The new studio opens on Friday.")).toBeVisible();
  await fan.page.getByRole("link", { name: "← All posts from Posts Studio" }).click();
  await expect(fan.page.getByRole("list", { name: "Posts" }).getByRole("link", { name: "Studio news for Silver" })).toBeVisible();

  // A Gold member's own link does not open a post written for Silver.
  const goldTry = await fan.page.goto(`${member("gold-ana").memberUrl}${postPath}`);
  expect(goldTry?.status()).toBe(403);
  await expect(fan.page.getByText("This post was written for the members of another tier, so your membership does not open it.")).toBeVisible();
  await fan.page.goto(`${member("gold-ana").memberUrl}/posts`);
  await expect(fan.page.getByText("Posts Studio has not written to members yet.")).toBeVisible();

  // An ended membership's link: a clear page, and the way back to the creator's page.
  const ended = await fan.page.goto(`${member("gold-old").memberUrl}/posts`);
  expect(ended?.status()).toBe(410);
  await expect(fan.page.getByRole("heading", { name: "Your membership has ended" })).toBeVisible();
  await expect(fan.page.getByRole("link", { name: "Join Posts Studio again" })).toHaveAttribute("href", `${BIO_ORIGIN}/${seed.customEnding}`);

  // A link that is not ours: a clear 404.
  const forged = await fan.page.goto(`${memberUrl.slice(0, -3)}abc/posts`);
  expect(forged?.status()).toBe(404);
  await expect(fan.page.getByText("This member link is not valid.")).toBeVisible();

  // The mail's mute link: a confirm button, then posts' mail off. A mail client's one-click POST works from anywhere.
  await fan.page.goto(`${memberUrl}/mute`);
  await fan.page.getByRole("button", { name: "Stop emails of posts" }).click();
  await expect(fan.page.getByText("Done: we won't email you Posts Studio's posts any more.")).toBeVisible();
  const oneClick = await fan.page.request.post(`${member("silver-di").memberUrl}/mute`, {
    form: { "List-Unsubscribe": "One-Click" },
    headers: { Origin: "https://mail.example", "Sec-Fetch-Site": "cross-site" },
  });
  expect(oneClick.status()).toBe(200);
  await fan.context.close();

  // Both Silver members muted: a new post to Silver has nobody to mail, and says so before anything is sent.
  await page.goto("/app/members/posts/new");
  await page.getByLabel("Who gets it").selectOption({ label: "Silver members only" });
  await page.getByLabel("Subject").fill("Anyone there?");
  await page.getByLabel("Your post").fill("A long unbroken word: " + "x".repeat(300));
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("recipient-count")).toContainText("Nobody would get this email now");
  await expect(page.getByRole("button", { name: "Send to 0 members" })).toBeDisabled();
  await expectNoSideScroll(page);

  // Two more posts to everyone make the day's three; a fourth is refused, saying when the next may go.
  const sendToAll = async (subject: string) => {
    await page.goto("/app/members/posts/new");
    await page.getByLabel("Who gets it").selectOption({ label: "All members of Posts Studio" });
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Your post").fill("For everyone.");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("recipient-count")).toHaveText("2 members of Posts Studio (All members) will get this email.");
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && response.url().includes("/app/members/posts/new"));
    await page.getByRole("button", { name: "Send to 2 members" }).click();
    return answered;
  };
  await sendToAll("Second post");
  await expect(page).toHaveURL("/app/members/posts");
  await sendToAll("Third post");
  await expect(page).toHaveURL("/app/members/posts");
  await expect(page.getByText("You can send 0 more posts in the next 24 hours.")).toBeVisible();
  const refused = await sendToAll("One too many");
  expect(refused.status()).toBe(429);
  await expect(page.getByRole("alert")).toContainText(/You can send 3 posts in 24 hours, and you have\. You can send your next post on .+ UTC \(in 24 hours\)\./);
  await expect(page.getByLabel("Subject")).toHaveValue("One too many");
});
