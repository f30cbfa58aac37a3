import AxeBuilder from "@axe-core/playwright";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, payWithTestCard, signedInAs, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

test("both sides fill in billing details, the booking issues the invoice, the sponsor downloads it and the creator reads the statement on a phone", async ({ page, browser }) => {
  // Two people, a checkout and its webhook, two documents and a download.
  test.setTimeout(120_000);
  const name = `Paper Pia ${Date.now()}`;

  // The creator, on a phone, charges VAT and says so once, in billing details.
  const creator = await otherClient(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
  await signedInAs(creator.page, { prefix: "paper-creator", name: "Pia Paper", type: "creator" });
  await testHooks(creator.page.request).insightsPage({ name, empty: true });
  await testHooks(creator.page.request).paymentsReady();
  await creator.page.goto("/app/account");
  await creator.page.getByRole("link", { name: "Edit billing details" }).click();
  await expect(creator.page.getByRole("heading", { level: 1 })).toHaveText("Billing details");
  await creator.page.getByLabel("Legal name").fill("Pia Żak Studio");
  await creator.page.getByLabel("Name of the tax").fill("VAT");
  await creator.page.getByLabel("Rate (%)").fill("20");
  await creator.page.getByRole("button", { name: "Save billing details" }).click();
  await expect(creator.page.getByText("Billing details saved.")).toBeVisible();

  // The sponsor's details: a refused form says which field and keeps what was typed.
  await signedInAs(page, { prefix: "paper-sponsor", name: "Orbit Mugs", type: "sponsor" });
  await page.goto("/app/account/billing");
  await expect(page.getByText("Until you save them, invoices show your account name")).toBeVisible();
  await page.getByLabel("Address (optional)").fill("9 Harbour Road\nBristol BS1 5TY");
  await page.getByLabel("Rate (%)").fill("120");
  await page.getByRole("button", { name: "Save billing details" }).click();
  await expect(page.getByText("Enter the name to put on invoices: your legal or company name.")).toBeVisible();
  await expect(page.getByLabel("Legal name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter a rate above 0 and at most 50%.")).toBeVisible();
  await expect(page.getByLabel("Address (optional)")).toHaveValue("9 Harbour Road\nBristol BS1 5TY");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByLabel("Legal name").fill("Orbit Mugs Ltd");
  await page.getByLabel("Country (optional)").fill("United Kingdom");
  await page.getByLabel("Tax id (optional)").fill("GB123456789");
  await page.getByLabel("Rate (%)").fill("");
  await page.getByRole("button", { name: "Save billing details" }).click();
  await expect(page.getByText("Billing details saved.")).toBeVisible();
  await expect(page.getByLabel("Tax id (optional)")).toHaveValue("GB123456789");

  // A direct offer, accepted by the creator and paid for by the sponsor.
  await page.goto(`/app/profiles?name=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: `Make ${name} an offer` }).click();
  await page.getByLabel("What is it for?").fill("Mug launch");
  await page.getByLabel("Your offer").fill("Show our new mug in your morning vlog.");
  await page.getByLabel("Price (US dollars)").fill("600");
  await page.getByLabel("Channel 1").fill("YouTube");
  await page.getByLabel("What is made 1").fill("A morning vlog segment");
  await page.getByLabel("Due 1").fill("2031-03-01");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mug launch");
  const dealPath = new URL(page.url()).pathname;
  // Nothing is booked yet: there is no paperwork to see.
  await expect(page.getByRole("region", { name: "Paperwork" })).toHaveCount(0);
  expect((await page.request.get(`${dealPath}/invoice`)).status()).toBe(404);

  await creator.page.goto(dealPath);
  await creator.page.getByRole("button", { name: "Accept $600" }).click();
  await expect(creator.page.getByText("Terms accepted.")).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Pay $600 to book" }).click();
  await payWithTestCard(page);
  await page.waitForURL(/\?paid=1$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/Booked: you paid \$600 on/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // The sponsor's invoice: both parties' details, the line, the creator's VAT inside the price.
  const paperwork = page.getByRole("region", { name: "Paperwork" });
  await expect(paperwork).toBeVisible();
  await expect(paperwork.getByRole("link", { name: /statement/i })).toHaveCount(0);
  await paperwork.getByRole("link", { name: "Invoice INV-0001", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invoice INV-0001");
  const invoice = page.getByRole("article", { name: "Invoice INV-0001" });
  await expect(invoice).toContainText("Pia Żak Studio");
  await expect(invoice).toContainText("Orbit Mugs Ltd");
  await expect(invoice).toContainText("9 Harbour Road");
  await expect(invoice).toContainText("Tax id: GB123456789");
  await expect(invoice).toContainText("Sponsorship: Mug launch");
  await expect(invoice).toContainText("YouTube: A morning vlog segment");
  // $600 × 20 / 120 = $100, part of the $600 paid.
  await expect(invoice).toContainText("Includes VAT 20%: $100");
  await expect(invoice.getByRole("row", { name: /Total paid/ })).toContainText("$600");
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("invoice-INV-0001.pdf");
  const chunks: Buffer[] = [];
  for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  // The statement is the creator's alone.
  expect((await page.request.get(`${dealPath}/statement`)).status()).toBe(404);
  expect((await page.request.get(`${dealPath}/statement.pdf`)).status()).toBe(404);

  // The creator, on the phone: the same invoice, and the statement of the money.
  await creator.page.goto(dealPath);
  const theirs = creator.page.getByRole("region", { name: "Paperwork" });
  await theirs.getByRole("link", { name: "Your statement", exact: true }).click();
  await expect(creator.page.getByRole("heading", { level: 1 })).toHaveText("Statement for INV-0001");
  await expect(creator.page.getByRole("row", { name: /Price paid by Orbit Mugs Ltd/ })).toContainText("$600");
  await expect(creator.page.getByRole("row", { name: /Still held for the work/ })).toContainText("$600");
  await expect(creator.page.getByRole("row", { name: /Paid by Orbit Mugs Ltd, held by the platform/ })).toContainText("$600");
  expect(await creator.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  expect((await new AxeBuilder({ page: creator.page }).analyze()).violations).toEqual([]);
  const statementPdf = await creator.page.request.get(`${dealPath}/statement.pdf`);
  expect(statementPdf.headers()["content-type"]).toBe("application/pdf");
  expect(statementPdf.headers()["cache-control"]).toBe("private, no-store");
  expect((await statementPdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await creator.page.getByRole("link", { name: "← Back to the deal" }).click();
  await creator.page.getByRole("link", { name: "Invoice INV-0001", exact: true }).click();
  await expect(creator.page.getByRole("heading", { level: 1 })).toHaveText("Invoice INV-0001");
  expect(await creator.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // Anyone else gets the product's not-found, on the page and the file alike.
  const stranger = await otherClient(browser);
  await signedInAs(stranger.page, { prefix: "paper-stranger" });
  expect((await stranger.page.goto(`${dealPath}/invoice`))?.status()).toBe(404);
  expect((await stranger.page.request.get(`${dealPath}/invoice.pdf`)).status()).toBe(404);
  await Promise.all([creator.context.close(), stranger.context.close()]);
});
