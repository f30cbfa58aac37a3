import AxeBuilder from "@axe-core/playwright";
import { devices, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, payWithTestCard, signedInAs, test } from "./fixtures";
import { testHooks } from "#tests/support/test-hooks-client";
import { BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * A signed-out sponsor pays a creator from their bio page:
 * the bio host's Sponsor and support-block links, the app host's checkout form,
 * the sandbox's hosted checkout with test cards, and the result pages.
 *
 * Each test makes its own verified owner and bio page. The owner's payout
 * account is made complete through the real sandbox onboarding and webhook
 * (the payments test hook, `paymentsReady`). The sponsorship options need opportunity
 * posts: they come from the opportunity-post test hook, which does not count them in
 * the "opportunity posts" total and dates them 2001 (last in the list), so
 * opportunities.spec.ts, which checks that the total rises by exactly one and
 * pages through the newest posts, is unaffected whichever spec runs beside it.
 */
const DECLINED = "4000 0000 0000 0002";
const SUCCEEDS = "4242 4242 4242 4242";

async function verifiedUser(page: Page, name: string): Promise<string> {
  const { email } = await signedInAs(page, { prefix: "owner", name });
  return email;
}


type Owner = { email: string; name: string; ending: string; paid: { id: string; title: string }; free: { id: string; title: string } };

/** A verified creator, their payout account complete (or not), and a bio page offering a $25 option and a $0 one. */
async function owner(page: Page, { ready = true }: { ready?: boolean } = {}): Promise<Owner> {
  const tag = randomBytes(4).toString("hex");
  const name = `Creator ${tag}`;
  const email = await verifiedUser(page, name);
  if (ready) await testHooks(page.request).paymentsReady();
  const paid = { title: `Mid-roll ${tag}`, id: "" };
  const free = { title: `Shout-out ${tag}`, id: "" };
  const body: [string, string][] = [["name", name], ["customEnding", `pay_${tag}`], ["blurb", "I make videos."]];
  if (ready) {
    paid.id = (await testHooks(page.request).opportunityPost({ min: 2500, title: paid.title })).id;
    free.id = (await testHooks(page.request).opportunityPost({ min: 0, title: free.title })).id;
    body.push(["sponsorship", paid.id], ["sponsorship", free.id]);
  }
  const response = await page.request.post("/app/account/bizbio/new", {
    data: new URLSearchParams(body).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return { email, name, ending: `pay_${tag}`, paid, free };
}

/** A new, signed-out browser: a stranger on a desktop. */
async function sponsorContext(browser: Browser, baseURL: string | undefined, extraHTTPHeaders: Record<string, string> | undefined, javaScriptEnabled = true) {
  return browser.newContext({ ...devices["Desktop Chrome"], baseURL, extraHTTPHeaders, javaScriptEnabled });
}

async function fillCheckout(page: Page, fields: { amount?: string; email?: string; message?: string }) {
  if (fields.amount !== undefined) await page.getByLabel("Amount (USD)").fill(fields.amount);
  if (fields.email !== undefined) await page.getByLabel("Sponsor email").fill(fields.email);
  if (fields.message !== undefined) await page.getByLabel("Message").fill(fields.message);
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
}

async function payWith(page: Page, number: string) {
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
  await payWithTestCard(page, { number });
}

const checkoutState = (request: APIRequestContext, url: string) => testHooks(request).sandbox.state(new URL(url).pathname.split("/").pop()!);

async function expectAccessibleAndNarrow(page: Page, label: string) {
  expect((await new AxeBuilder({ page }).analyze()).violations, label).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${label} scrolls sideways on a 375 px phone`).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a signed-out sponsor tips and sponsors from the bio page and gets a receipt for each", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  const creator = await owner(page);
  // Signed in, the form starts with the person's own email.
  await page.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await expect(page.getByLabel("Sponsor email")).toHaveValue(creator.email);

  const context = await sponsorContext(browser, baseURL, extraHTTPHeaders);
  const sponsor = await context.newPage();
  await sponsor.goto(`${BIO_ORIGIN}/${creator.ending}`);
  const sponsorLink = sponsor.getByRole("link", { name: `Sponsor ${creator.paid.title}` });
  await expect(sponsorLink).toHaveAttribute("href", `${baseURL}/app/payments/checkout?page=${creator.ending}&option=${creator.paid.id}`);
  // The $0 option can't take money through the platform: no Sponsor action, the SPEC's sentence.
  const freeItem = sponsor.getByRole("listitem").filter({ hasText: creator.free.title });
  await expect(freeItem).toContainText("Funds can't be collected through Sponsorgrid");
  await expect(freeItem.getByRole("link")).toHaveCount(0);
  await expectAccessibleAndNarrow(sponsor, "bio page with pay actions");

  // The tip: "Other" in the support block opens checkout with no amount chosen.
  await sponsor.getByRole("link", { name: "Other", exact: true }).click();
  await expect(sponsor).toHaveURL(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText(`Send a tip to ${creator.name}`);
  await expect(sponsor.getByLabel("Amount (USD)")).toHaveValue("");
  await expect(sponsor.getByLabel("Sponsor email")).toHaveValue("");
  await expectAccessibleAndNarrow(sponsor, "tip checkout");
  await fillCheckout(sponsor, { amount: "7.50", email: "fan@e2e.example", message: "For the next video" });
  await payWith(sponsor, SUCCEEDS);
  await expect(sponsor).toHaveURL(/\/app\/payments\/success\?session=ss_[0-9a-f]{24}$/);
  // The receipt appears once the sandbox's event went through our webhook (the page refreshes itself until then).
  await expect(sponsor.getByText(`Your tip of $7.50 to ${creator.name} was successful.`)).toBeVisible({ timeout: 30_000 });
  // The session id stays in the address, never on the page a fan reads.
  const reference = new URL(sponsor.url()).searchParams.get("session")!;
  await expect(sponsor.getByText(reference)).toHaveCount(0);
  await expectAccessibleAndNarrow(sponsor, "receipt");

  // The sponsorship option, its minimum prefilled.
  await sponsor.goto(`${BIO_ORIGIN}/${creator.ending}`);
  await sponsor.getByRole("link", { name: `Sponsor ${creator.paid.title}` }).click();
  await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText(`Sponsor ${creator.name}`);
  await expect(sponsor.getByRole("heading", { level: 2, name: creator.paid.title })).toBeVisible();
  await expect(sponsor.getByText("Minimum contribution $25", { exact: true })).toBeVisible();
  await expect(sponsor.getByLabel("Amount (USD)")).toHaveValue("25");
  await expectAccessibleAndNarrow(sponsor, "option checkout");
  await fillCheckout(sponsor, { amount: "30", email: "fan@e2e.example", message: "Loved the last episode" });
  await payWith(sponsor, SUCCEEDS);
  await expect(sponsor.getByText(`Your sponsorship payment of $30.00 to ${creator.name} was successful.`)).toBeVisible({ timeout: 30_000 });
  await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText(`Thank you for sponsoring ${creator.name}!`);
  await context.close();
});

test("validation keeps what was typed; a declined card and a cancelled checkout charge nothing", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  const creator = await owner(page);
  const context = await sponsorContext(browser, baseURL, extraHTTPHeaders);
  const sponsor = await context.newPage();
  await sponsor.goto(`/app/payments/checkout?page=${creator.ending}&option=${creator.paid.id}`);

  await fillCheckout(sponsor, { amount: "10", email: "fan@" });
  await expect(sponsor.locator("#field-amount-error")).toHaveText("The minimum contribution is $25.00");
  await expect(sponsor.locator("#field-sponsorEmail-error")).toHaveText("Enter a valid email address");
  await expect(sponsor.locator("#field-message-error")).toHaveText("Required");
  await expect(sponsor.getByLabel("Amount (USD)")).toHaveValue("10");
  await expect(sponsor.getByLabel("Amount (USD)")).toHaveAttribute("aria-invalid", "true");
  await expectAccessibleAndNarrow(sponsor, "checkout with errors");

  await fillCheckout(sponsor, { amount: "25.505", email: "fan@e2e.example", message: "Hello" });
  await expect(sponsor.locator("#field-amount-error")).toHaveText("Enter an amount in dollars, like 25 or 25.50");
  await expect(sponsor.locator("#field-sponsorEmail-error")).toHaveCount(0);
  await expect(sponsor.getByLabel("Message")).toHaveValue("Hello");

  await fillCheckout(sponsor, { amount: "25" });
  await payWith(sponsor, DECLINED);
  await expect(sponsor.getByText("Your card was declined.")).toBeVisible();
  const checkoutUrl = sponsor.url();
  expect(await checkoutState(sponsor.request, checkoutUrl)).toMatchObject({ payments: [] });

  await sponsor.getByRole("link", { name: "Cancel and return to Sponsorgrid" }).click();
  await expect(sponsor).toHaveURL(/\/app\/payments\/cancelled\?session=ss_[0-9a-f]{24}$/);
  await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText("Payment cancelled");
  await expect(sponsor.getByText("You cancelled the checkout. Nothing was charged.")).toBeVisible();
  await expect(sponsor.getByRole("link", { name: `Back to ${creator.name}'s page` })).toHaveAttribute("href", `${BIO_ORIGIN}/${creator.ending}`);
  await expectAccessibleAndNarrow(sponsor, "cancelled");
  expect(await checkoutState(sponsor.request, checkoutUrl)).toMatchObject({ payments: [] });
  // The success address of that session shows no receipt: nothing was paid.
  await sponsor.goto(sponsor.url().replace("/cancelled?", "/success?"));
  await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText("We're confirming your payment");
  await expectAccessibleAndNarrow(sponsor, "confirming");
  await context.close();
});

test("without JavaScript a guest tips from the bio page to the receipt", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  const creator = await owner(page);
  const context = await sponsorContext(browser, baseURL, extraHTTPHeaders, false);
  const sponsor = await context.newPage();
  await sponsor.goto(`${BIO_ORIGIN}/${creator.ending}`);
  await sponsor.getByRole("link", { name: "Other", exact: true }).click();
  await fillCheckout(sponsor, { amount: "0.10", email: "", message: "" });
  // The creator's minimum tip (the default $1), which is above what the provider can charge.
  await expect(sponsor.locator("#field-amount-error")).toHaveText("The minimum tip is $1.00");
  await expect(sponsor.locator("#field-message-error")).toHaveText("Required");
  // The email is optional (SPEC §5 requires only the message).
  await expect(sponsor.locator("#field-sponsorEmail-error")).toHaveCount(0);
  await fillCheckout(sponsor, { amount: "12", email: "nojs@e2e.example", message: "Thanks!" });
  await payWith(sponsor, SUCCEEDS);
  // The Refresh header (no script) brings the receipt once the webhook has run.
  await expect(sponsor.getByText(`Your tip of $12.00 to ${creator.name} was successful.`)).toBeVisible({ timeout: 30_000 });
  // A session we don't know: no receipt, only "confirming", and the browser looks again by itself.
  await sponsor.goto(`/app/payments/success?session=ss_${"0".repeat(24)}`);
  await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText("We're confirming your payment");
  await expect(sponsor).toHaveURL(/&check=1$/, { timeout: 10_000 });
  await context.close();
});

test("a page whose owner cannot take payments offers no pay action and its checkout says so", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  const creator = await owner(page, { ready: false });
  const context = await sponsorContext(browser, baseURL, extraHTTPHeaders);
  const sponsor = await context.newPage();
  await sponsor.goto(`${BIO_ORIGIN}/${creator.ending}`);
  await expect(sponsor.getByRole("heading", { level: 1 })).toHaveText(creator.name);
  await expect(sponsor.getByRole("heading", { name: `Support ${creator.name}` })).toHaveCount(0);
  await expect(sponsor.getByRole("link", { name: "Other", exact: true })).toHaveCount(0);
  await sponsor.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await expect(sponsor.getByText(`${creator.name} cannot take payments yet.`)).toBeVisible();
  await expect(sponsor.getByRole("button", { name: "Proceed to Checkout" })).toHaveCount(0);
  // Posting anyway takes nothing.
  const response = await sponsor.request.post(`/app/payments/checkout?page=${creator.ending}&kind=tip`, {
    form: { amount: "10", sponsorEmail: "fan@e2e.example", message: "Hi" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(409);
  expect((await sponsor.request.get(`/app/payments/checkout?page=${creator.ending}&option=9_unknown`)).status()).toBe(404);
  await context.close();
});

test("the sponsor email is optional: a tip without one is paid, and the owner's card and Info say 'Not provided'", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  const creator = await owner(page);
  const context = await sponsorContext(browser, baseURL, extraHTTPHeaders);
  const sponsor = await context.newPage();
  await sponsor.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await expect(sponsor.getByText("Optional: we'll send your receipt here.")).toBeVisible();
  const message = `No email from me ${randomBytes(3).toString("hex")}`;
  await fillCheckout(sponsor, { amount: "9", email: "", message });
  // The provider's own page asks for an email of its own (as Stripe's does); ours keeps none.
  await expect(sponsor).toHaveURL(/\/sandbox\/checkout\/cs_sbx_\w+$/);
  await sponsor.getByLabel("Email").fill("card-holder@e2e.example");
  await payWith(sponsor, SUCCEEDS);
  await expect(sponsor.getByText(`Your tip of $9.00 to ${creator.name} was successful.`)).toBeVisible({ timeout: 30_000 });
  const reference = new URL(sponsor.url()).searchParams.get("session")!;
  await context.close();

  await page.goto("/app/account/sponsors/payments?status=completed");
  const card = page.getByRole("list", { name: "Payments" }).getByRole("listitem").filter({ hasText: message });
  await expect(card.getByText("Not provided", { exact: true })).toBeVisible();
  await page.goto(`/app/account/sponsors/payments/${reference}`);
  await expect(page.getByText("Not provided", { exact: true })).toBeVisible();
  await expect(page.getByText(message)).toBeVisible();
});

test("a flood of checkouts from one client gets a 429 with the wait, and the same form sent again reopens its checkout", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  const creator = await owner(page);
  const context = await sponsorContext(browser, baseURL, extraHTTPHeaders);
  const sponsor = await context.newPage();
  const post = (amount: string, message = "Same words") =>
    sponsor.request.post(`/app/payments/checkout?page=${creator.ending}&kind=tip`, { form: { amount, sponsorEmail: "", message }, maxRedirects: 0 });

  // Double submits: one checkout, the same address both times.
  const first = await post("10000");
  expect(first.status()).toBe(303);
  expect((await post("10000")).headers()["location"]).toBe(first.headers()["location"]);
  // Every other amount is a new checkout, until the client's ten.
  for (let i = 1; i < 10; i++) expect((await post(`${10000 - i}`)).status()).toBe(303);
  const refused = await post("1");
  expect(refused.status()).toBe(429);
  expect(refused.headers()["retry-after"]).toMatch(/^\d+$/);
  expect(await refused.text()).toContain("Too many attempts. Please try again in 10 minutes.");

  // The person sees it on the form, with what they typed kept.
  await sponsor.goto(`/app/payments/checkout?page=${creator.ending}&kind=tip`);
  await fillCheckout(sponsor, { amount: "12", message: "One more" });
  await expect(sponsor.getByRole("alert")).toContainText("Too many attempts. Please try again in 10 minutes.");
  await expect(sponsor.getByLabel("Message")).toHaveValue("One more");
  // The checkout already open for this browser is still handed back.
  expect((await post("10000")).headers()["location"]).toBe(first.headers()["location"]);
  await context.close();
});
