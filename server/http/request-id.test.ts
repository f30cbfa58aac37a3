import express from "express";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, requestLogger } from "./logging";
import { createRequestIds } from "./request-id";

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** The process's logger and request log as lifecycle.ts wires them, writing into `lines`. */
async function serveWithLog(lines: Record<string, unknown>[]) {
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
  const server = app.listen(0, "127.0.0.1");
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

  it("never takes the client's X-Request-Id", async () => {
    const lines: Record<string, unknown>[] = [];
    const { url } = await serveWithLog(lines);
    const response = await fetch(`${url}/work?n=3`, { headers: { "X-Request-Id": "chosen-by-the-client" } });
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(response.headers.get("x-request-id")).not.toBe("chosen-by-the-client");
    expect(lines.some((line) => JSON.stringify(line).includes("chosen-by-the-client"))).toBe(false);
  });
});
