import express from "express";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { trustedForwarding } from "./forwarding";
import { guardTestRoutes, isTestRoutePath, mayUseTestRoutes } from "./test-routes";

const SECRET = "s3cret-for-the-suite-only";

describe("mayUseTestRoutes", () => {
  const local = { peerAddress: "127.0.0.1", clientIp: "127.0.0.1", forwarded: false, trustsProxy: false, secret: SECRET };

  it("lets this machine in with the secret", () => {
    expect(mayUseTestRoutes(local, SECRET)).toBe(true);
    expect(mayUseTestRoutes({ ...local, peerAddress: "::ffff:127.0.0.1" }, SECRET)).toBe(true);
  });

  it.each([
    ["without the secret", { secret: undefined }],
    ["with a wrong secret", { secret: "s3cret-for-the-suite-onlY" }],
    ["from another machine", { peerAddress: "192.0.2.10", clientIp: "192.0.2.10" }],
    ["through an untrusted proxy on this machine", { forwarded: true, clientIp: "127.0.0.1" }],
    ["through a trusted proxy for a client elsewhere", { forwarded: true, trustsProxy: true, clientIp: "203.0.113.5" }],
  ])("refuses a caller %s", (_name, change) => {
    expect(mayUseTestRoutes({ ...local, ...change }, SECRET)).toBe(false);
  });

  it("accepts a trusted proxy on this machine for a client on this machine (the e2e suite)", () => {
    expect(mayUseTestRoutes({ ...local, forwarded: true, trustsProxy: true, clientIp: "127.4.5.6" }, SECRET)).toBe(true);
  });
});

describe("isTestRoutePath", () => {
  it.each(["/__test", "/__test/boom", "/__TEST/toast", "/%5F_test/boom", "//__test//identity", "/\\__test/boom"])("%s is a test route", (path) =>
    expect(isTestRoutePath(path)).toBe(true),
  );
  it.each(["/", "/__testing", "/app/__test/boom"])("%s is not", (path) => expect(isTestRoutePath(path)).toBe(false));
});

describe("guardTestRoutes", async () => {
  const app = express();
  app.set("trust proxy", 1);
  app.use(trustedForwarding());
  app.use(guardTestRoutes({ enabled: true, secret: SECRET, trustsProxy: true }));
  app.get("/{*path}", (_req, res) => void res.send("hook ran"));
  // Listens on every interface, so that it can also be reached from "another machine": this one's LAN address.
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  afterAll(() => void server.close());
  const port = (server.address() as AddressInfo).port;
  const call = (host: string, headers: Record<string, string> = {}) => fetch(`http://${host}:${port}/__test/boom`, { headers });

  it("runs the hook for this machine with the secret, and answers a plain 404 otherwise", async () => {
    expect((await call("127.0.0.1", { "X-Test-Routes-Secret": SECRET })).status).toBe(200);
    expect((await call("127.0.0.1")).status).toBe(404);
    expect((await call("127.0.0.1", { "X-Test-Routes-Secret": SECRET, "X-Forwarded-For": "203.0.113.5" })).status).toBe(404);
    // A client that prepends a loopback address is still the address the proxy appended.
    expect((await call("127.0.0.1", { "X-Test-Routes-Secret": SECRET, "X-Forwarded-For": "127.0.0.1, 203.0.113.5" })).status).toBe(404);
    expect((await call("127.0.0.1", { "X-Test-Routes-Secret": SECRET, "X-Forwarded-For": "127.0.0.9" })).status).toBe(200);
  });

  const lanAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

  it("refuses a connection from another address, even with the secret", async () => {
    expect(lanAddress, "this machine needs a non-loopback IPv4 address for this test").toBeDefined();
    const response = await call(lanAddress!, { "X-Test-Routes-Secret": SECRET });
    expect(response.status).toBe(404);
  });
});
