import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, signInAsStaff, signedInAs, test } from "./fixtures";

/**
 * Staff curate the sponsor directory at /app/admin/sponsors (ADR 0055) and a Pro member sees the
 * result. Serial: both tests add companies "now", and the first checks which is newest.
 */
test.describe.configure({ mode: "serial" });

const PHONE = { width: 375, height: 812 };
const word = () => randomBytes(4).toString("hex").replace(/[0-9]/g, (d) => "ghijklmnop"[Number(d)]!);

async function axeClean(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

async function fitsPhone(page: Page) {
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function proMember(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await signedInAs(page, { prefix: "dirpro" });
  await testHooks(page.request).setPro(true);
  return page;
}

test("staff add a company Pro members see first in Recently Added, edit it with sources, then retire it", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signInAsStaff(page);
  const name = `Curated ${word()}`;

  await page.goto("/app/admin/sponsors");
  await expect(page.getByRole("heading", { name: "Sponsor directory", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What Pro members search for and do not find" })).toBeVisible();
  await axeClean(page);
  await fitsPhone(page);

  await page.getByRole("link", { name: "Add a company" }).click();
  await expect(page.getByRole("heading", { name: "Add a company", level: 1 })).toBeVisible();
  await axeClean(page);
  // A first try with a bad website and no tags: each field says what is wrong, nothing is added.
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Website", { exact: true }).fill("javascript:alert(1)");
  await page.getByLabel("Blurb", { exact: true }).fill(`${name} sponsors tech reviewers and tutorial channels with integrated reads and discount codes.`);
  await page.getByLabel("How to apply", { exact: true }).fill("Apply through the creator form on the company's own site.");
  await page.getByLabel("Source", { exact: true }).fill("https://press.example/curated");
  await page.getByRole("button", { name: "Add company" }).click();
  await expect(page.getByText("Website must start with https:// or http://.")).toBeVisible();
  await expect(page.getByText("Choose 1 to 5 tags.")).toBeVisible();
  await expect(page.getByLabel("Website", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await axeClean(page);

  await page.getByLabel("Website", { exact: true }).fill("https://curated.example");
  await page.getByRole("checkbox", { name: "vpn" }).check();
  await page.getByLabel("Source of the blurb").fill("https://curated.example/about");
  await page.getByRole("button", { name: "Add company" }).click();
  await expect(page.getByText(`Added ${name}.`)).toBeVisible();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const companyUrl = new URL(page.url()).pathname;
  const id = companyUrl.split("/").at(-1)!;
  await axeClean(page);
  await fitsPhone(page);

  // A Pro member: the new company leads Recently Added, and its page cites its sources.
  const pro = await proMember(browser);
  await pro.goto("/app/sponsors/recent");
  await expect(pro.getByRole("list", { name: "Sponsors" }).getByRole("heading", { level: 3 }).first()).toHaveText(name);
  await pro.goto(`/app/sponsors/${id}`);
  await expect(pro.getByRole("link", { name: "Source of the description (opens in a new tab)" })).toHaveAttribute("href", "https://curated.example/about");
  await expect(pro.getByRole("link", { name: "https://press.example/curated (opens in a new tab)" })).toBeVisible();

  // Staff edit the blurb; the Pro page shows the new words.
  await page.getByLabel("Blurb", { exact: true }).fill(`${name} now sponsors VPN explainers and travel vlogs, with codes and integrated reads alike.`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await pro.reload();
  await expect(pro.getByText(`${name} now sponsors VPN explainers`)).toBeVisible();

  // Retire: gone for Pro (list, recents, page), kept for staff, and restorable.
  await page.getByRole("button", { name: "Retire company" }).click();
  await expect(page.getByText("Retired: Pro members no longer see this company.")).toBeVisible();
  expect((await pro.goto(`/app/sponsors/${id}`))?.status()).toBe(404);
  await pro.goto(`/app/sponsors?name=${encodeURIComponent(name)}`);
  await expect(pro.getByText("Sorry, we couldn't find any sponsors matching your search criteria.")).toBeVisible();
  await pro.goto("/app/sponsors/recent");
  await expect(pro.getByRole("heading", { name, level: 3 })).toHaveCount(0);
  await page.goto("/app/admin/sponsors");
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Retired");
  await page.getByRole("link", { name }).click();
  await page.getByRole("button", { name: "Restore company" }).click();
  await expect(page.getByText("Restored: Pro members see this company again.")).toBeVisible();
  expect((await pro.goto(`/app/sponsors/${id}`))?.status()).toBe(200);

  // The search that found nothing is in the staff report (the search log writes every few seconds).
  const missing = `nosuch${word()}`;
  await pro.goto(`/app/sponsors?name=${missing}`);
  await expect(pro.getByText("Sorry, we couldn't find any sponsors matching your search criteria.")).toBeVisible();
  await expect(async () => {
    await page.goto("/app/admin/sponsors");
    await expect(page.getByRole("row", { name: new RegExp(missing) })).toContainText("Name");
  }).toPass({ timeout: 20_000 });
  await pro.close();
});

test("staff export the list, and import a CSV after a preview of what it changes", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signInAsStaff(page);
  await page.goto("/app/admin/sponsors");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^sponsor-directory-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = await readFile((await download.path())!, "utf8");
  const [header, ...rows] = parse(exported, { bom: true }) as string[][];
  expect(header).toEqual(expect.arrayContaining(["id", "name", "website", "tags", "blurb", "source", "blurb_source", "retired", "added"]));
  expect(rows.length).toBeGreaterThanOrEqual(150);

  const name = `Imported ${word()}`;
  const column = (row: Record<string, string>) => header!.map((c) => `"${(row[c] ?? "").replaceAll('"', '""')}"`).join(",");
  const good = {
    name,
    website: "https://imported.example",
    tags: "vpn; travel",
    blurb: `${name} sponsors travel creators and privacy explainers, mostly with discount codes and integrated reads.`,
    apply: "Apply through the partner page on the company's own site.",
    source: "https://press.example/imported",
    apply_source: "https://imported.example/partners",
  };
  const file = (rowsOut: Record<string, string>[]) => ({ name: "companies.csv", mimeType: "text/csv", buffer: Buffer.from([header!.join(","), ...rowsOut.map(column)].join("\r\n")) });

  await page.goto("/app/admin/sponsors/import");
  await axeClean(page);
  // Larger than the import takes: refused at the door with 413, before anything reads it.
  const huge = { name: "huge.csv", mimeType: "text/csv", buffer: Buffer.alloc(2_200_000, "a") };
  expect((await page.request.post("/app/admin/sponsors/import", { multipart: { intent: "preview", file: huge }, maxRedirects: 0 })).status()).toBe(413);
  // A file with one bad row: the preview says which and why, and offers no apply.
  await page.getByLabel("CSV file").setInputFiles(file([good, { ...good, name: `${name} two`, website: "ftp://x.example", tags: "spaceships" }]));
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByText("1 to add, 0 to change, 0 unchanged, 1 with errors.")).toBeVisible();
  await expect(page.getByText("Website must start with https:// or http://.")).toBeVisible();
  await expect(page.getByText("Not a directory tag: “spaceships”.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Apply import" })).toHaveCount(0);
  await axeClean(page);

  // Not a CSV at all: refused with a reason, nothing previewed.
  await page.getByLabel("CSV file").setInputFiles({ name: "x.csv", mimeType: "text/csv", buffer: Buffer.from("just,some\nwords,here\n") });
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByText(/The first line must name the columns/)).toBeVisible();

  await page.getByLabel("CSV file").setInputFiles(file([good]));
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByText("1 to add, 0 to change, 0 unchanged, 0 with errors.")).toBeVisible();
  await fitsPhone(page);
  await page.getByRole("button", { name: "Apply import" }).click();
  await expect(page.getByText("Imported: 1 added, 0 changed, 0 unchanged.")).toBeVisible();
  await expect(page.getByRole("link", { name })).toBeVisible();

  // A Pro member sees it first in Recently Added, with the source of How to apply.
  const pro = await proMember(browser);
  await pro.goto("/app/sponsors/recent");
  await expect(pro.getByRole("list", { name: "Sponsors" }).getByRole("heading", { level: 3 }).first()).toHaveText(name);
  await pro.getByRole("link", { name }).first().click();
  await expect(pro.getByRole("link", { name: "Source of the how to apply (opens in a new tab)" })).toHaveAttribute("href", "https://imported.example/partners");
  // Not staff: the export and the import are the site's 404, like the rest of the back office.
  expect((await pro.request.get("/app/admin/sponsors/export.csv", { maxRedirects: 0 })).status()).toBe(404);
  expect((await pro.request.post("/app/admin/sponsors/import", { multipart: { intent: "preview", file: file([good]) }, maxRedirects: 0 })).status()).toBe(404);
  await pro.close();

  // The export now holds it; imported back unchanged, it changes nothing.
  await page.goto("/app/admin/sponsors");
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const second = await readFile((await again.path())!);
  expect(second.toString("utf8")).toContain(name);
  await page.goto("/app/admin/sponsors/import");
  await page.getByLabel("CSV file").setInputFiles({ name: "all.csv", mimeType: "text/csv", buffer: second });
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByText(/^0 to add, 0 to change, \d+ unchanged, 0 with errors\.$/)).toBeVisible();
  await expect(page.getByText("This file changes nothing.")).toBeVisible();
});
