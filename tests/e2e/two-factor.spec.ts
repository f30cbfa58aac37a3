import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { wrongAuthenticatorCode } from "#tests/support/authenticator";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, signIn, signedInAs, test, totpCode } from "./fixtures";

async function axeClean(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/** My Account → Two-factor sign-in: password, QR code and key, first code; the recovery codes shown once. */
async function enrolFromMyAccount(page: Page, password: string): Promise<{ secret: string; codes: string[] }> {
  await page.goto("/app/account");
  const section = page.getByRole("region", { name: "Two-factor sign-in" });
  await expect(section).toContainText("Off:");
  await section.getByRole("link", { name: "Set up two-factor sign-in" }).click();
  await expect(page).toHaveURL("/app/account/two-factor");
  await expect(page.getByRole("heading", { name: "Two-factor sign-in", level: 1 })).toBeVisible();
  await axeClean(page);

  await page.getByLabel("Your password").fill("not-my-password-1");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByText("That password is not right. Please try again.")).toBeVisible();
  await page.getByLabel("Your password").fill(password);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();

  await expect(page.getByRole("img", { name: /QR code to add .* to your authenticator app/ })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
  await keyShownInGroups(page, secret);
  await axeClean(page);

  await page.getByLabel("6-digit code").fill("000000");
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByText("That code is not right. Check the app and try the newest code.")).toBeVisible();
  // The same key is still there after a wrong code (the enrolment waits for its first right code).
  await expect(page.getByTestId("totp-secret")).toHaveText(secret);
  await page.getByLabel("6-digit code").fill(await totpCode(secret));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();

  await expect(page.getByRole("heading", { name: "Two-factor sign-in is on" })).toBeVisible();
  const codes = (await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents()).map((code) => code.trim());
  expect(codes).toHaveLength(10);
  await expect(page.getByRole("link", { name: "Download the codes" })).toHaveAttribute("download", "recovery-codes.txt");
  await axeClean(page);
  await page.getByRole("link", { name: "I have saved my codes, continue" }).click();
  await expect(page).toHaveURL("/app/account");
  await expect(page.getByRole("region", { name: "Two-factor sign-in" })).toContainText("On:");
  return { secret, codes };
}

/**
 * The key to type in shows in groups of four; a screen reader reads the groups apart; the Copy
 * button copies the key unbroken, and so does selecting it.
 */
async function keyShownInGroups(page: Page, secret: string) {
  const shown = page.getByTestId("totp-secret");
  const groups = (await shown.locator("[data-key-group]").allTextContents()).map((group) => group.trim());
  expect(groups.join("")).toBe(secret);
  expect(groups.slice(0, -1).every((group) => group.length === 4)).toBe(true);
  expect(groups.at(-1)!.length).toBeLessThanOrEqual(4);
  const key = page.getByRole("group", { name: "Key for typing in (time-based)" });
  await expect(key.locator(".sr-only").first()).toHaveText(groups.join(" "));
  // The groups sit apart on screen.
  const [first, second] = [(await shown.locator("[data-key-group]").nth(0).boundingBox())!, (await shown.locator("[data-key-group]").nth(1).boundingBox())!];
  expect(second.x > first.x + first.width || second.y > first.y).toBe(true);

  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await key.getByRole("button", { name: "Copy the key" }).click();
  await expect(key.getByRole("status")).toHaveText("Copied!");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const selected = await shown.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element.parentElement!);
    const selection = getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return selection.toString();
  });
  expect(selected).toBe(secret);
}

/** Signed out, then the password: the browser is at the code step, not signed in. */
async function passwordStep(page: Page, email: string, password: string) {
  await page.context().clearCookies();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/signin\/two-factor\?redirectTo=%2Fapp$/);
  // Half signed in is not signed in: the account's pages still ask for a sign-in.
  const probe = await page.request.get("/app/account", { maxRedirects: 0 });
  expect(probe.status()).toBe(302);
  expect(probe.headers()["location"]).toMatch(/^\/signin\?/);
}

test.describe("two-factor sign-in", () => {
  test("enrolled from My Account; signing in asks for the code; a recovery code works once", async ({ page }) => {
    test.setTimeout(120_000);
    const { email, password } = await signedInAs(page, { prefix: "twofa" });
    const { secret, codes } = await enrolFromMyAccount(page, password);

    await passwordStep(page, email, password);
    await expect(page.getByRole("heading", { name: "Two-factor sign-in", level: 1 })).toBeVisible();
    await axeClean(page);
    await page.getByLabel("6-digit code").fill(await wrongAuthenticatorCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That code is not right. Check the app and try the newest code.")).toBeVisible();
    const used = await totpCode(secret);
    await page.getByLabel("6-digit code").fill(used);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL("/app");

    // The same code overheard and typed again: refused, whoever types it.
    await passwordStep(page, email, password);
    await page.getByLabel("6-digit code").fill(used);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That code has been used already. Wait for the next code in the app and enter it.")).toBeVisible();
    await expect(page).toHaveURL(/\/signin\/two-factor/);

    // A recovery code instead of the app.
    await passwordStep(page, email, password);
    await page.getByRole("link", { name: "Use a recovery code" }).click();
    await axeClean(page);
    await page.getByLabel("Recovery code").fill(codes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL("/app");

    // The same recovery code again: refused, and the browser is still not signed in.
    await passwordStep(page, email, password);
    await page.getByRole("link", { name: "Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(codes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That recovery code is not right, or it has been used already.")).toBeVisible();
    await expect(page).toHaveURL(/\/signin\/two-factor/);
    await page.getByLabel("Recovery code").fill(codes[1]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL("/app");
  });

  test("wrong codes are refused, then rate limited with a clear message, even for the right code", async ({ page }) => {
    test.setTimeout(120_000);
    const { email, password } = await signedInAs(page, { prefix: "twofa-guess" });
    const { totpSecret } = await testHooks(page.request).makeStaff(email);
    await passwordStep(page, email, password);
    const wrong = await wrongAuthenticatorCode(totpSecret!);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel("6-digit code").fill(wrong);
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByText("That code is not right. Check the app and try the newest code.")).toBeVisible();
    }
    await page.getByLabel("6-digit code").fill(await totpCode(totpSecret!));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText(/^Too many attempts\. Please try again in \d+ minutes?\.$/)).toBeVisible();
    await expect(page).toHaveURL(/\/signin\/two-factor/);
  });

  test("the code step without a password step goes back to sign-in", async ({ page }) => {
    await page.goto("/signin/two-factor?redirectTo=%2Fapp%2Fadmin");
    await expect(page).toHaveURL("/signin?redirectTo=%2Fapp%2Fadmin");
  });
});

test("on a phone the key shows in groups of four that fit the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { password } = await signedInAs(page, { prefix: "twofactor-phone" });
  await page.goto("/app/account/two-factor");
  await page.getByLabel("Your password").fill(password);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: /QR code to add .* to your authenticator app/ })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await keyShownInGroups(page, secret);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await axeClean(page);
});
