import { testHooks } from "#tests/support/test-hooks-client";
import { backOfficeRoutes } from "./back-office-routes";
import { expect, signInAsStaff, signedInAs, test, totpCode } from "./fixtures";

test.describe("the back office", () => {
  test("opens for staff, with its sections, never cached or indexed", async ({ page }) => {
    await signInAsStaff(page);
    const response = await page.goto("/app/admin");
    expect(response?.status()).toBe(200);
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    await expect(page.getByRole("heading", { name: "Back office", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Audit log" })).toBeVisible();
    // What needs attention, each figure linking to its queue.
    await expect(page.getByRole("link", { name: "Open reports" })).toHaveAttribute("href", "/app/admin/reports");
    await expect(page.getByRole("link", { name: "Open disputes" })).toHaveAttribute("href", "/app/admin/disputes");
  });

  test("is the site's ordinary 404 for someone who is not staff, and sign-in for a guest", async ({ page, browser }) => {
    await signedInAs(page, { prefix: "notstaff" });
    const response = await page.goto("/app/admin");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("navigation", { name: "Back office" })).toHaveCount(0);

    const guest = await browser.newPage();
    await guest.goto("/app/admin");
    await expect(guest).toHaveURL(/\/signin\?/);
    await guest.close();
  });
});

test.describe("the back office and two-factor sign-in", () => {
  test("staff without two-factor are sent to enrol it, and after enrolling land in the back office", async ({ page }) => {
    test.setTimeout(120_000);
    const { email, password } = await signedInAs(page, { prefix: "staff-enrol" });
    await testHooks(page.request).makeStaff(email, { twoFactor: "off" });
    await page.goto("/app/admin");
    await expect(page).toHaveURL("/app/account/two-factor?next=%2Fapp%2Fadmin");
    await page.getByLabel("Your password").fill(password);
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    await page.getByLabel("6-digit code").fill(await totpCode(secret));
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
    await page.getByRole("link", { name: "I have saved my codes, continue" }).click();
    await expect(page).toHaveURL("/app/admin");
    await expect(page.getByRole("navigation", { name: "Back office" })).toBeVisible();
  });

  test("every back-office route tried as a guest, a signed-in user and staff without two-factor: 0 leaks", async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const routes = backOfficeRoutes();
    expect(routes.map((route) => route.path)).toContain("/app/admin");

    const guest = await browser.newContext();
    const user = await browser.newContext();
    await signedInAs(await user.newPage(), { prefix: "leak-user" });
    const staff = await browser.newContext();
    const staffPage = await staff.newPage();
    const { email } = await signedInAs(staffPage, { prefix: "leak-staff" });
    await testHooks(staffPage.request).makeStaff(email, { twoFactor: "off" });

    const actors = [
      { name: "guest", context: guest, expected: (location: string | undefined, status: number) => status === 404 || (status === 302 && /^\/signin\?/.test(location ?? "")) },
      { name: "user", context: user, expected: (_location: string | undefined, status: number) => status === 404 },
      {
        name: "staff without two-factor",
        context: staff,
        expected: (location: string | undefined, status: number) => status === 302 && (location ?? "").startsWith("/app/account/two-factor?next="),
      },
    ];
    const leaks: string[] = [];
    for (const route of routes) {
      for (const actor of actors) {
        for (const method of ["GET", "POST"] as const) {
          const response =
            method === "GET"
              ? await actor.context.request.get(route.path, { maxRedirects: 0 })
              : await actor.context.request.post(route.path, { form: { intent: "probe" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
          const status = response.status();
          const body = await response.text();
          // A route with no action answers a POST 405 before any loader runs.
          const ok = actor.expected(response.headers()["location"], status) || (method === "POST" && !route.hasAction && status === 405);
          if (!ok || body.includes('aria-label="Back office"') || body.includes("Signed in as")) {
            leaks.push(`${method} ${route.path} as ${actor.name}: ${status} ${response.headers()["location"] ?? ""}`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    await Promise.all([guest.close(), user.close(), staff.close()]);
  });
});
