import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import http from "node:http";
import zlib from "node:zlib";

/** Raw bytes and headers as sent, without the automatic decompression a browser would do. */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers: { accept: "text/html,*/*", "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

test("an unknown path shows the 404 page, marked noindex", async ({ page }) => {
  const response = await page.goto("/no-such-page/anywhere");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found | Sponsorgrid");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await page.getByRole("main").getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveURL("/");
});

test("an unknown blog post is a 404 too", async ({ request }) => {
  expect((await request.get("/blog/not-a-post")).status()).toBe(404);
});

test("/500 is the error page, with status 500 and no a11y violations", async ({ page }) => {
  const response = await page.goto("/500");
  expect(response?.status()).toBe(500);
  await expect(page).toHaveTitle("Something went wrong | Sponsorgrid");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Something went wrong on our side");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test("an unexpected failure shows the error page with status 500 and never the error", async ({ page }) => {
  const response = await page.goto("/__test/boom");
  expect(response?.status()).toBe(500);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Something went wrong on our side");
  const html = await page.content();
  expect(html).not.toContain("SECRET-STACK-MARKER");
  expect(html).not.toMatch(/at .+\.(js|ts):\d+/);
});

test("a malformed address is a client error, not a crash", async ({ request }) => {
  const response = await request.get("/%E0%A4%A");
  expect(response.status()).toBeGreaterThanOrEqual(400);
  expect(response.status()).toBeLessThan(500);
});

test("every response carries the security headers", async ({ request }) => {
  const home = await request.get("/");
  const css = (await home.text()).match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
  expect(css).toBeTruthy();
  for (const path of ["/", "/about", "/no-such-page", "/500", "/robots.txt", css!, "/og-default.png"]) {
    const headers = (await request.get(path)).headers();
    const csp = headers["content-security-policy"] ?? "";
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc, path).toContain("'self'");
    expect(scriptSrc, path).not.toContain("unsafe-inline");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    // Served over plain http here: no HSTS.
    expect(headers["strict-transport-security"], path).toBeUndefined();
    expect(headers["x-powered-by"], path).toBeUndefined();
  }
});

test("pages go out compressed once, whole, with their length; other files through the middleware", async ({ baseURL }) => {
  const page = `${baseURL}/app/opportunities`;
  const br = await rawGet(page, "gzip, deflate, br");
  expect(br.headers["content-encoding"]).toBe("br");
  expect(br.headers["vary"]).toMatch(/accept-encoding/i);
  expect(br.headers["transfer-encoding"]).toBeUndefined();
  expect(Number(br.headers["content-length"])).toBe(br.body.length);
  const html = zlib.brotliDecompressSync(br.body).toString("utf8");
  expect(html).toMatch(/^<!DOCTYPE html>/i);
  expect(html).toContain("Search By Tag");

  const gzip = await rawGet(page, "gzip");
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(zlib.gunzipSync(gzip.body).toString("utf8")).toContain("Search By Tag");

  const plain = await rawGet(page, "identity");
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.body.toString("utf8")).toContain("Search By Tag");

  const css = html.match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
  const stylesheet = await rawGet(`${baseURL}${css}`, "gzip, deflate, br");
  expect(stylesheet.headers["content-encoding"]).toBe("br");
  expect(zlib.brotliDecompressSync(stylesheet.body).toString("utf8")).toContain(".opportunity-card");
});

test("a toast raised before a redirect shows at the bottom centre once", async ({ page }) => {
  await page.goto("/__test/toast?kind=success&message=Your%20changes%20were%20saved&to=/about");
  await expect(page).toHaveURL("/about");
  const toast = page.getByRole("status").filter({ hasText: "Your changes were saved" });
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(4);
  expect(viewport.height - (box.y + box.height)).toBeLessThan(40);
  await page.reload();
  await expect(page.getByText("Your changes were saved")).toHaveCount(0);
});

test("error toasts are announced as alerts", async ({ page }) => {
  await page.goto("/__test/toast?kind=error&message=That%20did%20not%20work&to=/");
  await expect(page.getByRole("alert")).toHaveText(/That did not work/);
});
