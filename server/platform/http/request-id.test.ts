import express from "express";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, requestLogger } from "./logging";
import http from "node:http";
import type { TrustProxy } from "#server/platform/config";
import { compileTrust } from "./forwarding";
import { createRequestIds, trustedRequestId, withRequestIds } from "./request-id";
import { chargingCalls, newRequestCost } from "./request-cost";

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** The process's logger, request ids and request log as lifecycle.ts wires them, writing into `lines`. */
async function serveWithLog(lines: Record<string, unknown>[], trustProxy: TrustProxy = false) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const requestIds = createRequestIds();
  const logger = createLogger("info", requestIds, sink);
  const app = express();
  app.use(requestLogger(logger, requestIds));
  // Work as domain code does it: after awaits, in a timer (a mail sent in the background), never handed the request.
  app.get("/work", async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.info({ step: "domain" }, "domain work");
    setImmediate(() => logger.warn({ step: "mail" }, "mail sent later"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    res.send(String(req.query.n));
  });
  const server = http.createServer(withRequestIds(requestIds, compileTrust(trustProxy), app)).listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logger };
}

describe("request ids", () => {
  it("every line written while a request is answered names it, and the response says which it was", async () => {
    const lines: Record<string, unknown>[] = [];
    const { url, logger } = await serveWithLog(lines);
    // Two at once, so one request's lines could only be told apart by the id.
    const responses = await Promise.all([fetch(`${url}/work?n=1`), fetch(`${url}/work?n=2`)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    logger.info("between requests");

    const ids = responses.map((response) => response.headers.get("x-request-id")!);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const own = lines.filter((line) => line.requestId === id);
      expect(own.map((line) => line.step ?? "access").sort()).toEqual(["access", "domain", "mail"]);
      // The access line names it too, as its req.id.
      expect(lines.filter((line) => (line.req as { id?: string } | undefined)?.id === id)).toHaveLength(1);
    }
    // Outside any request, no id.
    expect(lines.find((line) => line.msg === "between requests")).not.toHaveProperty("requestId");
  });

  it("without TRUST_PROXY a client's X-Request-Id is never taken", async () => {
    const lines: Record<string, unknown>[] = [];
    const { url } = await serveWithLog(lines, false);
    const response = await fetch(`${url}/work?n=3`, { headers: { "X-Request-Id": "chosen-by-the-client" } });
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((line) => JSON.stringify(line).includes("chosen-by-the-client"))).toBe(false);
  });

  it("a trusted proxy's X-Request-Id names the request's lines and is sent back", async () => {
    const lines: Record<string, unknown>[] = [];
    const { url } = await serveWithLog(lines, ["loopback"]);
    const response = await fetch(`${url}/work?n=4`, { headers: { "X-Request-Id": "nginx:7f3a9c0e1b2d" } });
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(response.headers.get("x-request-id")).toBe("nginx:7f3a9c0e1b2d");
    expect(lines.filter((line) => line.requestId === "nginx:7f3a9c0e1b2d").map((line) => line.step ?? "access").sort()).toEqual(["access", "domain", "mail"]);
  });

  it("a peer that is not the trusted proxy is not believed, whatever TRUST_PROXY lists", async () => {
    const lines: Record<string, unknown>[] = [];
    const { url } = await serveWithLog(lines, ["10.0.0.0/8"]);
    const response = await fetch(`${url}/work?n=5`, { headers: { "X-Request-Id": "not-from-the-proxy" } });
    await response.text();
    expect(response.headers.get("x-request-id")).not.toBe("not-from-the-proxy");
  });

  it("replaces a hostile id even from the trusted proxy: newlines, 10 KB, JSON, spaces", () => {
    const trust = compileTrust(["loopback"]);
    const from = (value: string | string[]) => trustedRequestId({ "x-request-id": value } as never, "127.0.0.1", trust);
    expect(from("abc-123_X.y:z")).toBe("abc-123_X.y:z");
    expect(from("a".repeat(128))).toBe("a".repeat(128));
    for (const hostile of ["", "a\nb", 'x"}\n{"level":60,"msg":"forged', "a".repeat(129), "x".repeat(10 * 1024), '{"requestId":"x"}', "two words", "caf\u00e9", ["a", "b"]]) {
      expect(from(hostile)).toBeNull();
    }
  });

  it("a hostile id over HTTP becomes a fresh one on the response and in the lines", async () => {
    const lines: Record<string, unknown>[] = [];
    const { url } = await serveWithLog(lines, ["loopback"]);
    const big = "x".repeat(10 * 1024);
    const response = await fetch(`${url}/work?n=6`, { headers: { "X-Request-Id": big } });
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const id = response.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.filter((line) => line.requestId === id)).toHaveLength(3);
    expect(JSON.stringify(lines)).not.toContain(big);
  });
});

describe("what a request costs", () => {
  it("counts only what runs in the request's scope, however late its promises settle", async () => {
    const requestIds = createRequestIds();
    const cost = newRequestCost();
    // Outside any request (a background loop): counted against nobody.
    requestIds.charge("statements");
    await requestIds.run(
      "req-1",
      async () => {
        requestIds.charge("statements");
        await new Promise((resolve) => setTimeout(resolve, 5));
        requestIds.charge("statements");
        requestIds.charge("renders");
      },
      cost,
    );
    expect(cost).toEqual({ statements: 2, renders: 1, providerCalls: 0 });
  });

  it("charges a provider call per method called, and none for the provider's local work", async () => {
    const requestIds = createRequestIds();
    const cost = newRequestCost();
    const provider = chargingCalls(
      { readAccount: async () => "acct", parseWebhook: () => "event", displayName: "Sandbox" },
      "providerCalls",
      requestIds.charge,
      ["parseWebhook"],
    );
    await requestIds.run(
      "req-2",
      async () => {
        await provider.readAccount();
        await provider.readAccount();
        provider.parseWebhook();
        expect(provider.displayName).toBe("Sandbox");
      },
      cost,
    );
    expect(cost.providerCalls).toBe(2);
  });
});
