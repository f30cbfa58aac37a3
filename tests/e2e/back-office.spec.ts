import { expect, signInAsStaff, signUpVerified, test } from "./fixtures";

test.describe("the back office", () => {
  test("opens for staff, with its sections, never cached or indexed", async ({ page }) => {
    await signInAsStaff(page);
    const response = await page.goto("/app/admin");
    expect(response?.status()).toBe(200);
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    await expect(page.getByRole("heading", { name: "Back office", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Audit log" })).toBeVisible();
  });

  test("is the site's ordinary 404 for someone who is not staff, and sign-in for a guest", async ({ page, browser }) => {
    await signUpVerified(page, { prefix: "notstaff" });
    const response = await page.goto("/app/admin");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("navigation", { name: "Back office" })).toHaveCount(0);

    const guest = await browser.newPage();
    await guest.goto("/app/admin");
    await expect(guest).toHaveURL(/\/signin\?/);
    await guest.close();
  });
});
