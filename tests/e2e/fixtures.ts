import { test as base, expect, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { randomBytes, randomInt } from "node:crypto";
import { authenticatorCode } from "#tests/support/authenticator";
import { E2E_PORTS } from "#tests/support/e2e-ports";
import { E2E_TEST_ROUTES_SECRET, TEST_ROUTES_SECRET_HEADER } from "#tests/support/e2e-secret";
import type { ReceivedMail } from "#tests/support/smtp-sink";
import { testHooks } from "#tests/support/test-hooks-client";

const CONTROL = `http://127.0.0.1:${E2E_PORTS.control}`;

/**
 * Every test is its own client: the app runs behind one trusted proxy hop
 * (TRUST_PROXY=1), which the test plays by writing X-Forwarded-For, so per-IP
 * rate limits of one test never spill into another. The address is one of the
 * 16 million loopback addresses (never 127.0.0.1), because the test hooks answer
 * only clients on this machine; the secret header opens those hooks.
 */
export const test = base.extend({
  extraHTTPHeaders: async ({}, use) => {
    await use(ownClientHeaders());
  },
});
export { expect };

/** The headers of a client of its own (see above): a fresh loopback address and the hooks' secret. */
export function ownClientHeaders(): Record<string, string> {
  return {
    "X-Forwarded-For": `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`,
    [TEST_ROUTES_SECRET_HEADER]: E2E_TEST_ROUTES_SECRET,
  };
}

/** A second browser beside the test's own: a client of its own, with no session unless `options` brings one (storageState). */
export async function otherClient(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...options, extraHTTPHeaders: ownClientHeaders() });
  return { context, page: await context.newPage() };
}

/**
 * Fills the sandbox's card fields (its checkouts and billing portal) with a test card, 4242… unless
 * `number` says another, and sends them with `button` (the checkout's "Pay $…" unless named).
 */
export async function payWithTestCard(page: Page, { number = "4242 4242 4242 4242", expiry = "12 / 34", button = /^Pay \$/ }: { number?: string; expiry?: string; button?: string | RegExp } = {}) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM / YY)").fill(expiry);
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("ZIP code").fill("94107");
  await page.getByRole("button", { name: button }).click();
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}.${randomBytes(4).toString("hex")}@e2e.example`;
}

/** Mail the SMTP sink received for `to`, waiting until there are more than `after`. */
export async function waitForMail(to: string, options: { subject?: RegExp; after?: number } = {}): Promise<ReceivedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const all = (await (await fetch(`${CONTROL}/mail?to=${encodeURIComponent(to)}`)).json()) as ReceivedMail[];
    const matching = all.slice(options.after ?? 0).filter((mail) => !options.subject || options.subject.test(mail.subject));
    if (matching.length > 0) return matching[matching.length - 1]!;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${options.subject ?? "anything"} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function mailCount(to: string): Promise<number> {
  return ((await (await fetch(`${CONTROL}/mail?to=${encodeURIComponent(to)}`)).json()) as unknown[]).length;
}

/** The link in a mail that starts with `path` on the app's origin. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const link = mail.links.find((href) => new URL(href).pathname === path);
  if (!link) throw new Error(`No ${path} link in mail "${mail.subject}": ${mail.links.join(", ")}`);
  return link;
}

/** Who the stand-in Google says is signing in next. */
export async function setGoogleIdentity(identity: { email: string; name: string; email_verified: boolean }) {
  const response = await fetch(`${CONTROL}/oidc/identity`, { method: "POST", body: JSON.stringify(identity) });
  if (!response.ok) throw new Error("could not set the OIDC identity");
}

export const DEMO = { email: "maya@demo.sponsorgrid.example", password: "sponsorgrid-demo" };

export async function signIn(page: Page, email: string, password: string, options: { remember?: boolean } = {}) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  if (options.remember) await page.getByLabel("Remember me").check();
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** Fills and sends the sign-up form; the captcha widget solves itself. */
export async function signUp(page: Page, options: { email: string; password: string; name?: string; type?: string }) {
  await page.goto(options.type ? `/signup?type=${options.type}` : "/signup");
  if (options.name) await page.getByLabel("Name (shown on your profile)").fill(options.name);
  await page.getByLabel("Email").fill(options.email);
  await page.getByLabel("Password").fill(options.password);
  // The widget loads after hydration; a click before that posts no answer, and the page then
  // asks for the spam check instead of creating the account (as it would for a person).
  await page.waitForFunction(() => customElements.get("altcha-widget") !== undefined);
  await page.getByRole("button", { name: "Create account" }).click();
}

/**
 * `shown` is visible for exactly `ms` of the page's clock, then goes. The test installed the
 * clock (page.clock.install) before the page loaded and paused it (page.clock.pauseAt) before the
 * click that shows it, so a slow machine cannot eat into the window; afterwards the clock runs freely.
 */
export async function shownFor(page: Page, shown: Locator, ms: number): Promise<void> {
  await expect(shown).toBeVisible();
  await page.clock.runFor(ms - 1);
  await expect(shown).toBeVisible();
  await page.clock.runFor(1);
  await expect(shown).toBeHidden();
  await page.clock.resume();
}

export type NewAccount = { prefix: string; name?: string; password?: string; type?: "creator" | "sponsor" };

/**
 * A new account with a verified email, signed in on `page`'s browser context, made by the
 * signed-in-account test hook along the sign-up and verification flows the forms call (minus the
 * captcha and reading the mail): for every spec that only needs someone signed in. The page is
 * not navigated. The password is really set, so signing in with it later works. Specs about
 * sign-up and verification themselves go through the forms (signUp, identity.spec.ts).
 */
export async function signedInAs(page: Page, options: NewAccount): Promise<{ email: string; password: string }> {
  const email = uniqueEmail(options.prefix);
  const password = options.password ?? "tidy-harbor-42";
  await testHooks(page.request).signedInAccount({ email, password, name: options.name ?? "Sam Person", type: options.type });
  return { email, password };
}

/** Creates an API key in My Account the way a person does, read-and-write on the resource named, and returns it as shown once. */
export async function createApiKey(page: Page, { name, readAndWrite }: { name: string; readAndWrite: string }): Promise<string> {
  await page.goto("/app/account/api-keys");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("group", { name: readAndWrite }).getByLabel("Read and write").check();
  await page.getByRole("button", { name: "Create key" }).click();
  return page.getByTestId("new-api-key").getByLabel("API key").inputValue();
}

/** A code from the authenticator app for this secret (base32), from a time step not used yet. */
export const totpCode = authenticatorCode;

/** The second step of a sign-in: the code page, a code from the app (ADR 0049). */
export async function enterTwoFactorCode(page: Page, secret: string) {
  await expect(page).toHaveURL(/\/signin\/two-factor/);
  await page.getByLabel("6-digit code").fill(await totpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
}

/**
 * A new staff member (as `npm run admin -- grant` makes one) with an authenticator app enrolled,
 * signed in on `page` through the real two-factor step (password, then a code computed from the
 * secret): the back office at /app/admin opens for them.
 */
export async function signInAsStaff(page: Page): Promise<{ email: string; password: string; uid: string; totpSecret: string }> {
  const account = await signedInAs(page, { prefix: "staff", name: "Sam Staff" });
  const staff = await testHooks(page.request).makeStaff(account.email);
  // Signed out, then in again as staff do: the password, then the code.
  await page.context().clearCookies();
  await signIn(page, account.email, account.password);
  await enterTwoFactorCode(page, staff.totpSecret!);
  await expect(page).toHaveURL("/app");
  return { ...account, uid: staff.uid, totpSecret: staff.totpSecret! };
}
