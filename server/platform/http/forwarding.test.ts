import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { trustedForwarding } from "./forwarding";

const closers: (() => void)[] = [];
afterAll(() => closers.forEach((close) => close()));

/** An app that trusts proxies as TRUST_PROXY says and reports what it makes of a request. */
async function serve(trustProxy: string) {
  const app = express();
  app.set("trust proxy", loadConfig({ TRUST_PROXY: trustProxy }).TRUST_PROXY);
  app.use(trustedForwarding());
  app.get("/", (req, res) => {
    res.json({ ip: req.ip, protocol: req.protocol, host: req.host, secure: req.secure, forwardedFor: req.get("x-forwarded-for") ?? null });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  closers.push(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return async (headers: Record<string, string>) => (await fetch(url, { headers })).json();
}

describe("trusted forwarding with one proxy hop", async () => {
  const ask = await serve("1");

  it("takes the address the proxy appended, not the ones the client prepended", async () => {
    expect(await ask({ "X-Forwarded-For": "198.51.100.7" })).toMatchObject({ ip: "198.51.100.7" });
    const forged = await ask({ "X-Forwarded-For": "203.0.113.1, 10.9.9.9, 198.51.100.7" });
    expect(forged).toMatchObject({ ip: "198.51.100.7", forwardedFor: "198.51.100.7" });
  });

  it("reads the scheme and host the proxy wrote, whether it replaced or appended them", async () => {
    expect(await ask({ "X-Forwarded-Proto": "https", "X-Forwarded-Host": "sponsorgrid.example" })).toMatchObject({
      protocol: "https",
      secure: true,
      host: "sponsorgrid.example",
    });
    const appended = await ask({ "X-Forwarded-Proto": "https, http", "X-Forwarded-Host": "evil.example, sponsorgrid.example" });
    expect(appended).toMatchObject({ protocol: "http", secure: false, host: "sponsorgrid.example" });
  });

  it("uses the connection itself when no proxy header came", async () => {
    expect(await ask({})).toMatchObject({ ip: "127.0.0.1", protocol: "http", forwardedFor: null });
  });
});

describe("trusted forwarding through a list of proxy addresses", async () => {
  const ask = await serve("loopback, 10.0.0.0/8");

  it("skips every trusted proxy from the right and stops at the first other address", async () => {
    const answer = await ask({ "X-Forwarded-For": "6.6.6.6, 203.0.113.7, 10.0.0.5", "X-Forwarded-Proto": "http, https, http" });
    expect(answer).toMatchObject({ ip: "203.0.113.7", forwardedFor: "203.0.113.7, 10.0.0.5", protocol: "https" });
  });
});

describe("no trusted proxy", async () => {
  const ask = await serve("false");

  it("ignores the headers for the address and scheme, and leaves them for loopback checks to see", async () => {
    expect(await ask({ "X-Forwarded-For": "198.51.100.7", "X-Forwarded-Proto": "https" })).toMatchObject({
      ip: "127.0.0.1",
      protocol: "http",
      forwardedFor: "198.51.100.7",
    });
  });
});
