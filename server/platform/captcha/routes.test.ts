import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import express from "express";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { altchaOn } from "#tests/support/altcha";
import { migratedDatabase } from "#tests/support/databases";
import { createCaptcha, type Captcha } from "./captcha";
import { captchaRouter } from "./routes";

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(captcha: Captcha): Promise<string> {
  const app = express();
  app.use(captchaRouter(captcha));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const database = migratedDatabase("pglite");
let altcha: Captcha;
beforeAll(() => {
  altcha = altchaOn(database.db);
});

describe("GET /api/captcha/challenge", () => {
  it("answers a fresh, uncached ALTCHA challenge that verifies once solved", async () => {
    const url = await serve(altcha);
    const [first, second] = await Promise.all([fetch(`${url}/api/captcha/challenge`), fetch(`${url}/api/captcha/challenge`)]);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("content-type")).toMatch(/^application\/json/);
    const challenge = (await first.json()) as Challenge;
    expect((await second.json()).parameters.nonce).not.toBe(challenge.parameters.nonce);

    const solution = await solveChallenge({ challenge, deriveKey });
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    expect(await altcha.verify(payload)).toBe(true);
  });

  it("is 404 when another provider is configured", async () => {
    const turnstile = createCaptcha({ provider: "turnstile", hmacKey: "k", maxNumber: 1000, siteKey: "s", secretKey: "k" });
    const reply = await fetch(`${await serve(turnstile)}/api/captcha/challenge`);
    expect(reply.status).toBe(404);
    expect(reply.headers.get("cache-control")).toBe("no-store");
  });

  it("is 405 for other methods", async () => {
    const reply = await fetch(`${await serve(altcha)}/api/captcha/challenge`, { method: "POST" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("GET, HEAD");
  });
});
