import type { Page } from "@playwright/test";
import { DEMO, expect, signIn, test } from "./fixtures";

/**
 * What a guest's browser downloads for the opportunity list:
 * at most 120 KB of compressed JavaScript, and nothing that only the server
 * needs — no zod, no drizzle, no tag catalogue (the tags reach the page as
 * loader data, never as code).
 */
const BUDGET_BYTES = 120_000;

const SERVER_ONLY_MARKERS: [string, RegExp][] = [
  ["zod", /\$ZodType|ZodError|_zod\b/],
  ["drizzle", /drizzle:entityKind|Drizzle entity/],
  // Three tags from different groups of the seed catalogue, as a bundled array would hold them.
  ["tag catalogue", /district of columbia|esports sponsorship|long-term partnership/],
];

/** Every script the page at `path` loads, with its body and the bytes it took on the wire. */
async function scriptsOf(page: Page, path: string) {
  const scripts: { url: string; body: string }[] = [];
  const transfer: Promise<number>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    transfer.push(response.request().sizes().then((sizes) => sizes.responseBodySize));
    scripts.push({ url: response.url(), body: "" });
    const entry = scripts[scripts.length - 1]!;
    void response.text().then((text) => (entry.body = text));
  });
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await expect.poll(() => scripts.every((s) => s.body.length > 0)).toBe(true);
  expect(scripts.length).toBeGreaterThan(0);
  return { scripts, transferBytes: (await Promise.all(transfer)).reduce((sum, bytes) => sum + bytes, 0) };
}

function expectNoServerOnlyCode(scripts: { url: string; body: string }[]) {
  for (const [name, marker] of SERVER_ONLY_MARKERS) {
    const carriers = scripts.filter((s) => marker.test(s.body)).map((s) => new URL(s.url).pathname);
    expect(carriers, `${name} reached the browser`).toEqual([]);
  }
}

for (const path of ["/app/opportunities", "/app/opportunities?tags[]=gaming"]) {
  test(`${path} ships at most ${BUDGET_BYTES / 1000} KB of compressed JavaScript and no server-only code`, async ({ page }) => {
    const { scripts, transferBytes } = await scriptsOf(page, path);
    expectNoServerOnlyCode(scripts);
    console.log(`${path}: ${scripts.length} scripts, ${transferBytes} bytes compressed`);
    expect(transferBytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });
}

test("the opportunity form ships no server-only code either: its limits come from browser-safe modules", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/app$/);
  const { scripts } = await scriptsOf(page, "/app/opportunities/new");
  await expect(page.getByRole("heading", { level: 1, name: "New opportunity" })).toBeVisible();
  expectNoServerOnlyCode(scripts);
});
