import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import http from "node:http";
import { randomInt } from "node:crypto";
import { DEMO } from "./fixtures";
import { hookPages } from "#tests/support/test-hooks-client";
import { E2E_PORT } from "#tests/support/e2e-ports";
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
  const response = await page.goto(hookPages.boom());
  expect(response?.status()).toBe(500);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Something went wrong on our side");
  const html = await page.content();
  expect(html).not.toContain("SECRET-STACK-MARKER");
  expect(html).not.toMatch(/at .+\.(js|ts):\d+/);
});

test("an address with a NUL byte or broken UTF-8 is a 400 that says so, never a crash", async ({ request, page }) => {
  for (const path of ["/%E0%A4%A", "/app/opportunities/%00", "/%C0%AF", "/app/opportunities?tags[]=%FF", "/blog/%E0%A4%A", "/app/opportunities?q=%00"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(400);
    expect(await response.text(), path).toContain("a NUL byte or an encoding that is not valid UTF-8");
  }
  const response = await page.goto("/app/opportunities/%00");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This address cannot be read");
  await page.getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveURL("/");
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
  await page.goto(hookPages.toast({ kind: "success", message: "Your changes were saved", to: "/about" }));
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
  await page.goto(hookPages.toast({ kind: "error", message: "That did not work", to: "/" }));
  await expect(page.getByRole("alert")).toHaveText(/That did not work/);
});

/** A request with headers fetch() would not send as given (Host). */
function rawRequest(url: string, options: http.RequestOptions, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(url, { agent: false, ...options }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

test("a page on another host name (DNS rebinding) cannot reach the mailbox or any page", async ({ baseURL }) => {
  for (const path of ["/dev/mailbox", "/", "/signin"]) {
    const rebound = await rawRequest(`${baseURL}${path}`, { headers: { Host: "evil.example", Accept: "text/html" } });
    expect(rebound.status, path).toBe(421);
    expect(rebound.body).toContain("This server answers only for localhost:");
  }
  const posted = await rawRequest(`${baseURL}/signin`, { method: "POST", headers: { Host: `evil.example:${E2E_PORT}`, "content-type": "application/x-www-form-urlencoded" } }, "intent=reset&email=a%40b.example");
  expect(posted.status).toBe(421);
  expect((await rawRequest(`${baseURL}/about`, { headers: { Host: new URL(baseURL!).host } })).status).toBe(200);
});

test("a form larger than any real one is refused with 413 and a page that says why", async ({ request, page }) => {
  const huge = { intent: "signin", email: "someone@e2e.example", password: "x".repeat(300 * 1024) };
  const refused = await request.post("/signin", { form: huge, headers: { Accept: "text/html" } });
  expect(refused.status()).toBe(413);
  expect(await refused.text()).toContain("The request body is larger than 128 KB");

  // A person pasting far too much into the sign-in form sees the same page.
  await page.goto("/signin");
  await page.getByLabel("Email").fill("someone@e2e.example");
  await page.getByLabel("Password").evaluate((input: HTMLInputElement) => (input.value = "x".repeat(300 * 1024)));
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("That was too much to send");
});

test("a callable function's oversized JSON gets a 413 in the functions protocol", async ({ request }) => {
  const response = await request.post("/api/functions/verifyRecaptcha", { data: { data: { token: "t".repeat(200 * 1024) } } });
  expect(response.status()).toBe(413);
  expect(await response.json()).toEqual({ error: { status: "INVALID_ARGUMENT", message: "The request body is larger than 100 KB." } });
});

test("a client cannot choose its rate-limit address by prepending forged ones", async ({ request }) => {
  // What the trusted proxy (here, the test) appended: one address for the whole run of requests.
  const client = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const statuses: number[] = [];
  for (let i = 0; i < 40 && !statuses.includes(429); i++) {
    const response = await request.post("/signin", {
      form: { intent: "signin", email: `forger.${i}.${randomInt(1e9)}@e2e.example`, password: "wrong-password-1" },
      headers: { "X-Forwarded-For": `203.0.${i}.${randomInt(1, 255)}, 198.51.100.${i + 1}, ${client}` },
    });
    statuses.push(response.status());
  }
  expect(statuses).toContain(429);
  // Another client is not held back by the forger.
  const other = await request.post("/signin", {
    form: { intent: "signin", email: `bystander.${randomInt(1e9)}@e2e.example`, password: "wrong-password-1" },
    headers: { "X-Forwarded-For": `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}` },
  });
  expect(other.status()).toBe(401);
});

test("test hooks answer only this machine with the suite's secret", async ({ baseURL, request }) => {
  expect((await request.get(hookPages.toast({ kind: "success", message: "hi", to: "/about" }), { maxRedirects: 0 })).status()).toBe(302);
  // No secret.
  expect((await fetch(`${baseURL}${hookPages.boom()}`)).status).toBe(404);
  expect((await fetch(`${baseURL}${hookPages.boom().replace("__test", "__TEST")}`)).status).toBe(404);
  // The secret, but from a client elsewhere, as the trusted proxy says.
  const fromElsewhere = await request.get(hookPages.boom(), { headers: { "X-Forwarded-For": "203.0.113.9" } });
  expect(fromElsewhere.status()).toBe(404);
  const forgedLocal = await request.get(hookPages.boom(), { headers: { "X-Forwarded-For": "127.0.0.1, 203.0.113.9" } });
  expect(forgedLocal.status()).toBe(404);
});

test("signed-in pages are never cached, and cookies set over https are Secure", async ({ page, request }) => {
  const guest = await request.get("/about");
  expect(guest.headers()["cache-control"] ?? "").not.toContain("no-store");

  const signIn = await request.post("/signin", {
    form: { intent: "signin", email: DEMO.email, password: DEMO.password },
    headers: { "X-Forwarded-Proto": "https" },
    maxRedirects: 0,
  });
  expect(signIn.status()).toBe(302);
  expect(signIn.headers()["cache-control"]).toBe("private, no-store");
  const cookies = signIn.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => h.value);
  expect(cookies.some((c) => c.startsWith("sg.session_token="))).toBe(true);
  for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i);

  // Over plain http (this test server), a browser keeps its cookies and every signed-in page is private.
  await page.goto("/signin");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).not.toHaveURL(/\/signin/);
  for (const path of ["/app", "/about", "/app/opportunities"]) {
    const response = await page.goto(path);
    expect(response?.headers()["cache-control"], path).toBe("private, no-store");
  }
});
