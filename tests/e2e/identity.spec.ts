import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { DEMO, expect, linkIn, mailCount, signedInAs, signIn, signUp, test, uniqueEmail, waitForMail } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

const PASSWORD = "tidy-harbor-42";
const SENT = "We sent an email to verify your email address. Please follow the link provided in the email to continue.";

for (const type of ["creator", "sponsor"] as const) {
  test(`signs up as a ${type}, verifies through the received email and lands on that side's first run`, async ({ page }) => {
    const email = uniqueEmail(type);
    await signUp(page, { email, password: PASSWORD, name: `E2E ${type}`, type });
    await expect(page).toHaveURL("/app/verify");
    await expect(page.getByText(SENT)).toBeVisible();

    const mail = await waitForMail(email, { subject: /Verify your email/ });
    expect(mail.text).toContain("/app/verify?oobCode=");
    await page.goto(linkIn(mail, "/app/verify"));
    // A creator goes straight to making their page; a sponsor to the home, which opens with a sponsor's first steps.
    if (type === "creator") {
      await expect(page).toHaveURL("/app/account/bizbio/new");
    } else {
      await expect(page).toHaveURL("/app");
      await expect(page.getByRole("heading", { name: "Find creators for your brand" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "What would you like to do today?" })).toBeVisible();
    }
    await expect(page.getByRole("status").filter({ hasText: "Your email address is verified" })).toBeVisible();

    await page.goto("/app/account");
    await expect(page.getByRole("region", { name: "Account Info" })).toContainText(type === "creator" ? "Creator" : "Sponsor");
    await expect(page.getByRole("region", { name: "Account Info" })).toContainText(email);
  });
}

test("a sign-up with any other type value records no type", async ({ page }) => {
  const email = uniqueEmail("notype");
  await signUp(page, { email, password: PASSWORD, type: "admin" });
  await expect(page).toHaveURL("/app/verify");
  await page.goto(linkIn(await waitForMail(email), "/app/verify"));
  await expect(page).toHaveURL("/app");
  await page.goto("/app/account");
  await expect(page.getByRole("region", { name: "Account Info" })).toContainText("No type chosen");
});

test("the sign-up form shows the password rules from the server and which one was broken", async ({ page }) => {
  await page.goto("/signup");
  await expect(page.getByTestId("password-rules")).toHaveText("At least 6 characters");
  const policyRead = page.waitForRequest("**/api/password-policy");
  await signUp(page, { email: uniqueEmail("weak"), password: "abc" });
  await expect(page.getByText("Your password needs: at least 6 characters.")).toBeVisible();
  await policyRead;
  const policy = await (await page.request.get("/api/password-policy")).json();
  expect(policy).toMatchObject({ minLength: 6, maxLength: null });
});

test("signing up with an address in use shows its code", async ({ page }) => {
  await signUp(page, { email: DEMO.email, password: PASSWORD });
  await expect(page.getByRole("alert")).toHaveText("email-already-in-use");
});

test("sign-in asks for both fields", async ({ page }) => {
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Required")).toHaveCount(2);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test.describe("sign-in errors show the exact texts and are logged", () => {
  test("wrong password", async ({ page }) => {
    await signIn(page, DEMO.email, "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("Password is incorrect. Please try again.");
    const entries = await testHooks(page.request).signInFailures(DEMO.email);
    expect(entries[0]).toEqual({ description: "wrong-password", subtype: "SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR", type: "error" });
  });

  test("unknown account", async ({ page }) => {
    const email = uniqueEmail("nobody");
    await signIn(page, email, "whatever-1");
    await expect(page.getByRole("alert")).toHaveText("We couldn't find an account with that email address. Please try again.");
    const entries = await testHooks(page.request).signInFailures(email);
    expect(entries).toEqual([{ description: "user-not-found", subtype: "SIGN_IN_WITH_EMAIL_AND_PASSWORD_ERROR", type: "error" }]);
  });

  test("invalid email", async ({ page }) => {
    await signIn(page, "not-an-email", "whatever-1");
    await expect(page.getByRole("alert")).toHaveText("Email is invalid. Please try again.");
  });

  test("disabled account", async ({ page }) => {
    const email = uniqueEmail("disabled");
    await signUp(page, { email, password: PASSWORD });
    await expect(page).toHaveURL("/app/verify");
    await page.context().clearCookies();
    await testHooks(page.request).disableAccount(email);
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole("alert")).toHaveText(
      "Your account has been disabled. Please contact support for further information.",
    );
  });
});

test("an unverified user is sent to /app/verify from signed-in pages, and can resend", async ({ page }) => {
  const email = uniqueEmail("unverified");
  await signUp(page, { email, password: PASSWORD });
  await waitForMail(email);
  for (const path of ["/app", "/app/account", "/app/notifications"]) {
    await page.goto(path);
    await expect(page).toHaveURL("/app/verify");
  }
  const before = await mailCount(email);
  await page.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText(`We sent a new verification email to ${email}.`)).toBeVisible();
  await waitForMail(email, { after: before });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Your email address isn't verified yet.")).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("an invalid verification link says so", async ({ page }) => {
  await page.goto("/app/verify?oobCode=not-a-real-code");
  await expect(page.getByText("The link you followed from your email is invalid. Please try sending another verification email.")).toBeVisible();
});

test("verification works without JavaScript too", async ({ browser }) => {
  const email = uniqueEmail("nojs");
  const setup = await browser.newPage();
  await signUp(setup, { email, password: PASSWORD });
  await expect(setup).toHaveURL("/app/verify");
  await setup.close();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(linkIn(await waitForMail(email), "/app/verify"));
  await expect(page.getByText("Verifying your email address....")).toBeVisible();
  await page.getByRole("button", { name: "Verify my email address" }).click();
  // This browser never signed in to the account: the owner chooses the password (ADR 0009).
  await expect(page).toHaveURL(/\/reset-password\?token=.+&verified=1$/);
  await page.getByLabel("New password", { exact: true }).fill("nojs-own-pass-5");
  await page.getByLabel("Confirm new password").fill("nojs-own-pass-5");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL("/signin");
  await signIn(page, email, "nojs-own-pass-5");
  await expect(page).toHaveURL("/app");
  await context.close();
});

test("password reset from the sign-in page, through the email, ends other sessions", async ({ page, browser }) => {
  const email = uniqueEmail("reset");
  await signUp(page, { email, password: PASSWORD });
  await page.goto(linkIn(await waitForMail(email), "/app/verify"));
  await expect(page).toHaveURL("/app");

  // Another device stays signed in until the reset.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, email, PASSWORD);
  await expect(otherPage).toHaveURL("/app");

  const signedOut = await browser.newContext();
  const resetPage = await signedOut.newPage();
  await resetPage.goto("/signin");
  await resetPage.getByLabel("Email").fill(email);
  const before = await mailCount(email);
  await resetPage.getByRole("button", { name: "send me a reset link" }).click();
  await expect(resetPage.getByText(`If an account exists for ${email}, we've sent it a link`)).toBeVisible();

  const mail = await waitForMail(email, { subject: /Reset your/, after: before });
  await resetPage.goto(linkIn(mail, "/reset-password"));
  await resetPage.getByLabel("New password", { exact: true }).fill("abc");
  await resetPage.getByLabel("Confirm new password").fill("abc");
  await resetPage.getByRole("button", { name: "Change password" }).click();
  await expect(resetPage.getByText("Your password needs: at least 6 characters.")).toBeVisible();
  await resetPage.getByLabel("New password", { exact: true }).fill("brand-new-pass-7");
  await resetPage.getByLabel("Confirm new password").fill("brand-new-pass-7");
  await resetPage.getByRole("button", { name: "Change password" }).click();
  await expect(resetPage).toHaveURL("/signin");
  await expect(resetPage.getByText("Your password has been changed.")).toBeVisible();

  await signIn(resetPage, email, PASSWORD);
  await expect(resetPage.getByRole("alert")).toHaveText("Password is incorrect. Please try again.");
  await signIn(resetPage, email, "brand-new-pass-7");
  await expect(resetPage).toHaveURL("/app");

  await page.goto("/app/account");
  await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fapp%2Faccount/);
  await otherPage.goto("/app");
  await expect(otherPage).toHaveURL(/\/signin/);
  await other.close();
  await signedOut.close();
});

test("My Account's Reset Password pill says Sending..., then Email Sent! for 4 s, then goes back", async ({ page }) => {
  const email = uniqueEmail("pill");
  await signUp(page, { email, password: PASSWORD });
  await page.goto(linkIn(await waitForMail(email), "/app/verify"));
  await expect(page).toHaveURL("/app");
  // The page's clock is ours: "4 s" is counted in page time, however slow the machine is.
  await page.clock.install();
  await page.goto("/app/account");
  const before = await mailCount(email);
  const pill = page.getByRole("button", { name: "Reset Password" });
  const sent = page.getByRole("button", { name: "Email Sent!" });
  await page.clock.pauseAt(Date.now() + 60_000);
  await pill.click();
  // The pill shows "Email Sent!" from a zero-delay timer once the request is back: page time moves
  // a millisecond per try until it does, so at most a few tenths of a second pass in the page.
  await expect(async () => {
    await page.clock.runFor(1);
    await expect(sent).toBeVisible({ timeout: 100 });
  }).toPass({ timeout: 15_000 });
  await waitForMail(email, { subject: /Reset your/, after: before });
  await page.clock.runFor(3_000);
  await expect(sent).toBeVisible();
  await page.clock.runFor(1_000);
  await expect(page.getByRole("button", { name: "Reset Password" })).toBeVisible();
});

test("My Account shows account info and saves the public profile name", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  await page.goto("/app/account");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My Account");
  const info = page.getByRole("region", { name: "Account Info" });
  await expect(info).toContainText(DEMO.email);
  await expect(info).toContainText("Maya Chen");
  await expect(info).toContainText("Creator");
  const profile = page.getByRole("region", { name: "Public Profile" });
  await expect(profile).toContainText("demo-creator");
  await expect(page.getByRole("link", { name: "Pro Portal" })).toHaveAttribute("href", "/app/pro");
  // The demo creator's payout account is complete on the sandbox (the seed onboards it), so tips are on.
  const tips = page.getByRole("region", { name: "Collect Tips" });
  await expect(tips).toContainText("Payouts are on: your bio pages take payments.");
  await expect(tips.getByRole("link", { name: "My Payments" })).toHaveAttribute("href", "/app/account/payments");

  // Saving is done by a new account of the test's own: the demo creator's name is on pages and
  // posts other specs read while this one runs.
  await page.context().clearCookies();
  await signedInAs(page, { prefix: "profile-name", name: "Maya Makes" });
  await page.goto("/app/account");
  await profile.getByLabel("Profile name").fill("x".repeat(100));
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(profile.getByText("Must be under 100 characters")).toBeVisible();
  await profile.getByLabel("Profile name").fill("");
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(profile.getByText("Required")).toBeVisible();
  await profile.getByLabel("Profile name").fill("Maya Makes Things");
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Profile saved." })).toBeVisible();
  await expect(profile.getByLabel("Profile name")).toHaveValue("Maya Makes Things");
  await profile.getByLabel("Profile name").fill("Maya Makes");
  await profile.getByRole("button", { name: "Save" }).click();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("remember me keeps the session across browser restarts; without it the session ends with the browser", async ({ page }) => {
  const session = async () => (await page.context().cookies()).find((cookie) => cookie.name === "sg.session_token");
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  expect((await session())?.expires).toBe(-1);

  await page.context().clearCookies();
  await signIn(page, DEMO.email, DEMO.password, { remember: true });
  await expect(page).toHaveURL("/app");
  const days = ((await session())!.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29);
  expect((await session())?.httpOnly).toBe(true);
  expect((await session())?.sameSite).toBe("Lax");
});

test("the user menu shows the unread count and signs out to the home page", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  await page.getByText("Account", { exact: true }).click();
  const menu = page.getByRole("navigation", { name: "Account" });
  await expect(menu.getByRole("link", { name: "Notifications (2)" })).toHaveAttribute("href", "/app/notifications");
  await expect(menu.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/app");
  await expect(menu.getByRole("link", { name: "My Account" })).toHaveAttribute("href", "/app/account");
  await menu.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Sign In" })).toBeVisible();
  await page.goto("/app");
  await expect(page).toHaveURL("/signin?redirectTo=%2Fapp");
});

/** A new, verified account signed in on `page`. */
async function verifiedAccount(page: Page, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  await signUp(page, { email, password: PASSWORD });
  await page.goto(linkIn(await waitForMail(email), "/app/verify"));
  await expect(page).toHaveURL("/app");
  return email;
}

test("an attacker's many failures from other addresses never lock the owner out: the owner solves the spam check and is in", async ({
  page,
  request,
}) => {
  const email = await verifiedAccount(page, "owner");
  await page.context().clearCookies();

  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const response = await request.post("/signin", {
      form: { intent: "signin", email, password: `guess-${i}-password` },
      headers: { "X-Forwarded-For": `203.0.113.${i + 1}` },
    });
    statuses.push(response.status());
  }
  // Three guesses, then every attempt needs a solved captcha; nobody is told to wait.
  expect(statuses).toEqual([401, 401, 401, ...Array(9).fill(400)]);

  await signIn(page, email, PASSWORD);
  // SPEC §8: no message of its own, so the generic one, with the spam check on a second line.
  const notification = page.getByRole("alert");
  await expect(notification.locator("p")).toHaveText([
    "Sorry, something went wrong. Please try again.",
    "There have been several failed sign-ins to this account. Please complete the spam check and sign in again.",
  ]);
  await expect(page.getByRole("group", { name: "Spam check" })).toBeVisible();
  await page.waitForFunction(() => customElements.get("altcha-widget") !== undefined);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL("/app");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // Once the owner is in, the next sign-in needs no spam check.
  await page.context().clearCookies();
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL("/app");
});

test("a network that keeps failing waits longer each time (IPv6 by /64); other networks are not slowed", async ({ request }) => {
  const attempt = (forwardedFor: string) =>
    request.post("/signin", {
      form: { intent: "signin", email: uniqueEmail("net"), password: "wrong-password-1" },
      headers: { "X-Forwarded-For": forwardedFor },
    });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await attempt(`2001:db8:99:1::${(i + 1).toString(16)}`)).status());
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  const refused = await attempt("2001:db8:99:1::ff");
  expect(refused.status()).toBe(429);
  // SPEC §8: a wait has no sign-in message of its own; the generic one, the wait on a second line.
  const html = await refused.text();
  expect(html).toContain("<p>Sorry, something went wrong. Please try again.</p>");
  expect(html).toMatch(/<p class="mt-1">Please wait \d+ seconds? before trying again\.<\/p>/);
  expect(html).not.toContain("Too many attempts");
  expect((await attempt("2001:db8:99:2::1")).status()).toBe(401);
});

test("a sign-in link that would lead to another host lands on the dashboard instead", async ({ page }) => {
  const email = await verifiedAccount(page, "redirect");
  await page.context().clearCookies();
  for (const target of ["/.//evil.example", "/%2F%2Fevil.example", "/%5Cevil.example", "/../..//evil.example"]) {
    await page.goto(`/signin?redirectTo=${encodeURIComponent(target)}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL("/app");
    await page.context().clearCookies();
  }
});

test("someone who signed up with another person's address loses their session and password when the owner verifies it", async ({ browser }) => {
  const email = uniqueEmail("preregistered");
  const attacker = await browser.newContext();
  const attackerPage = await attacker.newPage();
  await signUp(attackerPage, { email, password: PASSWORD });
  await expect(attackerPage).toHaveURL("/app/verify");

  // The real owner finds the mail in their inbox and follows it, in a browser that never signed in.
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await ownerPage.goto(linkIn(await waitForMail(email), "/app/verify"));
  await expect(ownerPage).toHaveURL(/\/reset-password\?token=.+&verified=1$/);
  await expect(ownerPage.getByText(/^Your email address is verified\..*any password set before the address was verified no longer works\.$/)).toBeVisible();

  // The attacker is out, and their password no longer opens the account.
  await attackerPage.goto("/app/account");
  await expect(attackerPage).toHaveURL(/\/signin\?redirectTo=%2Fapp%2Faccount/);
  await signIn(attackerPage, email, PASSWORD);
  await expect(attackerPage.getByRole("alert")).toHaveText("Password is incorrect. Please try again.");

  await ownerPage.getByLabel("New password", { exact: true }).fill("owners-own-pass-8");
  await ownerPage.getByLabel("Confirm new password").fill("owners-own-pass-8");
  await ownerPage.getByRole("button", { name: "Change password" }).click();
  await expect(ownerPage).toHaveURL("/signin");
  await expect(ownerPage.getByText("Your password is set. Sign in with your email and new password.")).toBeVisible();
  await signIn(ownerPage, email, "owners-own-pass-8");
  await expect(ownerPage).toHaveURL("/app");
  await ownerPage.goto("/app/account");
  await expect(ownerPage.getByRole("region", { name: "Account Info" })).toContainText(email);

  // Still refused after the owner's new password is set.
  await signIn(attackerPage, email, PASSWORD);
  await expect(attackerPage.getByRole("alert")).toHaveText("Password is incorrect. Please try again.");
  await attacker.close();
  await owner.close();
});

test("a disabled account's open session ends at once", async ({ page }) => {
  const email = await verifiedAccount(page, "disabled-live");
  await page.goto("/app/account");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My Account");
  await testHooks(page.request).disableAccount(email);
  await page.goto("/app/account");
  await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fapp%2Faccount/);
});

test("a password reset ends every other reset link of the account", async ({ page }) => {
  const email = uniqueEmail("twolinks");
  await signUp(page, { email, password: PASSWORD });
  await expect(page).toHaveURL("/app/verify");
  await page.context().clearCookies();
  const links: string[] = [];
  for (let i = 0; i < 2; i++) {
    await page.goto("/signin");
    await page.getByLabel("Email").fill(email);
    const before = await mailCount(email);
    await page.getByRole("button", { name: "send me a reset link" }).click();
    await expect(page.getByText(`If an account exists for ${email}, we've sent it a link`)).toBeVisible();
    links.push(linkIn(await waitForMail(email, { subject: /Reset your/, after: before }), "/reset-password"));
  }
  await page.goto(links[1]!);
  await page.getByLabel("New password", { exact: true }).fill("second-link-pass-1");
  await page.getByLabel("Confirm new password").fill("second-link-pass-1");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL("/signin");

  await page.goto(links[0]!);
  await page.getByLabel("New password", { exact: true }).fill("first-link-pass-2");
  await page.getByLabel("Confirm new password").fill("first-link-pass-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("This reset link is invalid or has expired.")).toBeVisible();
});
