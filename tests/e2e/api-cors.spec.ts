import http from "node:http";
import { E2E_PORTS } from "#tests/support/e2e-ports";
import { createApiKey, expect, signedInAs, test } from "./fixtures";

/**
 * A stream overlay: a page on the creator's own site that shows who they are and their unread
 * notifications, reading the API in the browser with their key. The server lets one site's pages
 * (API_CORS_ORIGINS in playwright.config.ts) read the answers; any other site's are blocked by
 * the browser.
 */
const OVERLAY_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Overlay</title></head>
<body><main><h1>Overlay</h1><p id="status" role="status">Loading…</p></main>
<script>
  const [api, key] = decodeURIComponent(location.hash.slice(1)).split(" ");
  const headers = { Authorization: "Bearer " + key };
  (async () => {
    try {
      const me = await fetch(api + "/me", { headers });
      const identity = await me.json();
      const notes = await (await fetch(api + "/notifications?unread=true", { headers })).json();
      const read = await fetch(api + "/notifications/read-all", { method: "POST", headers });
      document.getElementById("status").textContent =
        "Hi " + identity.name + ": " + notes.data.length + " unread; marked read: " + read.status + "; requests left: " + (me.headers.get("RateLimit") ?? "not shown");
    } catch {
      document.getElementById("status").textContent = "Could not reach Sponsorgrid";
    }
  })();
</script></body></html>`;

function site(port: number): Promise<http.Server> {
  const server = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(OVERLAY_PAGE));
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

test("a page on a site the operator opened CORS to reads and writes with a key; another site's page cannot", async ({ page, browser, baseURL }) => {
  await signedInAs(page, { prefix: "api-cors", name: "Ola Overlay" });
  const key = await createApiKey(page, { name: "Stream overlay", readAndWrite: "Notifications" });
  // The welcome is waiting unread.
  await page.goto("/app/notifications");
  await expect(page.getByRole("button", { name: "Mark all as read" })).toBeVisible();

  const [allowed, other] = await Promise.all([site(E2E_PORTS.corsAllowedSite), site(E2E_PORTS.corsOtherSite)]);
  // A browser of its own: nothing of the test's comes along, neither the creator's session nor the
  // headers the suite adds to every request (they would be asked for in the preflight, and refused).
  const viewer = await browser.newContext({ extraHTTPHeaders: {} });
  try {
    const overlay = await viewer.newPage();
    const hash = encodeURIComponent(`${baseURL}/api/v1 ${key}`);
    await overlay.goto(`http://127.0.0.1:${E2E_PORTS.corsAllowedSite}/#${hash}`);
    // It reads who the key is and the unread notifications, marks them read, and sees its limit.
    await expect(overlay.getByRole("status")).toHaveText(/^Hi Ola Overlay: [1-9]\d* unread; marked read: 200; requests left: "per-key";r=\d+;t=\d+$/);

    await overlay.goto(`http://127.0.0.1:${E2E_PORTS.corsOtherSite}/#${hash}`);
    await expect(overlay.getByRole("status")).toHaveText("Could not reach Sponsorgrid");
  } finally {
    await viewer.close();
    allowed.close();
    other.close();
  }

  // The reference tells developers which sites this server opened the API to, and what that costs.
  await page.goto("/developers/api");
  await expect(page.getByTestId("api-cors")).toContainText(`This server lets web pages on http://127.0.0.1:${E2E_PORTS.corsAllowedSite} call the API from the browser`);
  await expect(page.getByTestId("api-cors")).toContainText("Anyone who opens such a page can see its key");

  // What the overlay did is the creator's own: nothing is unread any more.
  await page.goto("/app/notifications");
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
});
