import { eq, sql } from "drizzle-orm";
import crypto from "node:crypto";
import fc from "fast-check";
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { bioPageDailyViews, bioPageLinkClicks, bioPageViews, bioPages } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { disableAccount, enableAccount } from "#server/domains/auth/sessions";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import type { RunningGenerationSource } from "#server/platform/page-cache/generation";
import { startGenerationSource } from "#server/platform/page-cache/setup";
import { ENGINES, createMigratedDatabase, type TestDatabase } from "#tests/support/databases";
import { saveBioTheme } from "#server/domains/bio/theme";
import { createPhotoServer } from "#server/domains/media/serve";
import { createBioHost } from "./bio-host";
import { NO_STYLE_CSP } from "./responses";
import { bioCspFor } from "./style";
import { createViewCounter, type ViewCounter } from "./view-counter";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A document's policy allows exactly its own style elements, by hash, and no script. */
function expectOwnPolicy(csp: string | string[] | undefined, html: string) {
  expect(csp).toBe(bioCspFor(html));
  expect(csp).not.toMatch(/script-src/);
  const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((match) => match[1]!);
  expect(styles.length).toBeGreaterThan(0);
  for (const css of styles) expect(csp).toContain(`'sha256-${crypto.createHash("sha256").update(css).digest("base64")}'`);
}

describe.each(ENGINES)("the bio host on %s", (engine) => {
  let database: TestDatabase;
  let counter: ViewCounter;
  let generation: RunningGenerationSource;
  let server: http.Server;
  let port = 0;
  let appRequests = 0;
  let mayaId = "";

  let clients = 0;
  /**
   * A raw request (Node's http, so Host and odd paths go out exactly as written),
   * each from a client address of its own (through the trusted loopback proxy)
   * unless the headers name one: one client network counts once per page.
   */
  const ask = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<Answer>((resolve, reject) => {
      clients += 1;
      const client = `198.18.${clients >> 8}.${clients & 255}`;
      const req = http.request({ host: "127.0.0.1", port, path, method, headers: { host: "bio.localhost:3000", "user-agent": BROWSER, "x-forwarded-for": client, ...headers } }, (res) => {
        const pieces: Buffer[] = [];
        res.on("data", (piece: Buffer) => pieces.push(piece));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(pieces) }));
      });
      req.on("error", reject);
      req.end();
    });
  // A write's notification reaches the LISTEN connection a moment after the commit (PostgreSQL):
  // the next request here stands for one that comes after it (ADR 0046).
  const caughtUp = async () => {
    await generation.synced?.();
  };
  const views = async () => {
    await counter.flush();
    const [row] = await database.db.select({ count: bioPageViews.count }).from(bioPageViews).where(eq(bioPageViews.pageId, mayaId));
    return row?.count ?? 0;
  };

  beforeAll(async () => {
    database = await createMigratedDatabase(engine);
    await seedDatabase(database.db);
    mayaId = (await database.db.select({ id: bioPages.id }).from(bioPages).where(eq(bioPages.customEnding, "mayamakes")))[0]!.id;
    const config = loadConfig({ PORT: "3000", TRUST_PROXY: "loopback" });
    counter = createViewCounter(database.db, { flushEveryMs: 60_000 });
    const host = createBioHost({ config, db: database.db, generation: (generation = await startGenerationSource(database)), counter, logger: console, photos: createPhotoServer({ db: database.db, generation }) });
    server = http.createServer((req, res) => {
      if (host.handles(req)) return host.handle(req, res);
      appRequests += 1;
      res.end("app");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await counter?.close();
    await new Promise((resolve) => server?.close(resolve));
    await generation?.close();
    await database?.dispose();
  });

  it("serves the page with its name, about text and counted links, and the host's headers", async () => {
    const page = await ask("/mayamakes", { "accept-encoding": "gzip, deflate, br" });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers["vary"]).toBe("Accept-Encoding");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["strict-transport-security"]).toBeUndefined();
    const html = zlib.brotliDecompressSync(page.body).toString();
    expectOwnPolicy(page.headers["content-security-policy"], html);
    expect(html).toContain("<h1>Maya Chen | Maya Makes</h1>");
    expect(html).toContain("garage workshop");
    expect(html).toContain('<a href="/mayamakes/go/youtube" rel="noopener" aria-label="YouTube">');
    expect(html).toContain('<a href="/mayamakes/go/patreon" rel="noopener">');
    expect(html).toContain("<small>patreon.com/mayamakes</small>");
    expect(html).toContain('<link rel="canonical" href="http://bio.localhost:3000/mayamakes">');
    expect(html).not.toMatch(/<script/i);
    expect(page.body.length).toBeLessThan(20_000);

    const plain = await ask("/mayamakes");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(html);
    const gzipped = await ask("/mayamakes", { "accept-encoding": "gzip" });
    expect(zlib.gunzipSync(gzipped.body).toString()).toBe(html);
  });

  it("sends HSTS when a trusted proxy says the request came over https, and reads its forwarded host", async () => {
    const page = await ask("/mayamakes", { host: "10.0.0.1:3000", "x-forwarded-host": "bio.localhost", "x-forwarded-proto": "https" });
    expect(page.status).toBe(200);
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=/);
  });

  it("leaves the app's own host and unknown hosts to the app", async () => {
    const before = appRequests;
    await ask("/mayamakes", { host: "localhost:3000" });
    await ask("/mayamakes", { host: "evil.example" });
    await ask("/mayamakes", { host: "bio.localhost:3001" });
    expect(appRequests).toBe(before + 3);
  });

  it("answers its own 404 for unknown endings and app routes, and refuses bad input with a 4xx", async () => {
    for (const path of ["/nobody_here", "/app", "/signin", "/api/functions/x", "/app/account/bizbio", "/", "/mayamakes/go/linkedin", "/mayamakes/go/nope", "/%00", "/%ZZ", "/a/../mayamakes", "/mayamakes.php"]) {
      const answer = await ask(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.toString(), path).toContain("This page doesn't exist");
      expectOwnPolicy(answer.headers["content-security-policy"], answer.body.toString());
      expect(answer.headers["set-cookie"]).toBeUndefined();
    }
    expect((await ask(`/${"a".repeat(3000)}`)).status).toBe(414);
    expect((await ask("/mayamakes", {}, "POST")).status).toBe(405);
    expect((await ask("/mayamakes", {}, "DELETE")).headers["allow"]).toBe("GET, HEAD");
    const moved = await ask("/MayaMakes/");
    expect(moved.status).toBe(301);
    expect(moved.headers["location"]).toBe("/mayamakes");
  });

  it("answers any path a client can send with a 2xx, 3xx or 4xx, never a 5xx", async () => {
    // Every character Node lets a client put in a request path, and the pieces that tend to break parsers.
    const piece = fc.oneof(
      fc.string({ unit: fc.integer({ min: 0x21, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 30 }),
      fc.constantFrom("%", "%00", "%ZZ", "%2F", "%C0%AF", "..", "/go/", "/share.png", "mayamakes", "?v=", "//", "\\"),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 6 }), async (pieces) => {
        const answer = await ask(`/${pieces.join("")}`);
        expect(answer.status).toBeGreaterThanOrEqual(200);
        expect(answer.status).toBeLessThan(500);
        // Node's own parser answers 400 (no headers) to bytes it refuses in a request line; every other answer is the host's.
        if (String(answer.headers["content-type"]).startsWith("text/html")) expectOwnPolicy(answer.headers["content-security-policy"], answer.body.toString());
        else if (answer.status !== 400) expect(answer.headers["content-security-policy"], `${answer.status} ${pieces.join("")}`).toBe(NO_STYLE_CSP);
      }),
      { numRuns: 300 },
    );
  });

  it("counts human GETs exactly; not HEAD, bots, prefetches or a missing User-Agent", async () => {
    const start = await views();
    for (let i = 0; i < 5; i++) expect((await ask("/mayamakes")).status).toBe(200);
    await ask("/mayamakes", {}, "HEAD");
    await ask("/mayamakes", { "user-agent": BOT });
    await ask("/mayamakes", { "user-agent": "" });
    await ask("/mayamakes", { "sec-purpose": "prefetch;prerender" });
    await ask("/mayamakes", { purpose: "prefetch" });
    await ask("/mayamakes", { "x-moz": "prefetch" });
    expect(await views()).toBe(start + 5);
    const [day] = await database.db.select({ count: bioPageDailyViews.count }).from(bioPageDailyViews).where(eq(bioPageDailyViews.pageId, mayaId));
    expect(day!.count).toBeGreaterThanOrEqual(5);
  });

  it("answers a repeated open with 304 and counts it as a view", async () => {
    const first = await ask("/mayamakes", { "accept-encoding": "br" });
    const start = await views();
    const again = await ask("/mayamakes", { "accept-encoding": "br", "if-none-match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
    expect(await views()).toBe(start + 1);
  });

  it("draws the page in the theme its owner saves, with a policy that allows that theme's style and no other", async () => {
    const before = await ask("/mayamakes");
    expect(before.body.toString()).toContain(":root{--bg:#603f8b;--fg:#ffffff;--btn:#b4fee7;--btn-fg:#2b1a40;");
    const [{ uid }] = (await database.db.select({ uid: bioPages.uid }).from(bioPages).where(eq(bioPages.id, mayaId))) as [{ uid: string }];
    const saved = await saveBioTheme(database.db, { uid }, mayaId, { preset: "paper", font: "serif", background: "", text: "", button: "", buttonText: "" });
    expect(saved.kind).toBe("SUCCESS");
    await caughtUp();
    const after = await ask("/mayamakes");
    const html = after.body.toString();
    expect(html).toContain(":root{--bg:#faf7f0;--fg:#1f1d1a;--btn:#1f1d1a;--btn-fg:#faf7f0;--font:Charter,");
    expect(html).toContain('<meta name="theme-color" content="#faf7f0">');
    expectOwnPolicy(after.headers["content-security-policy"], html);
    expect(after.headers["content-security-policy"]).not.toBe(before.headers["content-security-policy"]);
    // Someone else's save changes nothing.
    const stranger = await saveBioTheme(database.db, { uid: "someone_else" }, mayaId, { preset: "mono", font: "mono", background: "", text: "", button: "", buttonText: "" });
    expect(stranger).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect((await ask("/mayamakes")).body.toString()).toBe(html);
    await database.db.update(bioPages).set({ theme: null }).where(eq(bioPages.id, mayaId));
    await caughtUp();
    expect((await ask("/mayamakes")).body.toString()).toBe(before.body.toString());
  });

  it("counts one view per client network and page, and one click per link, however often it asks", async () => {
    const start = await views();
    const from = (address: string) => ({ "x-forwarded-for": address });
    for (let i = 0; i < 300; i++) await ask("/mayamakes", from("192.0.2.44"));
    expect(await views()).toBe(start + 1);
    // An IPv6 client is one network by its /64; another /64, or another IPv4 address, is another client.
    await ask("/mayamakes", from("2001:db8:1:2::1"));
    await ask("/mayamakes", from("2001:db8:1:2:ffff::9"));
    await ask("/mayamakes", from("2001:db8:1:3::1"));
    await ask("/mayamakes", from("192.0.2.45"));
    expect(await views()).toBe(start + 4);
    const clicks = async () => {
      await counter.flush();
      return (await database.db.select().from(bioPageLinkClicks).where(eq(bioPageLinkClicks.pageId, mayaId))).reduce((sum, c) => sum + (c.linkType === "instagram" ? c.count : 0), 0);
    };
    const clicksBefore = await clicks();
    for (let i = 0; i < 50; i++) expect((await ask("/mayamakes/go/instagram", from("192.0.2.44"))).status).toBe(302);
    expect(await clicks()).toBe(clicksBefore + 1);
  });

  it("redirects a link through a counted click, only to the stored http(s) address", async () => {
    const go = await ask("/mayamakes/go/youtube");
    expect(go.status).toBe(302);
    expect(go.headers["location"]).toBe("https://www.youtube.com/@mayamakes");
    expect(go.headers["cache-control"]).toBe("no-store");
    await ask("/mayamakes/go/youtube", { "user-agent": BOT });
    // HEAD answers as GET does (status and Location), without a body and without a click.
    const head = await ask("/mayamakes/go/youtube", {}, "HEAD");
    expect(head.status).toBe(302);
    expect(head.headers["location"]).toBe("https://www.youtube.com/@mayamakes");
    expect(head.body.length).toBe(0);
    await counter.flush();
    const clicks = await database.db.select().from(bioPageLinkClicks).where(eq(bioPageLinkClicks.pageId, mayaId));
    expect(clicks.filter((c) => c.linkType === "youtube").map((c) => [c.linkType, c.count])).toEqual([["youtube", 1]]);
  });

  it("answers a disabled owner's page, links and image as unavailable (404, uncounted), and the page again once enabled", async () => {
    const live = await ask("/mayamakes");
    expect(live.status).toBe(200);
    const start = await views();
    await disableAccount(database.db, DEMO_ACCOUNTS.creator.email);
    await caughtUp();
    for (const path of ["/mayamakes", "/mayamakes/go/youtube", "/mayamakes/share.png"]) {
      const answer = await ask(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers["location"], path).toBeUndefined();
      expect(answer.headers["cache-control"], path).toBe("no-cache");
      expect(answer.body.toString(), path).toContain("This page is unavailable");
      expect(answer.body.toString(), path).not.toContain("garage workshop");
    }
    expect(await views()).toBe(start);
    await enableAccount(database.db, DEMO_ACCOUNTS.creator.email);
    await caughtUp();
    const back = await ask("/mayamakes");
    expect(back.status).toBe(200);
    expect(back.body.toString()).toBe(live.body.toString());
    expect((await ask("/mayamakes/go/youtube")).status).toBe(302);
  });

  it("leaves a link switched off out of the page, and its redirect answers 404 uncounted", async () => {
    const before = await database.db.select({ links: bioPages.links }).from(bioPages).where(eq(bioPages.id, mayaId));
    await database.db
      .update(bioPages)
      .set({ links: [{ type: "youtube", url: "https://www.youtube.com/@mayamakes", enabled: false }, { type: "website", url: "https://mayamakes.example", title: "My <shop> & more" }] })
      .where(eq(bioPages.id, mayaId));
    await caughtUp();
    await counter.flush();
    const clicksBefore = await database.db.select().from(bioPageLinkClicks).where(eq(bioPageLinkClicks.pageId, mayaId));
    const html = (await ask("/mayamakes")).body.toString();
    expect(html).not.toContain("/go/youtube");
    expect(html).toContain("<b>My &lt;shop&gt; &amp; more</b>");
    const off = await ask("/mayamakes/go/youtube");
    expect(off.status).toBe(404);
    expect(off.headers["location"]).toBeUndefined();
    expect((await ask("/mayamakes/go/website")).status).toBe(302);
    await counter.flush();
    const clicks = await database.db.select().from(bioPageLinkClicks).where(eq(bioPageLinkClicks.pageId, mayaId));
    const count = (rows: typeof clicks, type: string) => rows.filter((c) => c.linkType === type).reduce((sum, c) => sum + c.count, 0);
    expect(count(clicks, "youtube")).toBe(count(clicksBefore, "youtube"));
    expect(count(clicks, "website")).toBe(count(clicksBefore, "website") + 1);
    await database.db.update(bioPages).set({ links: before[0]!.links }).where(eq(bioPages.id, mayaId));
    await caughtUp();
  });

  it("never links or redirects to a non-http address, whatever the row holds", async () => {
    await database.db.execute(
      sql`update bio_pages set links = '[{"type":"website","url":"javascript:alert(1)"},{"type":"store","url":"JAVASCRIPT:alert(1)"}]'::jsonb where id = ${mayaId}`,
    );
    await caughtUp();
    const html = (await ask("/mayamakes")).body.toString();
    expect(html).not.toMatch(/javascript/i);
    expect(html).not.toContain("/go/website");
    expect((await ask("/mayamakes/go/website")).status).toBe(404);
  });

  it("shows its owner's edit on their next request (the editor's links add ?saved), and re-renders only when the page changed", async () => {
    await database.db.update(bioPages).set({ name: "Maya <b>Renamed</b>", blurb: "Line one\nLine two" }).where(eq(bioPages.id, mayaId));
    // No wait: the request follows the commit at once, as the owner's own next request may.
    const html = (await ask("/mayamakes?saved")).body.toString();
    expect(html).toContain("<h1>Maya &lt;b&gt;Renamed&lt;/b&gt;</h1>");
    expect(html).toContain("Line one\nLine two");
    const etag = (await ask("/mayamakes")).headers.etag;
    // A change elsewhere moves the generation: the page is read again but its bytes stay the same.
    await database.db.execute(sql`update opportunity_posts set title = title where false`);
    expect((await ask("/mayamakes")).headers.etag).toBe(etag);
  });

  it("serves a 1200×630 PNG share image, cached long under its versioned address", async () => {
    const html = (await ask("/mayamakes")).body.toString();
    const image = html.match(/property="og:image" content="http:\/\/bio\.localhost:3000(\/mayamakes\/share\.png\?v=[\w-]+)"/)![1]!;
    const png = await ask(image);
    expect(png.status).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.headers["cache-control"]).toMatch(/immutable/);
    expect(png.body.subarray(1, 4).toString()).toBe("PNG");
    expect(png.body.readUInt32BE(16)).toBe(1200);
    expect(png.body.readUInt32BE(20)).toBe(630);
    expect((await ask("/mayamakes/share.png")).headers["cache-control"]).toBe("public, max-age=300");
  });

  it("serves robots.txt and the icon, and a deleted page's address 404s with its pending views dropped", async () => {
    expect((await ask("/robots.txt")).body.toString()).toContain("Disallow: /*/go/");
    expect((await ask("/favicon.ico")).headers["content-type"]).toBe("image/svg+xml");
    const [other] = await database.db.select({ id: bioPages.id, ending: bioPages.customEnding }).from(bioPages).where(eq(bioPages.customEnding, "small_shop_hours"));
    expect((await ask(`/${other!.ending}`)).status).toBe(200);
    await database.db.delete(bioPageViews).where(eq(bioPageViews.pageId, other!.id));
    await database.db.delete(bioPages).where(eq(bioPages.id, other!.id));
    await caughtUp();
    await counter.flush();
    expect(counter.stats()).toMatchObject({ pendingKeys: 0, pendingVisits: 0, failures: 0 });
    expect((await ask(`/${other!.ending}`)).status).toBe(404);
  });
});
