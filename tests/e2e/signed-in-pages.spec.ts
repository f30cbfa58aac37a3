import type { Browser, Page, Response } from "@playwright/test";
import { expect, signedInAs, test } from "./fixtures";

// Signed-in pages rendered from identical data are sent again instead of
// rendered again (server/platform/http/rendered-documents.ts). Each person still sees their own hearts at
// once, never another's, and the page's scripts run with the request's own nonce.
// Everyone here is a new account of the test's own: the hearts toggled are nobody else's.
const LIST = "/app/opportunities?tags[]=technology";

// Both tests heart the first post on the same list, whose heart count is in every label: run side
// by side, one's toggle lands between the other's click and its check. In order, in one worker.
test.describe.configure({ mode: "default" });

async function signedInPage(browser: Browser, prefix: string, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await signedInAs(page, { prefix });
  return page;
}

/** The list page's own document (not a script, not its data), as a form post's redirect brings it back. */
const isListDocument = (response: Response) => response.request().resourceType() === "document" && response.request().method() === "GET" && response.url().includes("/app/opportunities?");

const firstHeart = (page: Page) => page.getByRole("main").getByRole("button", { name: /^(Save|Unsave) “/ }).first();

test("a heart shows at once for its giver on a page seen before, and never for anyone else", async ({ browser }) => {
  const giver = await signedInPage(browser, "giver", false);
  const other = await signedInPage(browser, "other", false);
  await giver.goto(LIST);
  await giver.reload(); // the same data twice: the second is the kept document
  const before = (await firstHeart(giver).getAttribute("aria-label"))!;
  await other.goto(LIST);
  const otherBefore = (await firstHeart(other).getAttribute("aria-label"))!;

  // The form posts, and the page comes back at the same address: wait for that page itself,
  // since the address alone matches before the post has even been sent.
  await Promise.all([giver.waitForResponse(isListDocument), firstHeart(giver).click()]);
  await expect(giver).toHaveURL(/tags(\[\]|%5B%5D)=technology/);
  const after = (await firstHeart(giver).getAttribute("aria-label"))!;
  expect(after).not.toBe(before);
  await other.reload();
  // Only the count moved for the other person: their own Save/Unsave is as it was.
  expect((await firstHeart(other).getAttribute("aria-label"))!.split(" ")[0]).toBe(otherBefore.split(" ")[0]);

  // Back to the first state: the document kept from before is sent again, and it is right.
  await firstHeart(giver).click();
  await expect(firstHeart(giver)).toHaveAttribute("aria-label", before);
  await giver.context().close();
  await other.context().close();
});

test("a kept page's scripts run: its nonce is the request's own", async ({ browser }) => {
  const page = await signedInPage(browser, "nonce", true);
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await page.goto("/app");
  await page.goto("/app");
  // Client-side navigation needs the hydrated router.
  await page.locator('[data-track="dashboard:view-all:large"]').click();
  await expect(page.getByRole("heading", { name: "Opportunities", level: 1 })).toBeVisible();
  await page.goto(LIST);
  await page.goto(LIST);
  const heart = firstHeart(page);
  const before = (await heart.getAttribute("aria-label"))!;
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => navigations.push(frame.url()));
  // Each toggle is answered before the next click (the button takes one toggle at a time).
  // The toggle's answer and the list's revalidation after it: only then is the button idle again.
  const toggled = () =>
    Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST" && response.url().includes("/heart")),
      page.waitForResponse((response) => response.request().method() === "GET" && response.url().includes("/app/opportunities.data")),
    ]);
  await Promise.all([toggled(), heart.click()]);
  await expect(heart).not.toHaveAttribute("aria-label", before);
  await Promise.all([toggled(), heart.click()]);
  await expect(heart).toHaveAttribute("aria-label", before);
  // Hearted through the page's script (a fetcher), not by a full page load.
  expect(navigations).toEqual([]);
  expect(refused).toEqual([]);
  await page.context().close();
});
