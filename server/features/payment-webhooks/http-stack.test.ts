import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { capRequestBodies } from "#server/platform/http/body-limit";
import { refuseCrossSiteWrites } from "#server/platform/http/same-origin";
import { createMigratedDatabase, type TestDatabase } from "#tests/support/databases";
import { sandboxSignature, testSandbox } from "#tests/support/test-sandbox";
import { events, payAtSandbox, seedPayee, seedSession, silentLogger, TEST_SESSION_SECRET, webhookDeps } from "#tests/support/payments";
import { handleWebhookRequest, WEBHOOK_PATH_PREFIX, webhookBodyRule } from "./http";

/**
 * The webhook path through the guards server/main/app.ts puts before React
 * Router (the body cap, the cross-site write guard), read as React Router's
 * express adapter reads a body: a web Request over the Node stream.
 */
describe("webhook endpoint behind the HTTP guards", () => {
  let database: TestDatabase;
  let base = "";
  let close = () => {};

  beforeAll(async () => {
    database = await createMigratedDatabase("pglite");
    const context = { db: database.db, payments: sandbox.provider, mailer: webhookDeps(database.db, sandbox.provider).mailer, config: loadConfig({}), logger: silentLogger, sessionSecret: TEST_SESSION_SECRET };
    const app = express();
    app.use(capRequestBodies([webhookBodyRule]));
    app.use(refuseCrossSiteWrites(["http://app.test"], [WEBHOOK_PATH_PREFIX]));
    app.post("/api/payments/webhooks/:provider", async (req, res) => {
      const request = new Request(`http://app.test${req.url}`, {
        method: "POST",
        headers: req.headers as Record<string, string>,
        body: createReadableStreamFromReadable(req),
        duplex: "half",
      } as RequestInit);
      const response = await handleWebhookRequest(request, req.params.provider, context);
      res.status(response.status).send(await response.text());
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(async () => {
    close();
    await database?.dispose();
  });
  // Declared after the database's hooks, so its own closing runs first (after-hooks run in reverse).
  const sandbox = testSandbox({ get db() { return database.db; } });

  it("checks the signature over the exact bytes, whatever their spacing, from a server with no Origin or a cross-site one", async () => {
    const payee = await seedPayee(database.db, sandbox.provider);
    const s = await payAtSandbox(database.db, sandbox.provider, payee, await seedSession(database.db, payee));
    // Pretty-printed with non-ASCII: re-serialising it would change the bytes and break the signature.
    const body = JSON.stringify({ ...events.checkout("checkout.completed", s), note: "für – 💸" }, null, 3);
    const response = await fetch(`${base}/api/payments/webhooks/sandbox`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "Sandbox-Signature": sandboxSignature(body), Origin: "https://elsewhere.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect([response.status, await response.text()]).toEqual([200, "Handled.\n"]);
  });

  it("refuses a body above 256 KB before reading it", async () => {
    const body = JSON.stringify({ padding: "x".repeat(300 * 1024) });
    const response = await fetch(`${base}/api/payments/webhooks/sandbox`, { method: "POST", body, headers: { "Content-Type": "application/json", "Sandbox-Signature": sandboxSignature(body) } });
    expect(response.status).toBe(413);
  });
});
