import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logging";

describe("the logger's second net", () => {
  it("replaces secret-named fields and credential headers passed whole, at the top and one object down", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger("info", undefined, sink);
    logger.info(
      {
        password: "hunter2-password",
        form: { email: "a@example.com", cardNumber: "4242424242424242", cvc: "cvc-739", token: "reset-token-abc" },
        req: { headers: { cookie: "session=abc.def", authorization: "Bearer metrics-token", host: "grid.example", "set-cookie": ["s=1"] } },
        headers: { "x-test-routes-secret": "test-hook-key-1", "sandbox-signature": "t=1,v1=ff" },
      },
      "a careless line",
    );
    const line = JSON.parse(lines.join("")) as Record<string, unknown>;
    expect(JSON.stringify(line)).not.toMatch(/hunter2|4242|cvc-739|reset-token|abc\.def|metrics-token|test-hook-key-1|v1=ff|s=1/);
    // What is not secret stays, so the line still says what happened.
    expect(line).toMatchObject({ msg: "a careless line", form: { email: "a@example.com", cardNumber: "[redacted]" }, req: { headers: { host: "grid.example", cookie: "[redacted]" } } });
  });
});

describe("the access line", () => {
  it("names the full path under a mounted router, and a client's mistake is a warning, never an error", async () => {
    const express = (await import("express")).default;
    const { requestLogger } = await import("./logging");
    const lines: { level: number; msg: string; req?: { url: string } }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = express();
    app.use(requestLogger(createLogger("info", undefined, sink)));
    const api = express.Router();
    api.get("/me", (_req, res) => res.json({ id: "u1" }));
    api.all("/me", (_req, res) => res.status(405).end());
    app.use("/api/v1", api);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await fetch(`${base}/api/v1/me`);
    await fetch(`${base}/api/v1/me`, { method: "DELETE" });
    await fetch(`${base}/nowhere`);
    await new Promise((resolve) => server.close(resolve));
    const access = lines.filter((line) => /^(GET|DELETE) /.test(line.msg));
    expect(access.map((line) => [line.msg, line.level, line.req?.url])).toEqual([
      ["GET /api/v1/me 200", 30, "/api/v1/me"],
      ["DELETE /api/v1/me 405", 40, "/api/v1/me"],
      ["GET /nowhere 404", 40, "/nowhere"],
    ]);
  });
});

describe("fast-path lines (LOG_FAST_PATHS=on)", () => {
  it("logs a request a fast path answered, with what served it, and not one it handed on", async () => {
    const http = await import("node:http");
    const { logFastPath } = await import("./logging");
    const lines: { level: number; msg: string; served?: string; res?: { statusCode: number } }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = createLogger("info", undefined, sink);
    const server = http.createServer((req, res) => {
      const handedOn = req.url === "/app";
      logFastPath(logger, req, res, () => "guest page", () => !handedOn);
      res.statusCode = req.url === "/missing" ? 404 : 200;
      res.end("x");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    for (const path of ["/", "/app", "/missing"]) await (await fetch(`${base}${path}`)).text();
    await new Promise((resolve) => server.close(resolve));
    expect(lines.map((line) => [line.msg, line.level, line.served])).toEqual([
      ["GET / 200", 30, "guest page"],
      ["GET /missing 404", 40, "guest page"],
    ]);
  });
});
