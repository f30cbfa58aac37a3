import type { Page } from "@playwright/test";
import { expect, signedInAs, test } from "./fixtures";

/**
 * No page scrolls sideways on a phone, whatever people type:
 * one poster fills every field with the longest unbroken words the form takes.
 */
const PHONE = { width: 390, height: 844 };
const word = (letter: string, length: number) => `${letter.toUpperCase()}${letter.repeat(length - 1)}`;

const LONG = {
  profileName: word("n", 99),
  title: word("t", 99),
  organization: word("o", 99),
  description: `${word("d", 600)} ${word("e", 390)}`,
  bullets: [word("b", 99), word("c", 99), word("f", 99)].join("\n"),
  website: `https://${word("w", 200)}.example/${"path/".repeat(10)}${word("q", 300)}?${"x=1&".repeat(40)}`,
  contactName: word("k", 99),
  contactEmail: `${word("m", 60)}@${word("h", 30)}.example`,
  contactPhone: "5".repeat(99),
};

async function expectNoSideScroll(page: Page, label: string) {
  const { width, culprits } = await page.evaluate((limit) => {
    // The innermost elements that reach past the screen's edge, to name in a failure.
    const wide = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > limit + 0.5);
    const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.split(" ").join(".")}` : ""}`;
    return { width: document.documentElement.scrollWidth, culprits: innermost.slice(0, 5).map(name) };
  }, PHONE.width);
  expect.soft(width, `${label} is ${width} px wide on a ${PHONE.width} px phone: ${culprits.join(" | ")}`).toBeLessThanOrEqual(PHONE.width);
}

test.use({ viewport: PHONE });

test("a poster's longest unbroken words in every field never widen a page past a 390 px phone", async ({ page }) => {
  test.setTimeout(120_000);
  await signedInAs(page, { prefix: "long-words", name: LONG.profileName, type: "sponsor" });
  await page.goto("/app");
  await expectNoSideScroll(page, "the dashboard");

  await page.goto("/app/account");
  await expect(page.getByRole("main")).toContainText(LONG.profileName);
  await expectNoSideScroll(page, "My Account");

  await page.goto("/app/opportunities/new");
  await page.getByLabel("Title").fill(LONG.title);
  await page.getByLabel("Organization").fill(LONG.organization);
  await page.getByLabel("Description").fill(LONG.description);
  await page.getByLabel("Highlights").fill(LONG.bullets);
  await page.getByLabel("Website").fill(LONG.website);
  await page.getByLabel("Minimum contribution (US dollars)").fill("10000000");
  await page.getByLabel("Contact name").fill(LONG.contactName);
  await page.getByLabel("Contact email").fill(LONG.contactEmail);
  await page.getByLabel("Contact phone").fill(LONG.contactPhone);
  await page.getByLabel("esports sponsorship").check();
  await page.getByRole("button", { name: "Post opportunity" }).click();

  await expect(page).toHaveURL(/\/app\/opportunities\/\d{10}_[A-Za-z0-9]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(LONG.title);
  await expect(page.getByRole("link", { name: LONG.website })).toBeVisible();
  await expectNoSideScroll(page, "the opportunity's page");
  const postUrl = new URL(page.url()).pathname;

  // Saved by its own poster, so it shows on Liked Posts as well as My Posts.
  const heart = page.getByRole("button", { name: /^Save “/ });
  const saved = page.waitForResponse((response) => /\/heart(\.data)?(\?|$)/.test(response.url()) && response.request().method() === "POST");
  await heart.click();
  expect((await saved).ok()).toBe(true);

  const pages: [string, string][] = [
    ["/app/opportunities", "the opportunity list"],
    ["/app/opportunities?tags[]=esports%20sponsorship&group=state", "the filtered list with the States group open"],
    ["/app/account/opportunities", "My Posts"],
    ["/app/account/opportunities/liked", "Liked Posts"],
    [`/app/opportunities/edit?docId=${postUrl.split("/").pop()}`, "the edit page"],
    [`${postUrl}?delete=confirm`, "the delete confirmation"],
    ["/app", "the dashboard"],
  ];
  for (const [path, label] of pages) {
    await page.goto(path);
    if (!path.startsWith("/app/opportunities/edit") && path !== "/app") await expect(page.getByText(LONG.title).first()).toBeVisible();
    await expectNoSideScroll(page, label);
  }

  // The form with every field refused keeps the long values and still fits.
  await page.goto(`/app/opportunities/edit?docId=${postUrl.split("/").pop()}`);
  await page.getByLabel("Title").fill(`${LONG.title}XX`);
  await page.getByLabel("Website").fill(LONG.website.replace("https://", ""));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Must be under 100 characters")).toBeVisible();
  await expect(page.getByText("URL must start with either http:// or https://")).toBeVisible();
  await expectNoSideScroll(page, "the form with its errors");
});

for (const path of ["/", "/youtube-sponsorships", "/support", "/legal/terms-of-service", "/blog", "/featured", "/signin", "/signup", "/no-such-page", "/app/payments/checkout?page=mayamakes&kind=tip"]) {
  test(`${path} fits a 390 px phone`, async ({ page }) => {
    await page.goto(path);
    await expectNoSideScroll(page, path);
  });
}
