import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomInt } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { testHooks } from "#tests/support/test-hooks-client";
import { createApiKey, expect, signedInAs, test } from "./fixtures";

/**
 * Webhooks in My Account (server/platform/outgoing-webhooks/): an endpoint added for a receiver this spec
 * runs on loopback (the E2E server allows private targets), its secret seen once, an event
 * triggered (a notification, written as the product writes them), the delivery in the log with
 * what the receiver answered, resent, the secret rotated, the endpoint deleted.
 */
const PATH = "/app/account/webhooks";
const PHONE = { width: 375, height: 812 };
const ENDPOINT_PAGE = /\/app\/account\/webhooks\/ep_[\w-]+$/;

type Received = { headers: IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 that answers 200 "thanks" and keeps what it got. */
async function receiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "Content-Type": "text/plain", "X-Receiver": "e2e" });
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/sponsorgrid`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Adds an endpoint through the form; answers its secret, read from the page that shows it once. */
async function addEndpoint(page: Page, url: string, events: string[]): Promise<string> {
  await page.goto(PATH);
  await page.getByLabel("Endpoint address").fill(url);
  await page.getByLabel("Description (optional)").fill("End-to-end receiver");
  for (const label of events) await page.getByRole("checkbox", { name: label }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("heading", { name: "Endpoint added" })).toBeVisible();
  const secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(secret).toMatch(/^whsec_/);
  return secret;
}

const deliveries = (page: Page) => page.getByRole("list", { name: "Deliveries, newest first" }).getByTestId("delivery");

test("an endpoint is added, its secret shown once, a notification queues a delivery, which can be resent; the secret rotates and the endpoint goes", async ({ page }) => {
  const { email } = await signedInAs(page, { prefix: "webhooks" });
  await page.goto("/app/account");
  await page.getByRole("link", { name: "Manage webhooks" }).click();
  await expect(page).toHaveURL(PATH);
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await axeClean(page);

  // Refused field by field, the person's input kept.
  await page.getByLabel("Endpoint address").fill("ftp://example.com/in");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("Enter a web address, starting with https://.")).toBeVisible();
  await expect(page.getByText("Choose at least one event to send.")).toBeVisible();
  await expect(page.getByLabel("Endpoint address")).toHaveValue("ftp://example.com/in");
  await expect(page.getByLabel("Endpoint address")).toHaveAttribute("aria-invalid", "true");

  const secret = await addEndpoint(page, "http://127.0.0.1:9/hooks/in", ["Notification created"]);
  await axeClean(page);
  await page.getByRole("link", { name: /Go to the endpoint/ }).click();
  await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
  // Shown once: the endpoint's own page never shows it.
  expect(await page.content()).not.toContain(secret);
  await expect(page.getByText("No deliveries yet")).toBeVisible();
  await page.goto(PATH);
  expect(await page.content()).not.toContain(secret);
  const endpointLink = page.getByRole("list", { name: "Your webhook endpoints" }).getByRole("link", { name: "http://127.0.0.1:9/hooks/in" });
  await endpointLink.click();
  await expect(page).toHaveURL(ENDPOINT_PAGE);
  const endpointUrl = page.url();

  // Something happens on the account: a notification, written as the product writes them.
  await testHooks(page.request).sendNotifications({ email, title: "A webhook is watching" });
  await page.reload();
  await expect(deliveries(page)).toHaveCount(1);
  await expect(deliveries(page).first()).toContainText("Notification created");
  await axeClean(page);

  // Resend: while the first is still on its way it is tried now; none is lost or doubled.
  await deliveries(page).first().getByRole("button", { name: /Resend/ }).click();
  // Nothing listens on port 9: without the delivery worker, or with it retrying, the delivery is still pending.
  await expect(page.getByText("That event was still being delivered: it is tried again now.")).toBeVisible();
  await expect(deliveries(page)).toHaveCount(1);

  // Test event.
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("Test event queued.")).toBeVisible();
  await expect(deliveries(page).first()).toContainText("Test event");

  // Rotate: a new secret, shown once, the previous one still signing for a day.
  await page.getByRole("button", { name: "Make a new secret" }).click();
  await expect(page.getByRole("heading", { name: "New signing secret" })).toBeVisible();
  const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await page.reload();
  await expect(page.getByText(/The previous secret also signs until/)).toBeVisible();
  expect(await page.content()).not.toContain(rotated);

  // Edit, turn off and on.
  await page.getByRole("checkbox", { name: /Pro started/ }).check();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Endpoint saved.")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /Pro started/ })).toBeChecked();
  await page.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByText("This endpoint is off")).toBeVisible();
  await expect(page.getByRole("button", { name: /Resend/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Endpoint turned on.")).toBeVisible();

  // Delete, after confirming.
  await page.getByText("Delete this endpoint", { exact: true }).click();
  await page.getByRole("button", { name: "Yes, delete this endpoint" }).click();
  await expect(page).toHaveURL(PATH);
  await expect(page.getByText("Endpoint deleted.")).toBeVisible();
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  const gone = await page.request.get(endpointUrl);
  expect(gone.status()).toBe(404);
});

test("another account's endpoint is not found", async ({ page, browser, extraHTTPHeaders }) => {
  await signedInAs(page, { prefix: "webhooks-owner" });
  await addEndpoint(page, "http://127.0.0.1:9/hooks/in", ["Payment succeeded"]);
  await page.getByRole("link", { name: /Go to the endpoint/ }).click();
  await expect(page).toHaveURL(ENDPOINT_PAGE);
  const endpointUrl = page.url();

  // A client of its own, with the hooks' secret (the signed-in-account hook makes its person).
  const other = await browser.newContext({ baseURL: new URL(endpointUrl).origin, extraHTTPHeaders: { ...extraHTTPHeaders, "X-Forwarded-For": `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}` } });
  const otherPage = await other.newPage();
  await signedInAs(otherPage, { prefix: "webhooks-other" });
  const seen = await otherPage.goto(endpointUrl);
  expect(seen?.status()).toBe(404);
  const posted = await otherPage.request.post(endpointUrl, { form: { intent: "delete" } });
  expect(posted.status()).toBe(404);
  await other.close();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
});

test("the pages fit a phone", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signedInAs(page, { prefix: "webhooks-phone" });
  await addEndpoint(page, `http://127.0.0.1:9/${"long-path-segment/".repeat(8)}`, ["Payment succeeded", "Payment refunded"]);
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await fits()).toBe(true);
  await page.getByRole("link", { name: /Go to the endpoint/ }).click();
  await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
  expect(await fits()).toBe(true);
});

// Needs the delivery worker (server/platform/outgoing-webhooks/delivery.ts): it sends what the pages queue.
test("a delivery reaches a loopback receiver, signed with the endpoint's secret, and the log shows the receiver's answer", async ({ page }) => {
  const sink = await receiver();
  try {
    const { email } = await signedInAs(page, { prefix: "webhooks-delivery" });
    const secret = await addEndpoint(page, sink.url, ["Notification created"]);
    await page.getByRole("link", { name: /Go to the endpoint/ }).click();
    // On the endpoint's page before anything is sent: the reloads below must reload this page, not the list.
    await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
    await testHooks(page.request).sendNotifications({ email, title: "Delivered for real" });

    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const [first] = sink.received;
    const headers = Object.fromEntries(Object.entries(first!.headers).map(([name, value]) => [name, String(value)]));
    const payload = new Webhook(secret).verify(first!.body, headers) as { type: string; data: { title: string } };
    expect(payload).toMatchObject({ type: "notification.created", data: { title: "Delivered for real" } });

    await expect(async () => {
      await page.reload();
      await expect(deliveries(page).first()).toContainText("Delivered", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    const delivery = deliveries(page).first();
    await delivery.getByText(/Attempt 1/).click();
    await expect(delivery.getByText("HTTP 200").first()).toBeVisible();
    await expect(delivery.getByLabel("Response body").first()).toHaveText("thanks");
    await expect(delivery.getByLabel("Request body").first()).toContainText("Delivered for real");
    await axeClean(page);

    // Resent: the same event (same webhook-id) arrives again.
    const before = sink.received.length;
    await delivery.getByRole("button", { name: /Resend/ }).click();
    await expect(page.getByText("Sent again: the new delivery is at the top of the log.")).toBeVisible();
    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBeGreaterThan(before);
    expect(sink.received.at(-1)!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    await expect(deliveries(page)).toHaveCount(2);

    // After a rotation both secrets sign for a day: the old and the new one each verify.
    await page.getByRole("button", { name: "Make a new secret" }).click();
    const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
    const sent = sink.received.length;
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBeGreaterThan(sent);
    const latest = sink.received.at(-1)!;
    const latestHeaders = Object.fromEntries(Object.entries(latest.headers).map(([name, value]) => [name, String(value)]));
    expect(new Webhook(rotated).verify(latest.body, latestHeaders)).toMatchObject({ type: "webhook.test" });
    expect(new Webhook(secret).verify(latest.body, latestHeaders)).toMatchObject({ type: "webhook.test" });
  } finally {
    await sink.close();
  }
});

test("an endpoint added through the API with a key is the one My Account shows, and its test event arrives signed", async ({ page, request, baseURL }) => {
  const sink = await receiver();
  try {
    await signedInAs(page, { prefix: "webhooks-api", name: "Dee Veloper" });
    const key = await createApiKey(page, { name: "Deploy script", readAndWrite: "Webhooks" });
    const auth = { Authorization: `Bearer ${key}` };

    const made = await request.post(`${baseURL}/api/v1/webhook-endpoints`, { headers: auth, data: { url: sink.url, description: "Added by the deploy script", events: ["payment.succeeded"] } });
    expect(made.status()).toBe(201);
    const endpoint = (await made.json()) as { id: string; secret: string };

    // My Account lists it, without its secret.
    await page.goto(PATH);
    await expect(page.getByText("Added by the deploy script")).toBeVisible();
    await expect(page.locator("body")).not.toContainText(endpoint.secret);

    const sent = await request.post(`${baseURL}/api/v1/webhook-endpoints/${endpoint.id}/test`, { headers: auth });
    expect(sent.status()).toBe(200);
    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const [first] = sink.received;
    const headers = Object.fromEntries(Object.entries(first!.headers).map(([name, value]) => [name, String(value)]));
    expect(new Webhook(endpoint.secret).verify(first!.body, headers)).toMatchObject({ type: "webhook.test" });

    // The API's delivery log and the page's show the same delivery, delivered.
    await expect
      .poll(async () => ((await (await request.get(`${baseURL}/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, { headers: auth })).json()) as { data: { status: string }[] }).data[0]?.status, { timeout: 30_000 })
      .toBe("delivered");
    await page.goto(`${PATH}/${endpoint.id}`);
    await expect(deliveries(page).first()).toContainText("Delivered");
  } finally {
    await sink.close();
  }
});
