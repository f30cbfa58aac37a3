import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signedInAs, test } from "./fixtures";

async function axeClean(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

type DocOperation = { "x-required-scope"?: string; parameters?: { in: string }[] };

/** A GET operation without path parameters that needs a scope outside `scopes` (the document lists them all). */
async function operationLacking(request: APIRequestContext, scopes: string[]): Promise<{ path: string; scope: string }> {
  const document = (await (await request.get("/api/v1/openapi.json")).json()) as { paths: Record<string, { get?: DocOperation }> };
  const candidates = Object.entries(document.paths)
    .filter(([path, item]) => item.get?.["x-required-scope"] && !scopes.includes(item.get["x-required-scope"]) && !path.includes("{"))
    .map(([path, item]) => ({ path, scope: item.get!["x-required-scope"]! }));
  // Opportunities first: the one a key with no opportunities permission is sure to lack.
  const chosen = candidates.find((candidate) => candidate.path === "/opportunities") ?? candidates[0];
  expect(chosen, "the API has an operation that needs a scope the key lacks").toBeDefined();
  return chosen!;
}

test("My Account → API keys: make a key shown once, call the API with it, see its last use, revoke it", async ({ page, request, baseURL }) => {
  await signedInAs(page, { prefix: "api-keys", name: "Kay Builder" });
  await page.goto("/app/account");
  await page.getByRole("link", { name: "API keys", exact: true }).click();
  await expect(page).toHaveURL("/app/account/api-keys");
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByTestId("api-keys-empty")).toContainText("No keys yet");
  await axeClean(page);

  // Nothing chosen: refused field by field, nothing made.
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Give the key a name, so you know later what uses it.")).toBeVisible();
  await expect(page.getByText("Choose at least one permission.")).toBeVisible();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);

  await page.getByLabel("Name").fill("Spreadsheet sync");
  await page.getByRole("group", { name: "Bio pages" }).getByLabel("Read", { exact: true }).check();
  await page.getByRole("group", { name: "Notifications" }).getByLabel("Read and write").check();
  await page.getByLabel("Expires").selectOption({ label: "In 30 days" });
  await page.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByTestId("new-api-key");
  await expect(shown).toContainText("you won't see it again");
  const key = await shown.getByLabel("API key").inputValue();
  expect(key).toMatch(/^sg_test_[0-9A-Za-z]{38}$/);
  await expect(shown.getByLabel("Example request with curl")).toHaveText(`curl -H "Authorization: Bearer ${key}" ${baseURL}/api/v1/me`);
  await expect(shown.getByRole("button", { name: "Copy the API key" })).toBeVisible();
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  await expect(page.getByTestId("api-key-row")).toContainText(`${key.slice(0, 12)}…${key.slice(-4)}`);
  await expect(page.getByTestId("api-key-last-used")).toHaveText("Never used");
  await axeClean(page);

  const auth = { Authorization: `Bearer ${key}` };
  const me = await request.get(`${baseURL}/api/v1/me`, { headers: auth });
  expect(me.status()).toBe(200);
  const identity = await me.json();
  expect(identity).toMatchObject({ name: "Kay Builder", key: { name: "Spreadsheet sync", mode: "test" } });
  expect([...identity.key.scopes].sort()).toEqual(["bio_pages:read", "notifications:read", "notifications:write"]);
  expect(identity.key.expiresAt).not.toBeNull();

  const lacking = await operationLacking(request, identity.key.scopes);
  const refused = await request.get(`${baseURL}/api/v1${lacking.path}`, { headers: auth });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("insufficient_scope");

  // A reload shows the list, never the key again, and when it was last used.
  await page.reload();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(key);
  const row = page.getByTestId("api-key-row");
  await expect(row).toContainText("Spreadsheet sync");
  await expect(row).toContainText("Bio pages: read");
  await expect(row).toContainText("Notifications: read and write");
  await expect(page.getByTestId("api-key-last-used")).not.toHaveText("Never used");
  await expect(page.getByTestId("api-key-last-used")).toContainText("UTC");

  await row.locator("summary", { hasText: "Revoke" }).click();
  await row.getByRole("button", { name: "Yes, revoke Spreadsheet sync" }).click();
  await expect(page.getByText('Revoked "Spreadsheet sync". It stopped working at once.')).toBeVisible();
  await expect(page.getByTestId("api-key-row")).toContainText("Revoked");
  await expect(page.getByRole("button", { name: /Yes, revoke/ })).toHaveCount(0);

  const after = await request.get(`${baseURL}/api/v1/me`, { headers: auth });
  expect(after.status()).toBe(401);
  expect((await after.json()).error.code).toBe("revoked_key");
});

test("API keys need a signed-in, verified account", async ({ page }) => {
  await page.goto("/app/account/api-keys");
  await expect(page).toHaveURL(/\/signin/);
});

test("the API keys page fits a phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signedInAs(page, { prefix: "api-keys-phone" });
  await page.goto("/app/account/api-keys");
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
