import express from "express";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { securityHeaders } from "#server/platform/http/security";
import { guestPageKey } from "./eligibility";
import { countedGeneration, type GenerationSource } from "./generation";
import { createGuestPageCache } from "./guest-page-cache";
import { inlineScriptHashes, policyWithScriptHashes } from "./script-hashes";

const servers: http.Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

type Render = (req: express.Request, res: express.Response) => void;

/**
 * The app's shape in miniature: security headers (a nonce), the cache's
 * capture, then a "renderer" that puts the nonce it is given into its page,
 * as React Router does, and counts its renders.
 */
// Stands for the database trigger: a test moves it where a write would.
const marketplace = countedGeneration();

async function serve(render: Render, generation: GenerationSource = marketplace) {
  const cache = createGuestPageCache({ generation });
  const app = express();
  app.use(securityHeaders());
  app.use(cache.capture);
  let renders = 0;
  app.get("/{*path}", (req, res) => {
    renders += 1;
    render(req, res);
  });
  const server = http.createServer((req, res) => cache.handle(req, res, () => app(req, res)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, renders: () => renders };
}

let content = "first";
const page: Render = (_req, res) => {
  const nonce = res.locals.cspNonce as string;
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  res.type("html").send(`<!doctype html><p>${content}</p><script${nonceAttribute}>window.x = ${JSON.stringify(content)};</script>`);
};

describe("guest page cache", () => {
  it("answers a guest's second request from memory with the same bytes and the page's script hash in its policy", async () => {
    content = "first";
    const { url, renders } = await serve(page);
    const first = await fetch(`${url}/app/opportunities`);
    const second = await fetch(`${url}/app/opportunities`);
    const [firstBody, secondBody] = [await first.text(), await second.text()];
    expect(renders()).toBe(1);
    expect(first.headers.get("x-guest-cache")).toBe("miss");
    expect(second.headers.get("x-guest-cache")).toBe("hit");
    expect(secondBody).toBe(firstBody);
    expect(firstBody).not.toContain("nonce=");
    const hash = crypto.createHash("sha256").update('window.x = "first";').digest("base64");
    for (const response of [first, second]) {
      const policy = response.headers.get("content-security-policy")!;
      expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
      expect(policy).not.toContain("nonce-");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("never repeats the rendering request's X-Request-Id: a hit is no request the log knows", async () => {
    content = "with an id";
    const { url } = await serve((req, res) => {
      res.setHeader("X-Request-Id", "the-rendering-request");
      page(req, res);
    });
    const miss = await fetch(`${url}/blog`);
    const hit = await fetch(`${url}/blog`);
    expect(miss.headers.get("x-request-id")).toBe("the-rendering-request");
    expect(hit.headers.get("x-guest-cache")).toBe("hit");
    expect(hit.headers.get("x-request-id")).toBeNull();
  });

  it("renders again after a change, on the very next request", async () => {
    content = "before";
    const { url } = await serve(page);
    expect(await (await fetch(`${url}/`)).text()).toContain("before");
    expect(await (await fetch(`${url}/`)).text()).toContain("before");
    content = "after";
    marketplace.bump();
    const next = await fetch(`${url}/`);
    expect(next.headers.get("x-guest-cache")).toBe("miss");
    expect(await next.text()).toContain("after");
  });

  it("never answers nor keeps a request that carries a cookie (a session, a toast)", async () => {
    content = "guest";
    const { url, renders } = await serve((req, res) => {
      const who = req.headers.cookie ? `signed in as ${req.headers.cookie}` : "guest";
      res.type("html").send(`<p>${who}</p>`);
    });
    await fetch(`${url}/`); // a guest fills the cache
    const signedIn = await fetch(`${url}/`, { headers: { cookie: "better-auth.session_token=abc" } });
    expect(await signedIn.text()).toBe("<p>signed in as better-auth.session_token=abc</p>");
    expect(signedIn.headers.get("x-guest-cache")).toBeNull();
    const withToast = await fetch(`${url}/`, { headers: { cookie: "__flash=xyz" } });
    expect(await withToast.text()).toContain("__flash=xyz");
    // The personal pages were not kept either: a guest on a fresh key gets a guest page.
    const other = await fetch(`${url}/about`, { headers: { cookie: "better-auth.session_token=abc" } });
    expect(await other.text()).toContain("signed in");
    const guest = await fetch(`${url}/about`);
    expect(await guest.text()).toBe("<p>guest</p>");
    expect(guest.headers.get("x-guest-cache")).toBe("miss");
    expect(renders()).toBe(5);
  });

  it("never keeps a response that sets a cookie, is not a 200, or is private", async () => {
    const { url, renders } = await serve((req, res) => {
      if (req.path === "/about") res.setHeader("Set-Cookie", "toast=1");
      if (req.path === "/blog") res.setHeader("Cache-Control", "private, no-store");
      res.status(req.path === "/support" ? 404 : 200).type("html").send("<p>x</p>");
    });
    for (const path of ["/about", "/blog", "/support"]) {
      await fetch(`${url}${path}`);
      expect((await fetch(`${url}${path}`)).headers.get("x-guest-cache")).toBe("miss");
    }
    expect(renders()).toBe(6);
  });

  it("keeps one copy per compressed variant and per language", async () => {
    const { url } = await serve((req, res) => {
      const html = `<p>${req.headers["accept-language"] ?? ""}</p>`;
      if (/br/.test(String(req.headers["accept-encoding"]))) {
        res.setHeader("Content-Encoding", "br");
        res.type("html").send(zlib.brotliCompressSync(html));
      } else res.type("html").send(html);
    });
    const ask = (encoding: string, language: string) =>
      new Promise<{ body: Buffer; encoding?: string }>((resolve, reject) => {
        http.get(`${url}/`, { headers: { "accept-encoding": encoding, "accept-language": language } }, (res) => {
          const pieces: Buffer[] = [];
          res.on("data", (piece) => pieces.push(piece));
          res.on("end", () => resolve({ body: Buffer.concat(pieces), encoding: res.headers["content-encoding"] }));
        }).on("error", reject);
      });
    for (let round = 0; round < 2; round++) {
      const plain = await ask("identity", "de");
      expect(plain).toEqual({ body: Buffer.from("<p>de</p>"), encoding: undefined });
      const brotli = await ask("gzip, deflate, br", "fr");
      expect(brotli.encoding).toBe("br");
      expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe("<p>fr</p>");
    }
  });

  it("does not serve a page kept before a change that another process reports", async () => {
    let shared = 1;
    const { url } = await serve(page, { current: async () => String(shared) });
    content = "v1";
    await fetch(`${url}/`);
    expect((await fetch(`${url}/`)).headers.get("x-guest-cache")).toBe("hit");
    content = "v2";
    shared = 2;
    expect(await (await fetch(`${url}/`)).text()).toContain("v2");
  });
});

describe("which requests the cache may answer", () => {
  const request = (url: string, headers: Record<string, string> = {}, method = "GET") =>
    ({ method, url, headers: { host: "example.test", ...headers } }) as unknown as http.IncomingMessage;

  it("takes guests' GETs of the listed pages only", () => {
    for (const url of ["/", "/youtube-sponsorships", "/blog/some-post", "/app/opportunities", "/app/opportunities?page=2&after=x", "/app/opportunities/8204648276_T3m00npTbrnC6yZTsGVc"]) {
      expect(guestPageKey(request(url)), url).not.toBeNull();
    }
    for (const url of ["/app", "/app/opportunities/new", "/app/opportunities/1_a.data", "/app/opportunities.data", "/app/opportunities?tags%5B%5D=x", "/app/opportunities?tags[]=x", "/featured", "/signin", "/app/account", "/dev/mailbox", "/%00"]) {
      expect(guestPageKey(request(url)), url).toBeNull();
    }
    expect(guestPageKey(request("/", {}, "POST"))).toBeNull();
    expect(guestPageKey(request("/", { cookie: "a=b" }))).toBeNull();
    expect(guestPageKey(request("/", { authorization: "Bearer x" }))).toBeNull();
  });

  it("keys on host, forwarded protocol, address, compressed variant and language", () => {
    const base = guestPageKey(request("/"));
    expect(guestPageKey(request("/", { host: "other.test" }))).not.toBe(base);
    expect(guestPageKey(request("/", { "x-forwarded-proto": "https" }))).not.toBe(base);
    expect(guestPageKey(request("/?a=1"))).not.toBe(base);
    expect(guestPageKey(request("/", { "accept-encoding": "br" }))).not.toBe(base);
    expect(guestPageKey(request("/", { "accept-language": "de" }))).not.toBe(base);
    // Two headers that negotiate the same encoding share a copy.
    expect(guestPageKey(request("/", { "accept-encoding": "gzip, deflate, br" }))).toBe(guestPageKey(request("/", { "accept-encoding": "br, gzip" })));
  });
});

describe("script hashes", () => {
  it("hash every inline script, never an external one, and replace the nonce with them", () => {
    const html = `<script src="/a.js"></script><script>one()</script><script type="module">two()</script><script>one()</script>`;
    const hash = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([hash("one()"), hash("two()")]);
    expect(policyWithScriptHashes("default-src 'self';script-src 'self' 'nonce-abc';object-src 'none'", html)).toBe(
      `default-src 'self';script-src 'self' ${hash("one()")} ${hash("two()")};object-src 'none'`,
    );
    expect(policyWithScriptHashes("script-src 'self' 'nonce-abc'", "<p>no scripts</p>")).toBe("script-src 'self'");
  });
});

describe("GUEST_PAGE_CACHE", () => {
  it('is on unless set to "off", and "off" leaves every request to the renderer', async () => {
    const { loadConfig } = await import("#server/platform/config");
    const { guestPageCacheFor } = await import("./setup");
    expect(loadConfig({}).GUEST_PAGE_CACHE).toBe("on");
    expect(guestPageCacheFor(loadConfig({}), marketplace)).not.toBeNull();
    expect(guestPageCacheFor(loadConfig({ GUEST_PAGE_CACHE: "off" }), marketplace)).toBeNull();
    expect(() => loadConfig({ GUEST_PAGE_CACHE: "maybe" })).toThrow(/GUEST_PAGE_CACHE must be "on" or "off"/);
  });
});
