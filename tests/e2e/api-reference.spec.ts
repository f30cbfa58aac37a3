import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";

type Document = { openapi: string; paths: Record<string, Record<string, { operationId: string; summary: string }>> };

test("the OpenAPI document is served without a key, and the reference lists every operation in it", async ({ page, request }) => {
  // Every operation's section on one page, each checked, then the whole page through axe: long on a busy machine.
  test.setTimeout(120_000);
  const served = await request.get("/api/v1/openapi.json");
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toContain("application/json");
  const document = (await served.json()) as Document;
  expect(document.openapi).toBe("3.1.0");
  const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, ...operation })));
  expect(operations.length).toBeGreaterThan(0);

  const response = await page.goto("/developers/api");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("API reference | Sponsorgrid");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  // Public and indexable.
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  expect(await (await request.get("/sitemap.xml")).text()).toContain("/developers/api</loc>");
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toHaveAttribute("href", "/api/v1/openapi.json");
  for (const heading of ["Authentication", "Errors", "Paging", "Rate limits", "Idempotency keys", "Permissions (scopes)"]) {
    await expect(page.getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  }

  await expect(page.getByTestId("api-operation")).toHaveCount(operations.length);
  for (const operation of operations) {
    const section = page.locator(`section#${operation.operationId}`);
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(operation.summary);
    await expect(section).toContainText(`${operation.method.toUpperCase()}/api/v1${operation.path}`);
    await expect(section.getByLabel(/curl example/)).toContainText("Authorization: Bearer $SPONSORGRID_API_KEY");
  }
  const me = page.locator("section#getMe");
  await expect(me).toContainText("key.scopes");
  await expect(me).toContainText("any valid key");

  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("the webhooks guide lists the events and shows how to verify a delivery", async ({ page }) => {
  await page.goto("/developers/api");
  await page.getByRole("link", { name: "Webhooks", exact: true }).first().click();
  await expect(page).toHaveURL("/developers/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  for (const type of WEBHOOK_EVENT_TYPES.map((event) => event.type)) {
    await expect(page.getByRole("cell", { name: type, exact: true })).toBeVisible();
  }
  const snippet = page.getByLabel("Verifying a delivery in Node");
  await expect(snippet).toContainText('import { Webhook } from "standardwebhooks"');
  await expect(snippet).toContainText("webhook.verify(req.body, req.headers)");
  for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"]) await expect(page.locator("body")).toContainText(header);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("the webhooks guide shows what each event sends: the object's fields, and an example body to open", async ({ page }) => {
  await page.goto("/developers/webhooks");
  // From an event's row to the object it sends.
  await page.getByRole("row").filter({ hasText: "payment.refunded" }).getByRole("link", { name: "Payment" }).click();
  await expect(page).toHaveURL("/developers/webhooks#data-payment");
  const payment = page.getByRole("region", { name: "Payment", exact: true });
  await expect(payment).toContainText("The data of payment.succeeded, payment.refunded and payment.disputed");
  const fields = payment.getByRole("region", { name: "Fields of Payment" });
  await expect(fields.getByRole("row").filter({ hasText: "figures.net" })).toContainText("Your share after fees");

  // The example is folded until asked for, and is a whole delivery body of its type.
  const example = payment.getByLabel("An example payment.refunded body");
  await expect(example).toBeHidden();
  await payment.getByText("Example: payment.refunded").click();
  await expect(example).toBeVisible();
  const body = JSON.parse(await example.innerText()) as { type: string; data: { status: string; figures: { net: number } } };
  expect(body).toMatchObject({ type: "payment.refunded", data: { status: "refunded", figures: { net: 0 } } });

  await expect(page.getByRole("region", { name: "ProMembership", exact: true })).toContainText("The data of pro.started and pro.ended");
  await expect(page.getByRole("region", { name: "OpportunityHearted", exact: true }).getByRole("region", { name: "Fields of OpportunityHearted" })).toContainText("newHearts");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("the footer links to the API reference, and the pages fit a phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "API for developers" }).click();
  await expect(page).toHaveURL("/developers/api");
  for (const path of ["/developers/api", "/developers/webhooks"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});
