import express from "express";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { domainError, ERROR_HTTP_STATUS, success, type ErrorCode } from "#server/platform/errors";
import type { CallableFunction, FunctionContext } from "./protocol";
import { functionsRouter } from "./router";

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(functions: Record<string, CallableFunction>, user: FunctionContext["user"] = null) {
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split("\n").filter(Boolean).map((line) => JSON.parse(line)));
      done();
    },
  });
  const app = express();
  app.use(functionsRouter({ functions, resolveUser: async () => user, logger: pino({ level: "info" }, sink), allowedOrigins: ["https://app.example"] }));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logLines };
}

function call(url: string, name: string, body: string | object, contentType = "application/json") {
  return fetch(`${url}/api/functions/${name}`, {
    method: "POST",
    headers: { "Content-Type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("POST /api/functions/:name", () => {
  it("passes data and context to the function and answers 200 { result }", async () => {
    const echo = vi.fn<CallableFunction>(async (data) => success({ result: { got: data } }));
    const user = { id: "user-1", email: "one@example.test", emailVerified: true };
    const { url } = await serve({ echo }, user);
    const reply = await call(url, "echo", { data: { a: [1, "x"] } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(await reply.json()).toEqual({ result: { got: { a: [1, "x"] } } });
    expect(echo).toHaveBeenCalledWith({ a: [1, "x"] }, { user, ip: "127.0.0.1" });
  });

  it("accepts data: null and answers result: null for a function that returns nothing", async () => {
    const { url } = await serve({ nothing: async () => success({ result: undefined }) });
    const reply = await call(url, "nothing", { data: null });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ result: null });
  });

  it.each(Object.entries(ERROR_HTTP_STATUS) as [ErrorCode, number][])(
    "sends a refusal with code %s as HTTP %i",
    async (code, httpStatus) => {
      const { url } = await serve({
        fails: async () => {
          return domainError(code, `failed with ${code}`);
        },
      });
      const reply = await call(url, "fails", { data: {} });
      expect(reply.status).toBe(httpStatus);
      const status = code.toUpperCase().replaceAll("-", "_");
      expect(await reply.json()).toEqual({ error: { status, message: `failed with ${code}` } });
    },
  );

  it("sends a refusal's details", async () => {
    const { url } = await serve({
      fails: async () => {
        return domainError("permission-denied", "Not yours.", { details: { postId: "p1" } });
      },
    });
    const reply = await call(url, "fails", { data: {} });
    expect(await reply.json()).toEqual({ error: { status: "PERMISSION_DENIED", message: "Not yours.", details: { postId: "p1" } } });
  });

  it("hides an unexpected error behind 500 INTERNAL and logs it", async () => {
    const { url, logLines } = await serve({
      breaks: async () => {
        throw new Error("database password is hunter2");
      },
    });
    const reply = await call(url, "breaks", { data: {} });
    expect(reply.status).toBe(500);
    const text = await reply.text();
    expect(JSON.parse(text)).toEqual({ error: { status: "INTERNAL", message: "Internal error" } });
    expect(text).not.toContain("hunter2");
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: 50, function: "breaks", err: expect.objectContaining({ message: "database password is hunter2" }) }),
    );
  });

  it("answers 500 INTERNAL when the user cannot be resolved", async () => {
    const app = express();
    const logger = pino({ level: "silent" });
    app.use(functionsRouter({ functions: { f: async () => success({ result: 1 }) }, resolveUser: () => Promise.reject(new Error("db down")), logger, allowedOrigins: [] }));
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const reply = await call(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, "f", { data: 1 });
    expect(reply.status).toBe(500);
    expect(await reply.json()).toEqual({ error: { status: "INTERNAL", message: "Internal error" } });
  });

  it("answers 404 NOT_FOUND for an unknown function, including Object's own names", async () => {
    const { url } = await serve({ known: async () => success({ result: 1 }) });
    for (const name of ["unknown", "toString", "__proto__", "constructor"]) {
      const reply = await call(url, name, { data: {} });
      expect(reply.status).toBe(404);
      expect((await reply.json()).error.status).toBe("NOT_FOUND");
    }
  });

  describe("refuses a bad request body with 400 INVALID_ARGUMENT", () => {
    const cases: [string, string, string, RegExp][] = [
      ["malformed JSON", '{"data": ', "application/json", /not valid JSON/],
      ["a body without data", '{"payload": 1}', "application/json", /"data" field/],
      ["an empty body", "", "application/json", /"data" field/],
      ["an array", '[{"data": 1}]', "application/json", /"data" field/],
      ["a bare number", "3", "application/json", /"data" field/],
      ["null", "null", "application/json", /"data" field/],
      ["form encoding", "data=1", "application/x-www-form-urlencoded", /Content-Type: application\/json/],
      ["text/plain JSON (a cross-site form could send it)", '{"data": 1}', "text/plain", /Content-Type: application\/json/],
      ["a body over 100kb", JSON.stringify({ data: "x".repeat(110_000) }), "application/json", /larger than 100kb/],
    ];
    it.each(cases)("%s", async (_label, body, contentType, message) => {
      const fn = vi.fn<CallableFunction>(async () => success({ result: 1 }));
      const { url } = await serve({ fn });
      const reply = await call(url, "fn", body, contentType);
      expect(reply.status).toBe(400);
      const json = await reply.json();
      expect(json.error.status).toBe("INVALID_ARGUMENT");
      expect(json.error.message).toMatch(message);
      expect(fn).not.toHaveBeenCalled();
    });
  });

  it("refuses a call another site's page made with 403 PERMISSION_DENIED, before the function runs; its own and PUBLIC_ORIGIN's pages may call", async () => {
    const fn = vi.fn<CallableFunction>(async () => success({ result: 1 }));
    const { url } = await serve({ fn }, { id: "user-1", email: "one@example.test", emailVerified: true });
    const send = (headers: Record<string, string>) =>
      fetch(`${url}/api/functions/fn`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify({ data: {} }) });
    const crossSite: Record<string, string>[] = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }, { "Sec-Fetch-Site": "same-site" }, { Origin: "null" }];
    for (const headers of crossSite) {
      const reply = await send(headers);
      expect(reply.status).toBe(403);
      expect(await reply.json()).toEqual({ error: { status: "PERMISSION_DENIED", message: "This request came from another site and was refused." } });
    }
    expect(fn).not.toHaveBeenCalled();
    const ownSite: Record<string, string>[] = [{ Origin: url, "Sec-Fetch-Site": "same-origin" }, { Origin: "https://app.example" }, {}];
    for (const headers of ownSite) {
      expect((await send(headers)).status).toBe(200);
    }
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it("refuses text no database can keep (NUL, a lone surrogate), at any depth, before the function runs", async () => {
    const fn = vi.fn<CallableFunction>(async () => success({ result: 1 }));
    const { url } = await serve({ fn });
    for (const [body, message] of [
      ['{"data": {"sponsorSessionId": "ss_\\u0000"}}', "Text must not contain NUL characters."],
      ['{"data": [{"deep": ["\\ud800"]}]}', "Text must be valid Unicode."],
      ['{"data": {"\\u0000key": 1}}', "Text must not contain NUL characters."],
    ]) {
      const reply = await call(url, "fn", body!);
      expect(reply.status).toBe(400);
      expect(await reply.json()).toEqual({ error: { status: "INVALID_ARGUMENT", message } });
    }
    expect(fn).not.toHaveBeenCalled();
    expect((await call(url, "fn", '{"data": {"emoji": "\\ud83d\\ude42"}}')).status).toBe(200);
  });

  it("answers 405 with Allow: POST for other methods", async () => {
    const { url } = await serve({ fn: async () => success({ result: 1 }) });
    for (const method of ["GET", "PUT", "DELETE"]) {
      const reply = await fetch(`${url}/api/functions/fn`, { method });
      expect(reply.status).toBe(405);
      expect(reply.headers.get("allow")).toBe("POST");
    }
  });
});
