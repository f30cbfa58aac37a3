import express from "express";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { requestLogger } from "./logging";
import { securityHeaders } from "./security";

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(app: express.Express): Promise<string> {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("security headers", () => {
  function app(trustProxy: boolean) {
    const instance = express();
    if (trustProxy) instance.set("trust proxy", true);
    instance.use(securityHeaders());
    instance.get("/", (_req, res) => {
      res.send(res.locals.cspNonce);
    });
    return instance;
  }

  it("puts a fresh nonce in script-src for every response", async () => {
    const url = await serve(app(false));
    const [a, b] = await Promise.all([fetch(url), fetch(url)]);
    const nonceA = await a.text();
    expect(a.headers.get("content-security-policy")).toContain(`script-src 'self' 'nonce-${nonceA}'`);
    expect(nonceA).not.toBe(await b.text());
    expect(a.headers.get("x-frame-options")).toBe("DENY");
  });

  /** The sources one CSP directive lists. */
  const sources = (policy: string, directive: string) =>
    policy.split(";").map((part) => part.trim().split(" ")).find(([name]) => name === directive)?.slice(1) ?? [];

  it.each([
    ["recaptcha", "https://www.gstatic.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
    ["turnstile", "https://challenges.cloudflare.com", "https://challenges.cloudflare.com"],
  ] as const)("lets the %s widget load its script and frame, and only when it is the captcha", async (provider, script, frame) => {
    const hosted = express();
    hosted.use(securityHeaders({ captchaProvider: provider }));
    hosted.get("/", (_req, res) => void res.send("ok"));
    const policy = (await fetch(await serve(hosted))).headers.get("content-security-policy")!;
    expect(sources(policy, "script-src")).toContain(script);
    expect(sources(policy, "frame-src")).toContain(frame);

    const own = (await fetch(await serve(app(false)))).headers.get("content-security-policy")!;
    expect(sources(own, "script-src")).not.toContain(script);
    expect(sources(own, "frame-src")).toEqual([]);
  });

  it("lets pages show images from the bio host, even over plain http in development", async () => {
    const withBio = express();
    withBio.use(securityHeaders({ imageOrigins: ["http://bio.localhost:3000/ignored/path"] }));
    withBio.get("/", (_req, res) => void res.send("ok"));
    const policy = (await fetch(await serve(withBio))).headers.get("content-security-policy")!;
    expect(sources(policy, "img-src")).toEqual(["'self'", "data:", "blob:", "https:", "http://bio.localhost:3000"]);
    expect(sources(policy, "default-src")).toEqual(["'self'"]);

    const own = (await fetch(await serve(app(false)))).headers.get("content-security-policy")!;
    expect(sources(own, "img-src")).toEqual(["'self'", "data:", "blob:", "https:"]);
  });

  it("lets a form's redirect reach the payment provider's hosted checkout, and nothing else", async () => {
    const withStripe = express();
    withStripe.use(securityHeaders({ formTargetOrigins: ["https://checkout.stripe.com"] }));
    withStripe.get("/", (_req, res) => void res.send("ok"));
    const policy = (await fetch(await serve(withStripe))).headers.get("content-security-policy")!;
    expect(sources(policy, "form-action")).toEqual(["'self'", "https://checkout.stripe.com"]);
    const own = (await fetch(await serve(app(false)))).headers.get("content-security-policy")!;
    expect(sources(own, "form-action")).toEqual(["'self'"]);
  });

  it("sends HSTS only to requests that came over https", async () => {
    const url = await serve(app(true));
    expect((await fetch(url)).headers.get("strict-transport-security")).toBeNull();
    const overHttps = await fetch(url, { headers: { "X-Forwarded-Proto": "https" } });
    expect(overHttps.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });
});

describe("request log", () => {
  it("writes one structured line per request", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const instance = express();
    instance.use(requestLogger(pino({ level: "info" }, sink)));
    instance.get("/hello", (_req, res) => {
      res.status(201).send("hi");
    });
    const url = await serve(instance);
    await fetch(`${url}/hello?x=1`, { headers: { "User-Agent": "vitest" } });
    await fetch(`${url}/missing`);
    // A line is written when its response has finished, which may come after fetch resolves.
    await expect.poll(() => lines.length).toBe(2);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({
      msg: "GET /hello?x=1 201",
      req: { method: "GET", url: "/hello?x=1", userAgent: "vitest" },
      res: { statusCode: 201 },
    });
    expect(typeof first.responseTime).toBe("number");
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 40, res: { statusCode: 404 } });
  });
});
