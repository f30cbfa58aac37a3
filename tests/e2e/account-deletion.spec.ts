import AxeBuilder from "@axe-core/playwright";
import { expect, signedInAs, signIn, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";

const PASSWORD = "tidy-harbor-42";

test("a person deletes their account from My Account: password asked again, payouts closed, signed out, gone for good", async ({ page }) => {
  const { email } = await signedInAs(page, { prefix: "leaving", name: "Leaving Person", password: PASSWORD });
  // A payout account at the sandbox, which the deletion must close first.
  await testHooks(page.request).paymentsReady();

  await page.goto("/app/account");
  const section = page.getByRole("region", { name: "Delete Account" });
  await expect(section).toContainText("Your payout account and any Pro subscription are closed at Sandbox first.");
  await section.getByText("Delete my account", { exact: true }).click();
  await expect(section.getByText("Are you sure? This can't be undone.")).toBeVisible();
  expect((await new AxeBuilder({ page }).include("#delete-account").analyze()).violations).toEqual([]);

  // The wrong password deletes nothing.
  await section.getByLabel("Current password").fill("not-my-password-1");
  await section.getByRole("button", { name: "Yes, delete my account" }).click();
  await expect(page.getByRole("region", { name: "Delete Account" }).getByText("Password is incorrect. Please try again.")).toBeVisible();
  await page.goto("/app/account");
  await expect(page.getByRole("region", { name: "Account Info" })).toContainText(email);

  const again = page.getByRole("region", { name: "Delete Account" });
  await again.getByText("Delete my account", { exact: true }).click();
  await again.getByLabel("Current password").fill(PASSWORD);
  await again.getByRole("button", { name: "Yes, delete my account" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();

  // Signed out, and the account is gone: signing in finds nobody.
  await page.goto("/app/account");
  await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fapp%2Faccount/);
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("alert")).toHaveText("We couldn't find an account with that email address. Please try again.");
});
