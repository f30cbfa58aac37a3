import { testHooks } from "#tests/support/test-hooks-client";
import { enterTwoFactorCode, expect, linkIn, setGoogleIdentity, signIn, signUp, test, uniqueEmail, waitForMail } from "./fixtures";

// One stand-in Google: its "current user" is shared, so these run one at a time.
test.describe.configure({ mode: "serial" });

async function continueWithGoogle(page: import("@playwright/test").Page, from = "/signin") {
  await page.goto(from);
  await page.getByRole("button", { name: "Continue with Google" }).click();
}

test("a new person signs in with Google and gets a verified account", async ({ page }) => {
  const email = uniqueEmail("google-new");
  await setGoogleIdentity({ email, name: "Gail Google", email_verified: true });
  await continueWithGoogle(page, "/signin?redirectTo=%2Fapp%2Faccount");
  await expect(page).toHaveURL("/app/account");
  const info = page.getByRole("region", { name: "Account Info" });
  await expect(info).toContainText(email);
  await expect(info).toContainText("Gail Google");
  await expect(info).toContainText("No type chosen");
});

test("a sponsor who joins with Google from 'I'm a sponsor' is recorded as a sponsor", async ({ page }) => {
  const email = uniqueEmail("google-sponsor");
  await setGoogleIdentity({ email, name: "Sam Rivera", email_verified: true });
  await continueWithGoogle(page, "/signup?type=sponsor&redirectTo=%2Fapp%2Faccount");
  await expect(page).toHaveURL("/app/account");
  await expect(page.getByRole("region", { name: "Account Info" })).toContainText("Sponsor");
  await expect(page.getByRole("region", { name: "Account Info" })).not.toContainText("No type chosen");
});

async function verifiedPasswordAccount(page: import("@playwright/test").Page, email: string, name: string) {
  await signUp(page, { email, password: "tidy-harbor-42", name });
  await expect(page).toHaveURL("/app/verify");
  await page.goto(linkIn(await waitForMail(email), "/app/verify"));
  await expect(page).toHaveURL("/app");
  await page.context().clearCookies();
}

test("Google joins the existing password account of the same verified email, never a second one", async ({ page, browser }) => {
  const email = uniqueEmail("google-link");
  await verifiedPasswordAccount(page, email, "Lena Linked");

  await setGoogleIdentity({ email, name: "Lena via Google", email_verified: true });
  await continueWithGoogle(page, "/signin?redirectTo=%2Fapp%2Faccount");
  await expect(page).toHaveURL("/app/account");
  // Same account: the name chosen at sign-up, and the password still works.
  await expect(page.getByRole("region", { name: "Account Info" })).toContainText("Lena Linked");
  const fresh = await browser.newPage();
  await signIn(fresh, email, "tidy-harbor-42");
  await expect(fresh).toHaveURL("/app");
  await fresh.close();
});

test("an address Google has not verified is refused with a clear message", async ({ page }) => {
  const email = uniqueEmail("google-unverified");
  await verifiedPasswordAccount(page, email, "Vera Verified");
  await setGoogleIdentity({ email, name: "Mallory", email_verified: false });
  await continueWithGoogle(page);
  await expect(page).toHaveURL(/\/signin\?error=/);
  await expect(page.getByRole("alert")).toContainText("An account with this email already exists.");
});

test("Google cannot take over an account whose owner never verified the address", async ({ page }) => {
  const email = uniqueEmail("google-prehijack");
  await signUp(page, { email, password: "tidy-harbor-42" });
  await expect(page).toHaveURL("/app/verify");
  await page.context().clearCookies();
  await setGoogleIdentity({ email, name: "Real Owner", email_verified: true });
  await continueWithGoogle(page);
  await expect(page).toHaveURL(/\/signin\?error=account_not_linked/);
  await expect(page.getByRole("alert")).toContainText("An account with this email already exists.");
});

test("a Google-only account deletes itself by typing its email address, as it has no password to give", async ({ page }) => {
  const email = uniqueEmail("google-leaving");
  await setGoogleIdentity({ email, name: "Gone Google", email_verified: true });
  await continueWithGoogle(page, "/signin?redirectTo=%2Fapp%2Faccount");
  await expect(page).toHaveURL("/app/account");
  const section = page.getByRole("region", { name: "Delete Account" });
  await section.getByText("Delete my account", { exact: true }).click();
  await expect(section.getByLabel("Current password")).toHaveCount(0);
  await section.getByLabel("Type your email address to confirm").fill("someone-else@example.com");
  await section.getByRole("button", { name: "Yes, delete my account" }).click();
  await expect(page.getByRole("region", { name: "Delete Account" }).getByText("Type the email address of this account exactly to delete it.")).toBeVisible();

  await page.getByRole("region", { name: "Delete Account" }).getByLabel("Type your email address to confirm").fill(email);
  await page.getByRole("region", { name: "Delete Account" }).getByRole("button", { name: "Yes, delete my account" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();
  // Google again makes a new, empty account: nothing of the old one is there.
  await continueWithGoogle(page, "/signin?redirectTo=%2Fapp%2Faccount");
  await expect(page).toHaveURL("/app/account");
  await expect(page.getByRole("region", { name: "Account Info" })).toContainText("No type chosen");
});

test("a Google sign-in of an account with two-factor asks for the code too, and is not signed in before it", async ({ page }) => {
  const email = uniqueEmail("google-2fa");
  await setGoogleIdentity({ email, name: "Tess Twofactor", email_verified: true });
  await continueWithGoogle(page, "/signin?redirectTo=%2Fapp%2Faccount");
  await expect(page).toHaveURL("/app/account");
  const { totpSecret } = await testHooks(page.request).makeStaff(email);
  await page.context().clearCookies();

  await continueWithGoogle(page, "/signin?redirectTo=%2Fapp%2Faccount");
  await expect(page).toHaveURL("/signin/two-factor?redirectTo=%2Fapp%2Faccount");
  const probe = await page.request.get("/app/account", { maxRedirects: 0 });
  expect(probe.status()).toBe(302);
  expect(probe.headers()["location"]).toMatch(/^\/signin\?/);
  await enterTwoFactorCode(page, totpSecret!);
  await expect(page).toHaveURL("/app/account");
  await expect(page.getByRole("region", { name: "Account Info" })).toContainText(email);
});
