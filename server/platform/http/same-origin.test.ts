import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refuseCrossSiteWrites } from "./same-origin";

let base = "";
let close = () => {};
beforeAll(async () => {
  const app = express();
  app.use(refuseCrossSiteWrites(["https://sponsorgrid.example"], ["/api/webhooks/"]));
  app.all("/{*path}", (_req, res) => {
    res.send("ok");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("refuseCrossSiteWrites", () => {
  it.each([
    ["a same-origin form post", { "Sec-Fetch-Site": "same-origin", Origin: "https://sponsorgrid.example" }, 200],
    ["a post from the configured origin", { Origin: "https://sponsorgrid.example" }, 200],
    ["a post without browser headers", {}, 200],
    ["a post from another site", { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }, 403],
    ["a post from a sibling subdomain", { "Sec-Fetch-Site": "same-site" }, 403],
    ["a post with an unknown Origin only", { Origin: "https://evil.example" }, 403],
    ["a post from an opaque origin", { Origin: "null" }, 403],
  ])("%s → %i", async (_name, headers, status) => {
    const response = await fetch(`${base}/signin`, { method: "POST", headers, body: "x=1" });
    expect(response.status).toBe(status);
  });

  it("lets reads and exempt paths through", async () => {
    expect((await fetch(`${base}/signin`, { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(200);
    const hook = await fetch(`${base}/api/webhooks/stripe`, { method: "POST", headers: { Origin: "https://stripe.example" } });
    expect(hook.status).toBe(200);
  });
});
