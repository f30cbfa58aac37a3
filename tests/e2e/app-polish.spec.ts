import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { expect, signedInAs, test } from "./fixtures";
import { FOOTER_LINKS } from "./routes";
import { hookPages } from "#tests/support/test-hooks-client";

/**
 * The app's finish: the marketing footer only on public pages, the deadline's time zone the
 * browser's from a friendlier list, toasts kept off what a person acts on, and the chosen photo
 * previewed before it is sent. Each on a phone and on a desktop, with axe.
 */
const VIEWPORTS = [
  { name: "phone", viewport: { width: 390, height: 844 } },
  { name: "desktop", viewport: { width: 1280, height: 900 } },
] as const;

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
}

async function bioEditor(request: APIRequestContext, page: Page, name: string): Promise<string> {
  const response = await request.post("/app/account/bizbio/new", {
    data: new URLSearchParams([["name", name], ["customEnding", `polish_${randomBytes(4).toString("hex")}`], ["blurb", "Hello."]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto("/app/account/bizbio");
  return (await page.getByRole("listitem", { name, exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href"))!;
}

async function marketingFooter(page: Page) {
  const footer = page.getByRole("contentinfo");
  for (const [label, href] of FOOTER_LINKS) await expect(footer.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
}

/** The app's one line: help and the legal pages, none of the guides or the support column. */
async function appFooter(page: Page) {
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/legal/privacy-policy");
  await expect(footer.getByRole("link", { name: "Terms of Use" })).toHaveAttribute("href", "/legal/terms-of-service");
  await expect(footer.getByRole("link", { name: "Help" })).toHaveAttribute("href", "/support");
  for (const label of ["Frequently Asked Questions", "Code of Conduct", "Finding the Best Sponsorships", "Payments Support"]) {
    await expect(footer.getByRole("link", { name: label })).toHaveCount(0);
  }
}

function apart(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
}

async function notOver(toast: Locator, control: Locator) {
  await expect
    .poll(async () => {
      const [a, b] = [(await toast.boundingBox())!, (await control.boundingBox())!];
      return apart(a, b) ? "apart" : `toast ${JSON.stringify(a)} over ${JSON.stringify(b)}`;
    })
    .toBe("apart");
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport });

    test("public pages keep the marketing footer; the signed-in app, the editor and checkout's pages don't", async ({ page }) => {
      for (const path of ["/", "/app/opportunities", "/app/sponsors", "/app/profiles"]) {
        await page.goto(path);
        await marketingFooter(page);
      }
      await page.goto("/app/payments/success?session=nothing");
      await expect(page.getByRole("contentinfo")).toHaveCount(0);

      await signedInAs(page, { prefix: "footer", name: "Fran Footer" });
      const editor = await bioEditor(page.request, page, "Footer Page");
      for (const path of ["/app", "/app/notifications", "/app/account/payments", editor]) {
        await page.goto(path);
        await appFooter(page);
      }
      await axeClean(page);
      // One line on a desktop, a couple on a phone: not the marketing footer's tall block.
      expect((await page.getByRole("contentinfo").boundingBox())!.height).toBeLessThan(name === "phone" ? 110 : 70);
      // An opportunity list a signed-in person browses is still the public page.
      await page.goto("/app/opportunities");
      await marketingFooter(page);
    });

    test("the deadline's time zone is the browser's, from common zones and zones by region with their offsets", async ({ browser }) => {
      const context = await browser.newContext({ viewport, timezoneId: "Asia/Tokyo" });
      const page = await context.newPage();
      await signedInAs(page, { prefix: "zone", type: "sponsor" });
      await page.goto("/app/opportunities/new");
      const zone = page.getByLabel("Time zone");
      await expect(zone).toHaveValue("Asia/Tokyo");
      await expect(zone.locator("option:checked")).toHaveText("Tokyo (UTC+09:00)");
      const groups = await zone.locator("optgroup").evaluateAll((all) => all.map((group) => group.getAttribute("label")));
      expect(groups[0]).toBe("Common time zones");
      expect(groups).toEqual(expect.arrayContaining(["Africa", "Americas", "Asia", "Europe", "Pacific"]));
      await expect(zone.locator("option").first()).toHaveText("UTC (UTC+00:00)");
      await expect(zone.locator("optgroup[label=Europe] option", { hasText: /^Paris \(UTC\+0[12]:00\)$/ })).toHaveCount(1);
      await axeClean(page);

      // A choice made stays made.
      await zone.selectOption("Europe/Paris");
      await expect(zone).toHaveValue("Europe/Paris");
      await context.close();

      // Without JavaScript the server can't know the clock: UTC, from the same grouped list.
      const plain = await browser.newContext({ viewport, timezoneId: "Asia/Tokyo", javaScriptEnabled: false });
      const noScript = await plain.newPage();
      await signedInAs(noScript, { prefix: "zone-plain", type: "sponsor" });
      await noScript.goto("/app/opportunities/new");
      await expect(noScript.getByLabel("Time zone")).toHaveValue("UTC");
      await expect(noScript.getByLabel("Time zone").locator("optgroup").first()).toHaveAttribute("label", "Common time zones");
      await plain.close();
    });

    test("the chosen photo shows before it is sent, and the stored one after", async ({ page }) => {
      await signedInAs(page, { prefix: "preview", name: "Pia Preview" });
      await page.goto("/app/account");
      const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#2e86c1" } }).jpeg().toBuffer();
      await page.getByLabel("Profile photo", { exact: true }).setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: photo });
      const preview = page.getByRole("img", { name: "Preview of the chosen photo" });
      await expect(preview).toBeVisible();
      // The picture itself, not a broken image: the page's policy lets the browser show the chosen file.
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);
      await axeClean(page);
      await page.getByRole("button", { name: "Upload photo" }).click();
      await expect(page.getByText("Photo saved.")).toBeVisible();
      const stored = page.locator('#photo img[src*="/media/photos/"]');
      await expect(stored).toBeVisible();
      await expect.poll(() => stored.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await expect(preview).toHaveCount(0);
    });
  });
}

test.describe("toasts on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a toast is small, above the phone's bottom edge, and makes way for the screen's primary action", async ({ page }) => {
    await signedInAs(page, { prefix: "toast", type: "sponsor" });
    // Held still: the toast would close itself after five seconds.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    // A screen with nothing at its bottom: the toast sits there, centred, clear of the edge.
    await page.goto(hookPages.toast({ kind: "success", message: "All read", to: "/app/notifications" }));
    const first = page.locator("[data-toast=success]");
    await expect(first).toHaveText(/All read/);
    await expect(page.locator("[data-toast-placement]")).toHaveAttribute("data-toast-placement", "bottom");
    const box = (await first.boundingBox())!;
    expect(box.height).toBeLessThan(60);
    expect(844 - (box.y + box.height)).toBeGreaterThanOrEqual(8);
    expect(844 - (box.y + box.height)).toBeLessThan(40);
    expect(Math.abs(box.x + box.width / 2 - 195)).toBeLessThan(4);

    // A long form: wherever its primary action is, the toast is not over it.
    await page.goto(hookPages.toast({ kind: "success", message: "Draft kept", to: "/app/opportunities/new" }));
    const toast = page.locator("[data-toast=success]");
    await expect(toast).toHaveText(/Draft kept/);
    const post = page.getByRole("button", { name: "Post opportunity" });
    await notOver(toast, post);
    // Fields fill the bottom of the screen, so the toast sits at the top, below the header: the menu stays usable.
    await expect(page.locator("[data-toast-placement]")).toHaveAttribute("data-toast-placement", "top");
    await notOver(toast, page.getByRole("banner"));
    // The primary action brought to the bottom edge, where toasts go: the toast makes way.
    await post.evaluate((button) => button.scrollIntoView({ block: "end" }));
    await notOver(toast, post);
    await expect(page.locator("[data-toast-room]")).toHaveCount(1);
    // Keyboard focus scrolls fields clear of it while it shows.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollPaddingBottom)).not.toBe("auto");
    await page.keyboard.press("Escape");
    await expect(toast).toHaveCount(0);
    await expect(page.locator("[data-toast-room]")).toHaveCount(0);
  });

  test("a toast passes axe, closes with its Close button, and closes itself", async ({ page }) => {
    await signedInAs(page, { prefix: "toast-close" });
    await page.goto(hookPages.toast({ kind: "error", message: "That did not go through", to: "/app" }));
    await expect(page.getByRole("alert").filter({ hasText: "That did not go through" })).toBeVisible();
    await axeClean(page);

    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.goto(hookPages.toast({ kind: "info", message: "Saved for later", to: "/app" }));
    const toast = page.getByRole("status").filter({ hasText: "Saved for later" });
    await expect(toast).toBeVisible();
    await page.getByRole("button", { name: "Dismiss notification" }).click();
    await expect(toast).toHaveCount(0);

    await page.goto(hookPages.toast({ kind: "info", message: "Saved again", to: "/app" }));
    const again = page.getByRole("status").filter({ hasText: "Saved again" });
    await expect(again).toBeVisible();
    await page.clock.runFor(5_000);
    await expect(again).toHaveCount(0);
  });
});
