import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMITS, bodyKind, capRequestBodies } from "./body-limit";

let port = 0;
let close = () => {};
/** What each handler call saw: the form it read whole, or the error reading it. */
const seen: { fields?: number; error?: string }[] = [];

beforeAll(async () => {
  const app = express();
  app.use(
    capRequestBodies([
      { prefix: "/api/functions/", limit: 1000, refuse: (_req, res) => void res.status(413).json({ error: { status: "INVALID_ARGUMENT" } }) },
      { prefix: /^\/files\/[a-z]+$/, kind: "multipart", limit: 2 * 1024 * 1024, refuse: (_req, res) => void res.status(413).send("files too large") },
    ]),
  );
  app.use("/api/functions/echo", express.json({ limit: "10mb" }), (req, res) => void res.json({ keys: Object.keys(req.body) }));
  // Reads the body the way React Router's express adapter does: a web Request over the Node stream.
  app.post("/{*path}", async (req, res) => {
    const request = new Request("http://localhost/form", {
      method: "POST",
      headers: { "content-type": req.get("content-type")! },
      body: createReadableStreamFromReadable(req),
      duplex: "half",
    } as RequestInit);
    try {
      const form = await request.formData();
      seen.push({ fields: [...form.keys()].length });
      res.send("read");
    } catch (error) {
      seen.push({ error: String(error) });
      if (!res.headersSent) res.status(400).send("unreadable");
    }
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
  close = () => server.close();
});
afterAll(() => close());

type Sent = { status: number; body: string; contentType: string };

/** Sends `total` bytes of a urlencoded form in 16 KB pieces, chunked unless `length` is given. */
function upload(path: string, total: number, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = http.request({ port, host: "127.0.0.1", path, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body, contentType: String(response.headers["content-type"]) }));
      response.on("error", () => resolve({ status: response.statusCode!, body, contentType: String(response.headers["content-type"]) }));
    });
    request.on("error", reject);
    const piece = Buffer.from(`a=${"x".repeat(16 * 1024 - 3)}&`);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const slice = piece.subarray(0, Math.min(piece.length, total - sent));
        sent += slice.length;
        if (!request.write(slice)) return void request.once("drain", pump);
      }
      request.end();
    };
    request.on("response", () => (sent = total));
    pump();
  });
}

describe("capRequestBodies", () => {
  it("lets a form under the cap through whole", async () => {
    const before = seen.length;
    const answer = await upload("/form", 100 * 1024);
    expect(answer).toMatchObject({ status: 200, body: "read" });
    expect(seen.slice(before)).toEqual([{ fields: 7 }]);
  });

  it("refuses a declared Content-Length above the cap before reading anything", async () => {
    const before = seen.length;
    const total = 5 * 1024 * 1024;
    const answer = await upload("/form", total, { "content-length": String(total) });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("larger than 128 KB");
    expect(seen.length).toBe(before);
  });

  it("cuts off a chunked body at the cap, and its reader never takes it for a whole form", async () => {
    const before = seen.length;
    const answer = await upload("/form", 5 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("larger than 128 KB");
    await expect.poll(() => seen.length, { timeout: 5000 }).toBe(before + 1);
    expect(seen[before]!.error).toBeDefined();
  });

  it("answers a browser with a page and anything else with text", async () => {
    const page = await upload("/form", 1024 * 1024, { accept: "text/html,*/*" });
    expect(page.status).toBe(413);
    expect(page.contentType).toContain("text/html");
    expect(page.body).toContain("<h1>That was too much to send</h1>");
    const text = await upload("/form", 1024 * 1024);
    expect(text.contentType).toContain("text/plain");
  });

  it("applies a path's own cap and answer before its body parser reads", async () => {
    const json = JSON.stringify({ data: "y".repeat(5000) });
    const answer = await new Promise<Sent>((resolve, reject) => {
      const request = http.request({ port, host: "127.0.0.1", path: "/api/functions/echo", method: "POST", headers: { "content-type": "application/json" } });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body, contentType: String(response.headers["content-type"]) }));
      });
      request.on("error", reject);
      request.end(json);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: { status: "INVALID_ARGUMENT" } });
  });

  it("gives a path pattern's own cap to its multipart bodies only", async () => {
    const multipart = { "content-type": "multipart/form-data; boundary=x" };
    // Past the common multipart cap, within the rule's: read on (and found garbled by the reader), not refused.
    expect((await upload("/files/brief", 1024 * 1024, multipart)).status).toBe(400);
    expect(await upload("/files/brief", 3 * 1024 * 1024, { ...multipart, "content-length": String(3 * 1024 * 1024) })).toMatchObject({ status: 413, body: "files too large" });
    expect((await upload("/files/brief", 1024 * 1024)).body).toContain("larger than 128 KB");
    expect((await upload("/files/brief/more", 1024 * 1024, multipart)).body).toContain("larger than 256 KB");
  });

  it("keeps the connection usable for bodies that fit", async () => {
    const answers = await Promise.all([1, 2, 3].map(() => upload("/form", 2048)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  });
});

describe("bodyKind", () => {
  it.each([
    ["application/x-www-form-urlencoded;charset=UTF-8", "form"],
    ["multipart/form-data; boundary=x", "multipart"],
    ["application/json", "json"],
    ["application/merge-patch+json", "json"],
    ["text/plain", "other"],
    [undefined, "other"],
  ] as const)("%s is %s", (type, kind) => {
    expect(bodyKind(type)).toBe(kind);
    expect(BODY_LIMITS[kind]).toBeGreaterThan(0);
  });
});
