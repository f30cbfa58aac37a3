import AxeBuilder from "@axe-core/playwright";
import { DEMO, expect, signIn, test } from "./fixtures";

// SPEC §2.2: every signed-in-only route.
const SIGNED_IN_ROUTES = [
  "/app",
  "/app/verify",
  "/app/opportunities/new",
  "/app/opportunities/edit",
  "/app/opportunities/sponsor",
  "/app/account",
  "/app/account/opportunities",
  "/app/account/opportunities/liked",
  "/app/account/sponsors",
  "/app/account/sponsors/payments",
  "/app/account/sponsors/payments/cs_test_123",
  "/app/account/payments",
  "/app/account/supporters",
  "/app/payments/setup",
  "/app/payments/setup/return?state=abc",
  "/app/payments/setup/refresh?state=abc",
  "/app/account/bizbio",
  "/app/account/bizbio/new",
  "/app/account/bizbio/edit",
  "/app/account/bizbio/delete",
  "/app/notifications",
  "/app/pro",
  "/edit/mayamakes",
  "/_app",
];

test("a guest is sent to sign in from every signed-in-only route", async ({ request }) => {
  for (const path of SIGNED_IN_ROUTES) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers()["location"], path).toBe(`/signin?redirectTo=${encodeURIComponent(path)}`);
  }
});

for (const path of ["/app", "/app/account", "/app/opportunities/new"]) {
  test(`a guest going to ${path} signs in and is returned there`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(`/signin?redirectTo=${encodeURIComponent(path)}`);
    await page.getByLabel("Email").fill(DEMO.email);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(path);
  });
}

test("legacy addresses redirect to their new routes", async ({ request }) => {
  const legacy = {
    "/app/post/opportunity": "/app/opportunities/new",
    "/app/bizbio/new": "/app/account/bizbio/new",
    "/app/my-sponsors/all": "/app/account/sponsors",
  };
  for (const [from, to] of Object.entries(legacy)) {
    const response = await request.get(from, { maxRedirects: 0 });
    expect(response.status(), from).toBe(301);
    expect(response.headers()["location"]).toBe(to);
  }
});

test("sign-in never redirects to another site", async ({ page }) => {
  await page.goto("/signin?redirectTo=https%3A%2F%2Fevil.example%2Fsteal");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL("/app");
});

test("a state-changing request from another site is refused", async ({ request }) => {
  const response = await request.post("/signin", {
    form: { intent: "signin", email: DEMO.email, password: DEMO.password },
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  expect(response.headers()["set-cookie"]).toBeUndefined();
});

test("the dashboard's cards lead to their tasks and tag filters, each variant tagged for tracking", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  await expect(page).toHaveTitle("Dashboard | Sponsorgrid");
  await expect(page.getByRole("heading", { name: "What type of creator are you looking for?" })).toBeVisible();
  const expected: [string, string][] = [
    ["Find Sponsors", "/app/sponsors"],
    ["Collect Tips", "/app/account/bizbio"],
    ["Create Opportunity", "/app/opportunities/new"],
    ["Manage Account", "/app/account"],
    ["Find YouTubers", "/app/opportunities?tags%5B%5D=youtube+sponsorship"],
    ["Find Streamers", "/app/opportunities?tags%5B%5D=streamer+sponsorship"],
    ["Find Podcasts", "/app/opportunities?tags%5B%5D=podcast+sponsorship"],
    ["Find Influencers", "/app/opportunities?tags%5B%5D=influencer+sponsorship"],
    ["View All Marketing Opportunities", "/app/opportunities"],
  ];
  for (const [name, href] of expected) {
    const large = page.getByRole("link", { name: new RegExp(`^${name}`) });
    await expect(large).toHaveAttribute("href", href);
    await expect(large).toHaveAttribute("data-track", /:large$/);
    await expect(page.locator(`a[href="${href}"][data-track$=":mobile"]`)).toHaveCount(1);
  }
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(page.getByRole("link", { name: /^Find YouTubers/ })).toHaveAttribute("data-track", "dashboard:find-youtubers:mobile");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.getByRole("link", { name: /^Manage Account/ }).click();
  await expect(page).toHaveURL("/app/account");
});

test("callable functions answer with the protocol's status codes", async ({ request }) => {
  const bad = await request.post("/api/functions/verifyRecaptcha", { data: { data: { recaptchaResponse: "forged" } } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.status).toBe("INVALID_ARGUMENT");
  const missing = await request.post("/api/functions/noSuchFunction", { data: { data: {} } });
  expect(missing.status()).toBe(404);
  const malformed = await request.post("/api/functions/verifyRecaptcha", {
    headers: { "Content-Type": "application/json" },
    data: "{not json",
  });
  expect(malformed.status()).toBe(400);
});
