import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/config";
import { capRequestBodies } from "#server/http/body-limit";
import { refuseCrossSiteWrites } from "#server/http/same-origin";
import { createEmptyDatabase, type TestDatabase } from "#tests/support/databases";
import { FakePaymentProvider } from "#tests/support/fake-payment-provider";
import { events, seedPayee, seedSession, silentLogger, TEST_SESSION_SECRET, webhookDeps } from "#tests/support/payments";
import { handleWebhookRequest, WEBHOOK_PATH_PREFIX, webhookBodyRule } from "./http";

/**
 * The webhook path through the guards server/http/app.ts puts before React
 * Router (the body cap, the cross-site write guard), read as React Router's
 * express adapter reads a body: a web Request over the Node stream.
 */
describe("webhook endpoint behind the HTTP guards", () => {
  const provider = new FakePaymentProvider();
  let database: TestDatabase;
  let base = "";
  let close = () => {};

  beforeAll(async () => {
    database = await createEmptyDatabase("pglite");
    await database.migrate();
    const context = { db: database.db, payments: provider, mailer: webhookDeps(database.db, provider).mailer, config: loadConfig({}), logger: silentLogger, sessionSecret: TEST_SESSION_SECRET };
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

  it("checks the signature over the exact bytes, whatever their spacing, from a server with no Origin or a cross-site one", async () => {
    const s = await seedSession(database.db, await seedPayee(database.db, provider));
    provider.settlePayment(s.paymentIntentId, s.amount);
    // Pretty-printed with non-ASCII: re-serialising it would change the bytes and break the signature.
    const body = JSON.stringify({ ...events.checkout("checkout.completed", s), note: "für – 💸" }, null, 3);
    const response = await fetch(`${base}/api/payments/webhooks/sandbox`, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "Sandbox-Signature": provider.sign(body), Origin: "https://elsewhere.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect([response.status, await response.text()]).toEqual([200, "Handled.\n"]);
  });

  it("refuses a body above 256 KB before reading it", async () => {
    const body = JSON.stringify({ padding: "x".repeat(300 * 1024) });
    const response = await fetch(`${base}/api/payments/webhooks/sandbox`, { method: "POST", body, headers: { "Content-Type": "application/json", "Sandbox-Signature": provider.sign(body) } });
    expect(response.status).toBe(413);
  });
});
