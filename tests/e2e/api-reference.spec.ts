import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";

type Document = { openapi: string; paths: Record<string, Record<string, { operationId: string; summary: string }>> };

type Resource = { tag: string; slug: string; operations: { operationId: string; summary: string; method: string; path: string }[] };

/** The document's operations by tag, in its order: the reference's resource pages. */
function resourcesOf(document: Document & { tags: { name: string }[] }): Resource[] {
  const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, ...operation })));
  return document.tags
    .map((tag) => ({
      tag: tag.name,
      slug: tag.name.toLowerCase().replace(/\W+/g, "-"),
      operations: operations.filter((operation) => (operation as unknown as { tags: string[] }).tags[0] === tag.name),
    }))
    .filter((resource) => resource.operations.length > 0);
}

async function servedResources(request: import("@playwright/test").APIRequestContext): Promise<Resource[]> {
  const served = await request.get("/api/v1/openapi.json");
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toContain("application/json");
  const document = (await served.json()) as Document & { tags: { name: string }[] };
  expect(document.openapi).toBe("3.1.0");
  return resourcesOf(document);
}

test("the OpenAPI document is served without a key; the overview lists each resource, and each resource's page every operation of it", async ({ page, request }) => {
  // Every operation's section checked on its page, each page through axe: long on a busy machine.
  test.setTimeout(180_000);
  const resources = await servedResources(request);
  expect(resources.length).toBeGreaterThan(1);

  const response = await page.goto("/developers/api");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("API reference | Sponsorgrid");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  // Public and indexable, every page of it.
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).toContain("/developers/api</loc>");
  for (const resource of resources) expect(sitemap).toContain(`/developers/api/${resource.slug}</loc>`);
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toHaveAttribute("href", "/api/v1/openapi.json");
  for (const heading of ["Resources", "Authentication", "Errors", "Paging", "Rate limits", "Idempotency keys", "Permissions (scopes)"]) {
    await expect(page.getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  }
  // The overview holds no operation itself: each is on its resource's page.
  await expect(page.getByTestId("api-operation")).toHaveCount(0);
  const list = page.getByRole("list", { name: "Resources" });
  for (const resource of resources) await expect(list.getByRole("link", { name: resource.tag, exact: true })).toHaveAttribute("href", `/developers/api/${resource.slug}`);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  for (const resource of resources) {
    const answered = await page.goto(`/developers/api/${resource.slug}`);
    expect(answered?.status(), resource.slug).toBe(200);
    await expect(page).toHaveTitle(`${resource.tag} · API reference | Sponsorgrid`);
    await expect(page.getByRole("heading", { name: resource.tag, level: 1 })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    await expect(page.getByTestId("api-operation")).toHaveCount(resource.operations.length);
    for (const operation of resource.operations) {
      const section = page.locator(`section#${operation.operationId}`);
      await expect(section.getByRole("heading", { level: 2 })).toHaveText(operation.summary);
      await expect(section).toContainText(`${operation.method.toUpperCase()}/api/v1${operation.path}`);
      await expect(section.getByLabel(/curl example/)).toContainText("Authorization: Bearer $SPONSORGRID_API_KEY");
    }
  }
  await page.goto("/developers/api/account");
  const me = page.locator("section#getMe");
  await expect(me).toContainText("key.scopes");
  await expect(me).toContainText("any valid key");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("on a desktop the reference's pages have a sidebar, previous and next links, and an old operation anchor leads to its page", async ({ page, request }) => {
  const resources = await servedResources(request);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/developers/api");
  const sidebar = page.getByRole("navigation", { name: "API reference" });
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(sidebar.getByRole("link", { name: "Webhooks" })).toHaveAttribute("href", "/developers/webhooks");

  // Next from the overview is the first resource; from there, previous is the overview.
  const pager = page.getByRole("navigation", { name: "Previous and next pages" });
  await pager.getByRole("link", { name: `Next ${resources[0]!.tag}` }).click();
  await expect(page).toHaveURL(`/developers/api/${resources[0]!.slug}`);
  await expect(page.getByRole("navigation", { name: "API reference" }).getByRole("link", { name: resources[0]!.tag, exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByRole("navigation", { name: "Previous and next pages" }).getByRole("link", { name: "Previous Overview" }).click();
  await expect(page).toHaveURL("/developers/api");

  // The sidebar reaches a resource; the last resource's next page is the webhooks guide.
  const last = resources.at(-1)!;
  await page.getByRole("navigation", { name: "API reference" }).getByRole("link", { name: last.tag, exact: true }).click();
  await expect(page).toHaveURL(`/developers/api/${last.slug}`);
  await page.getByRole("navigation", { name: "Previous and next pages" }).getByRole("link", { name: "Next Webhooks" }).click();
  await expect(page).toHaveURL("/developers/webhooks");
  await expect(page.getByRole("navigation", { name: "API reference" }).getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");

  // A bookmark of an operation on the one-page reference lands on a link to its page, which opens at it.
  await page.goto("/developers/api#getMe");
  await expect(page.locator("#getMe")).toBeInViewport();
  await page.locator("#getMe").getByRole("link").click();
  await expect(page).toHaveURL("/developers/api/account#getMe");
  await expect(page.locator("section#getMe")).toBeInViewport();

  // A resource the API does not have is the site's 404.
  const missing = await page.goto("/developers/api/no-such-resource");
  expect(missing?.status()).toBe(404);
});

test("at 390 px the reference's pages fold their navigation into a menu, and nothing is wider than the phone", async ({ page, request }) => {
  test.setTimeout(120_000);
  const resources = await servedResources(request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/developers/api");
  const menu = page.getByText("API reference pages");
  await expect(menu).toBeVisible();
  await expect(page.getByRole("navigation", { name: "API reference" })).toBeHidden();
  await menu.click();
  const nav = page.getByRole("navigation", { name: "API reference" });
  await expect(nav).toBeVisible();
  await nav.getByRole("link", { name: resources[0]!.tag, exact: true }).click();
  await expect(page).toHaveURL(`/developers/api/${resources[0]!.slug}`);
  await expect(page.getByRole("heading", { name: resources[0]!.tag, level: 1 })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  for (const path of ["/developers/api", ...resources.map((resource) => `/developers/api/${resource.slug}`), "/developers/webhooks"]) {
    await page.goto(path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }
  // A curl line stays inside its box: wrapped, never wider than the page.
  const curl = page.locator("pre").first();
  await page.goto(`/developers/api/${resources.find((resource) => resource.operations.some((operation) => operation.method !== "get"))!.slug}`);
  const box = await curl.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
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
