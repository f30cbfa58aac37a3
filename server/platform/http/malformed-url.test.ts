import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { refuseUnreadableUrls, unreadableUrl } from "./malformed-url";

describe("unreadableUrl", () => {
  it.each([
    ["/app/opportunities/%00", "path"],
    ["/%C0%AF", "path"],
    ["/blog/%E0%A4%A", "path"],
    ["/100%", "path"],
    ["/app/opportunities?tags[]=%FF", "query"],
    ["/app/opportunities?q=%00", "query"],
    ["/app/opportunities?%FE=1", "query"],
  ])("%s is unreadable in its %s", (url, where) => expect(unreadableUrl(url)).toBe(where));

  it.each(["/", "/app/opportunities?tags[]=gaming&tags[]=tech", "/blog/caf%C3%A9", "/search?q=a+b%2Bc&x=", "/%F0%9F%92%96?e=%E2%82%AC"])(
    "%s reads fine",
    (url) => expect(unreadableUrl(url)).toBeNull(),
  );
});

describe("refuseUnreadableUrls", async () => {
  const app = express();
  app.use(refuseUnreadableUrls());
  app.get("/{*path}", (_req, res) => void res.send("served"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  afterAll(() => void server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it("answers 400 with a reason, as a page to a browser", async () => {
    const page = await fetch(`${base}/app/opportunities/%00`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("contains a NUL byte or an encoding that is not valid UTF-8");
    const text = await fetch(`${base}/app/opportunities?tags[]=%FF`);
    expect(text.status).toBe(400);
    expect(text.headers.get("content-type")).toContain("text/plain");
    expect((await fetch(`${base}/blog/caf%C3%A9`)).status).toBe(200);
  });
});
