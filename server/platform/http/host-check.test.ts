import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { trustedForwarding } from "./forwarding";
import { hostChecker, refuseUnknownHosts } from "./host-check";

describe("hostChecker", () => {
  const production = hostChecker(loadConfig({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", PORT: "3000", PUBLIC_ORIGIN: "https://sponsorgrid.example", BIO_ORIGIN: "https://bizb.example" }));
  const local = hostChecker(loadConfig({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", PORT: "3100" }));
  const development = hostChecker(loadConfig({ NODE_ENV: "development", PORT: "3000", PUBLIC_ORIGIN: "https://sponsorgrid.example" }));

  it.each(["sponsorgrid.example", "SPONSORGRID.example", "sponsorgrid.example:443", "bizb.example", "bizb.example:443", "sponsorgrid.example."])(
    "production serves its own names: %s",
    (host) => expect(production(host)).toBe(true),
  );

  it.each([
    "evil.example",
    "sponsorgrid.example.evil.example",
    "sponsorgrid.example:8443",
    "localhost:3000",
    "127.0.0.1:3000",
    "[::1]:3000",
    "sponsorgrid.example@evil.example",
    "evil.example/sponsorgrid.example",
    "",
    undefined,
  ])("production refuses %j", (host) => expect(production(host)).toBe(false));

  it.each(["localhost:3100", "bio.localhost:3100", "127.0.0.1:3100", "[::1]:3100", "localhost"])(
    "a server on a localhost origin answers localhost names on its port: %s",
    (host) => expect(local(host)).toBe(true),
  );

  it.each(["localhost:3101", "evil.example:3100", "127.0.0.1.nip.io:3100"])("but not %s", (host) => expect(local(host)).toBe(false));

  it("development answers localhost names besides its origin", () => {
    expect(development("localhost:3000")).toBe(true);
    expect(development("sponsorgrid.example")).toBe(true);
    expect(development("evil.example:3000")).toBe(false);
  });
});

describe("refuseUnknownHosts", async () => {
  const app = express();
  app.set("trust proxy", 1);
  app.use(trustedForwarding());
  app.use(refuseUnknownHosts(loadConfig({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox", PUBLIC_ORIGIN: "https://sponsorgrid.example" })));
  app.get("/{*path}", (_req, res) => void res.send("served"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  afterAll(() => void server.close());
  const port = (server.address() as AddressInfo).port;

  /** fetch() will not send a Host of our choosing; http.get will. */
  const get = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http.get({ port, host: "127.0.0.1", path: "/dev/mailbox", headers }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      }).on("error", reject);
    });

  it("answers 421 to a DNS-rebinding page: evil.example resolving to this machine", async () => {
    const answer = await get({ Host: "evil.example" });
    expect(answer.status).toBe(421);
    expect(answer.body).toContain("This server answers only for sponsorgrid.example");
  });

  it("serves its own name, directly or as the trusted proxy says", async () => {
    expect((await get({ Host: "sponsorgrid.example" })).status).toBe(200);
    expect((await get({ Host: "app-internal:3000", "X-Forwarded-Host": "sponsorgrid.example" })).status).toBe(200);
    expect((await get({ Host: "sponsorgrid.example", "X-Forwarded-Host": "evil.example" })).status).toBe(421);
  });
});
