import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { trustedForwarding } from "./forwarding";
import { hasSessionCookie, personalisedResponses } from "./personalised";

describe("personalisedResponses", async () => {
  const app = express();
  app.set("trust proxy", 1);
  app.use(trustedForwarding());
  app.use(personalisedResponses({ sessionCookiePrefix: "sg" }));
  app.get("/public", (_req, res) => void res.set("Cache-Control", "public, max-age=60").send("same for all"));
  app.get("/sign-in", (_req, res) => {
    res.append("Set-Cookie", "sg.session_token=abc; Path=/; HttpOnly; SameSite=Lax");
    res.append("Set-Cookie", "toast=x; Path=/; Secure");
    res.set("Cache-Control", "public, max-age=60").send("welcome");
  });
  // As better-auth's node handler and some middleware do: headers given to writeHead itself.
  app.get("/write-head", (_req, res) => {
    res.writeHead(302, { Location: "/", "Set-Cookie": ["sg.state=1; Path=/"] }).end();
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  afterAll(() => void server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers, redirect: "manual" });

  it("leaves a guest's response to shared caches", async () => {
    expect((await get("/public")).headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("keeps a signed-in person's response out of every cache", async () => {
    const signedIn = await get("/public", { Cookie: "theme=dark; sg.session_token=abc.def" });
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    const secureName = await get("/public", { Cookie: "__Secure-sg.session_token=abc.def" });
    expect(secureName.headers.get("cache-control")).toBe("private, no-store");
  });

  it("keeps any response that sets a cookie out of every cache", async () => {
    expect((await get("/sign-in")).headers.get("cache-control")).toBe("private, no-store");
    expect((await get("/write-head")).headers.get("cache-control")).toBe("private, no-store");
  });

  it("marks cookies Secure when the trusted proxy says the request came over https, and only then", async () => {
    const overHttps = (await get("/sign-in", { "X-Forwarded-Proto": "https" })).headers.getSetCookie();
    expect(overHttps).toEqual(["sg.session_token=abc; Path=/; HttpOnly; SameSite=Lax; Secure", "toast=x; Path=/; Secure"]);
    expect((await get("/write-head", { "X-Forwarded-Proto": "https" })).headers.getSetCookie()).toEqual(["sg.state=1; Path=/; Secure"]);
    expect((await get("/sign-in")).headers.getSetCookie()[0]).toBe("sg.session_token=abc; Path=/; HttpOnly; SameSite=Lax");
  });
});

describe("hasSessionCookie", () => {
  it.each([
    ["sg.session_token=x", true],
    ["a=1; __Secure-sg.session_data=x", true],
    ["sgx.session_token=x", false],
    ["toast=sg.session_token", false],
    [undefined, false],
  ])("%j → %s", (header, expected) => expect(hasSessionCookie(header, "sg")).toBe(expected));
});
