import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { httpUrl, isLinkType } from "#server/domains/bio/links";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import type { GenerationSource } from "#server/platform/page-cache/generation";
import { PHOTO_PATH_PREFIX, type PhotoServer } from "#server/domains/media/serve";
import { hostMatcher } from "./host-match";
import { sendPhoto } from "./photos";
import { isHumanVisit } from "./human-visit";
import { FAVICON_SVG } from "./icons";
import { renderNotFound, renderUnavailable, type BioSite } from "./page-html";
import { createRenderedPages, type PageLookup, type RenderedPages } from "./rendered-pages";
import { referrerSites } from "./referrer-site";
import { encodeOnce, encodingFor, securityHeadersFor, send, sendText } from "./responses";
import type { ViewCounter } from "./view-counter";

/**
 * The public bio host ({BIO_ORIGIN}), answered by a plain Node `request`
 * listener in front of Express (docs/decisions/0017-bio-host.md).
 *
 * It serves only bio pages and their assets:
 *   /{ending}                the page (HTML, no script)
 *   /{ending}/go/{linkType}  a counted redirect to one of its links
 *   /{ending}/share.png      its Open Graph image
 *   /media/photos/{id}-{size}.{format}  the owner's profile photo (server/domains/media/)
 *   /robots.txt, /favicon.ico
 * and its own 404 for everything else (app routes included). GET and HEAD
 * only. No cookie is ever read or set, every response carries the host's
 * strict CSP (a page's lists the hashes of its own style elements).
 */
export type BioHost = {
  /** Whether this request is for the bio host (else the app answers it). */
  handles(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  pages: RenderedPages;
};

export type BioHostOptions = {
  config: Pick<Config, "BIO_ORIGIN" | "PUBLIC_ORIGIN" | "APP_NAME" | "TRUST_PROXY">;
  db: Db;
  generation: GenerationSource;
  counter: ViewCounter;
  logger: Pick<Logger, "error">;
  /** Profile photos, served here too so the pages' images come from their own origin. */
  photos: PhotoServer;
  /** Each page lookup: "hit" from the rendered bytes kept in memory, "miss" when it had to be read or rendered. */
  onPageLookup?(outcome: "hit" | "miss"): void;
};

const MAX_URL = 2048;
const PAGE = /^\/([a-z0-9_]{1,99})$/;
const LINK = /^\/([a-z0-9_]{1,99})\/go\/([a-z]{1,20})$/;
const SHARE = /^\/([a-z0-9_]{1,99})\/share\.png$/;
const SLASHED_OR_CASED = /^\/([A-Za-z0-9_]{1,99})\/?$/;
const ROBOTS = Buffer.from("User-agent: *\nDisallow: /*/go/\n");
const FAVICON = Buffer.from(FAVICON_SVG);

export function createBioHost({ config, db, generation, counter, logger, photos, onPageLookup }: BioHostOptions): BioHost {
  const site: BioSite = { bioOrigin: config.BIO_ORIGIN, publicOrigin: config.PUBLIC_ORIGIN, appName: config.APP_NAME };
  const host = hostMatcher(config.BIO_ORIGIN, config.TRUST_PROXY);
  const referrerSite = referrerSites(config.BIO_ORIGIN);
  // One address for both would hand the whole app to the bio host: then it stays off.
  const distinct = new URL(config.BIO_ORIGIN).host !== new URL(config.PUBLIC_ORIGIN).host;
  const pages = createRenderedPages({ db, generation, site });
  const notFound = encodeOnce(renderNotFound(site));
  const unavailable = encodeOnce(renderUnavailable(site));

  // A disabled owner's page, link or image: 404 with its own words (ADR 0029), never counted, never cached as the page.
  const sendNotFound = (req: IncomingMessage, res: ServerResponse, https: boolean, lookup: PageLookup = null) => {
    const encoding = encodingFor(req.headers["accept-encoding"]);
    const page = lookup === "unavailable" ? unavailable : notFound;
    send(res, {
      status: 404,
      https,
      body: page[encoding],
      csp: page.csp,
      encoding,
      contentType: "text/html; charset=utf-8",
      headers: ["Vary", "Accept-Encoding", "Cache-Control", "no-cache"],
    });
  };

  const sendPage = (req: IncomingMessage, res: ServerResponse, https: boolean, rendered: PageLookup) => {
    if (!rendered || rendered === "unavailable") return sendNotFound(req, res, https, rendered);
    const encoding = encodingFor(req.headers["accept-encoding"]);
    const etag = `"${rendered.etag}-${encoding}"`;
    // Every open of the page asks the server (no-cache), so each one can be counted; a 304 from a person is a view too.
    // One view per client network and page per half hour (server/domains/bio/host/recent-visitors.ts),
    // with the referring site's host only (no cookie, no address kept).
    if (isHumanVisit(req.method, req.headers)) counter.view(rendered.page.id, host.clientAddress(req), referrerSite(req.headers.referer));
    const headers = ["Vary", "Accept-Encoding", "ETag", etag, "Cache-Control", "no-cache"];
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, [...headers, ...securityHeadersFor(https, rendered.csp)]);
      res.end();
      return;
    }
    send(res, { status: 200, https, body: rendered[encoding], csp: rendered.csp, encoding, contentType: "text/html; charset=utf-8", headers });
  };

  const sendLink = (req: IncomingMessage, res: ServerResponse, https: boolean, rendered: PageLookup, type: string) => {
    if (rendered === "unavailable") return sendNotFound(req, res, https, rendered);
    const stored = rendered && isLinkType(type) ? rendered.links.get(type) : undefined;
    // Only an http(s) address ever becomes a Location; `href` is its ASCII spelling (punycode, %-escapes).
    const url = stored === undefined ? null : httpUrl(stored);
    if (!rendered || !url) return sendNotFound(req, res, https);
    if (isHumanVisit(req.method, req.headers)) counter.click(rendered.page.id, type as Parameters<ViewCounter["click"]>[1], host.clientAddress(req));
    sendText(res, 302, https, `Redirecting to ${url.href}`, ["Location", url.href]);
  };

  const sendShare = async (req: IncomingMessage, res: ServerResponse, https: boolean, rendered: PageLookup, query: string) => {
    if (!rendered || rendered === "unavailable") return sendNotFound(req, res, https, rendered);
    const png = await rendered.shareImage();
    // The versioned address (og:image) never changes meaning; the bare one may, so it is kept briefly.
    const current = new URLSearchParams(query).get("v") === rendered.shareVersion;
    send(res, {
      status: 200,
      https,
      body: png,
      contentType: "image/png",
      headers: ["Cache-Control", current ? "public, max-age=31536000, immutable" : "public, max-age=300"],
    });
  };

  const route = (req: IncomingMessage, res: ServerResponse, https: boolean): void | Promise<void> => {
    const url = req.url ?? "/";
    if (url.length > MAX_URL) return sendText(res, 414, https, "Address too long");
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const query = queryAt === -1 ? "" : url.slice(queryAt + 1);

    let match = PAGE.exec(path);
    // A page address never needs a query: one (the editor's "view" links add `?saved`) asks for
    // the page as of every change already committed, so its owner sees their save (ADR 0046).
    if (match) return withPage(match[1]!, (rendered) => sendPage(req, res, https, rendered), query !== "");
    if ((match = LINK.exec(path))) {
      const type = match[2]!;
      return withPage(match[1]!, (rendered) => sendLink(req, res, https, rendered, type));
    }
    if ((match = SHARE.exec(path))) return withPage(match[1]!, (rendered) => sendShare(req, res, https, rendered, query));
    if (path.startsWith(PHOTO_PATH_PREFIX)) return sendPhoto(req, res, https, photos, path);
    if (path === "/robots.txt") {
      return send(res, { status: 200, https, body: ROBOTS, contentType: "text/plain; charset=utf-8", headers: ["Cache-Control", "public, max-age=86400"] });
    }
    if (path === "/favicon.ico") {
      return send(res, { status: 200, https, body: FAVICON, contentType: "image/svg+xml", headers: ["Cache-Control", "public, max-age=86400"] });
    }
    // /Maya/ or /maya/: the page's one address, for a person who typed it slightly differently.
    if ((match = SLASHED_OR_CASED.exec(path)) && PAGE.test(`/${match[1]!.toLowerCase()}`)) {
      return sendText(res, 301, https, "Moved", ["Location", `/${match[1]!.toLowerCase()}${query ? `?${query}` : ""}`]);
    }
    sendNotFound(req, res, https);
  };

  const withPage = (ending: string, then: (rendered: PageLookup) => void | Promise<void>, synced = false) => {
    const found = pages.get(ending, { synced });
    onPageLookup?.(found instanceof Promise ? "miss" : "hit");
    return found instanceof Promise ? found.then(then) : then(found);
  };

  return {
    pages,
    handles(req) {
      return distinct && host.isBioHost(req);
    },
    handle(req, res) {
      let https = false;
      try {
        https = host.isHttps(req);
        if (req.method !== "GET" && req.method !== "HEAD") {
          return sendText(res, 405, https, "Only GET and HEAD are served here", ["Allow", "GET, HEAD"]);
        }
        const done = route(req, res, https);
        if (done instanceof Promise) done.catch((error: unknown) => failed(res, https, error));
      } catch (error) {
        failed(res, https, error);
      }
    },
  };

  // The database away, most likely: say so briefly; the next request tries again.
  function failed(res: ServerResponse, https: boolean, error: unknown) {
    logger.error({ err: error }, "bio host could not answer");
    if (res.headersSent) return res.end();
    sendText(res, 503, https, "This page can't be shown right now. Please try again in a moment.", ["Retry-After", "5"]);
  }
}
