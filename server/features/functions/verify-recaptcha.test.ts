import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import express from "express";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { altchaOn } from "#tests/support/altcha";
import { migratedDatabase } from "#tests/support/databases";
import type { Captcha } from "#server/platform/captcha/captcha";
import { functionsRouter } from "./router";
import { verifyRecaptchaFunction } from "./verify-recaptcha";

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(captcha: Captcha): Promise<string> {
  const app = express();
  const functions = { verifyRecaptcha: verifyRecaptchaFunction(captcha) };
  app.use(functionsRouter({ functions, resolveUser: async () => null, logger: pino({ level: "silent" }), allowedOrigins: [] }));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function verifyRecaptcha(url: string, data: unknown) {
  return fetch(`${url}/api/functions/verifyRecaptcha`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ data }),
  });
}

describe("verifyRecaptcha", () => {
  const database = migratedDatabase("pglite");
  let altcha: Captcha;
  beforeAll(() => {
    altcha = altchaOn(database.db);
  });

  it("answers { code: 200 } for a solved ALTCHA challenge, once", async () => {
    const url = await serve(altcha);
    const challenge = (await altcha.createChallenge()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const recaptchaResponse = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");

    const reply = await verifyRecaptcha(url, { recaptchaResponse });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ result: { code: 200 } });

    const replay = await verifyRecaptcha(url, { recaptchaResponse });
    expect(replay.status).toBe(400);
  });

  it("answers 400 INVALID_ARGUMENT when the captcha fails", async () => {
    const reply = await verifyRecaptcha(await serve(altcha), { recaptchaResponse: "bm90IGEgcGF5bG9hZA==" });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({
      error: { status: "INVALID_ARGUMENT", message: "Captcha verification failed. Please try again." },
    });
  });

  it("passes the caller's address to the provider", async () => {
    const verify = vi.fn<Captcha["verify"]>(async () => true);
    const url = await serve({ provider: "recaptcha", siteKey: "s", createChallenge: async () => null, verify });
    expect((await verifyRecaptcha(url, { recaptchaResponse: "token" })).status).toBe(200);
    expect(verify).toHaveBeenCalledWith("token", "127.0.0.1");
  });

  it.each([
    ["no data", null, "data must be an object with a recaptchaResponse string."],
    ["a string as data", "token", "data must be an object with a recaptchaResponse string."],
    ["a missing field", {}, "recaptchaResponse must be a string."],
    ["a number", { recaptchaResponse: 42 }, "recaptchaResponse must be a string."],
    ["an empty string", { recaptchaResponse: "" }, "recaptchaResponse must not be empty."],
    ["a string over 10000 characters", { recaptchaResponse: "x".repeat(10_001) }, "recaptchaResponse must be at most 10000 characters."],
  ])("refuses %s with a clear message", async (_label, data, message) => {
    const verify = vi.fn<Captcha["verify"]>(async () => true);
    const url = await serve({ provider: "altcha", siteKey: null, createChallenge: async () => null, verify });
    const reply = await verifyRecaptcha(url, data);
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({ error: { status: "INVALID_ARGUMENT", message } });
    expect(verify).not.toHaveBeenCalled();
  });
});
