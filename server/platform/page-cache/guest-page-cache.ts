import type { RequestHandler } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { guestPageKey } from "./eligibility";
import type { GenerationSource } from "./generation";
import { policyWithScriptHashes } from "./script-hashes";
import { REQUEST_ID_HEADER } from "#server/platform/http/request-id";

/**
 * Guest pages, answered from memory before Express sees the request.
 *
 * A guest's page (no cookie, a listed path: server/platform/page-cache/eligibility.ts)
 * is rendered once by the full stack — security headers, React Router —
 * and the response, exactly as sent, is kept under a key of everything that
 * changes its bytes. The next guest asking for the same key gets those bytes
 * and headers from a plain Node handler, as long as no marketplace change
 * happened since (server/platform/page-cache/generation.ts). Only a 200 HTML response
 * that sets no cookie and is not marked private is kept.
 *
 * Pages rendered for guests carry no CSP nonce; their policy allows their
 * inline scripts by hash instead (script-hashes.ts), so a kept page is as
 * safe to send twice as a static file.
 *
 * Hits are not written to the request log: that is a large share of a
 * request's cost here, and nginx in front logs every request anyway.
 */
export type GuestPageCache = {
  /** Node `request` listener front: answers from memory or hands over to `next` (Express). */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  /** Express middleware, just before React Router: renders guests without a nonce and keeps the result. */
  capture: RequestHandler;
};

type Entry = { generation: string; headers: string[]; body: Buffer; expiresAt: number; size: number };
type Pending = { key: string; generation: string };

const PENDING = Symbol("guest page to keep");
type Marked = IncomingMessage & { [PENDING]?: Pending };

export type GuestPageCacheOptions = {
  generation: GenerationSource;
  /** Bytes of bodies kept at most; the oldest entries go first. */
  maxBytes?: number;
  /** A kept page is rendered again after this long even without a change (the footer's year, …). */
  maxAgeMs?: number;
  now?: () => number;
  /** Each cacheable request: "hit" answered from memory, "stale" kept at an older generation or age, "miss" not kept. */
  onLookup?: (outcome: "hit" | "miss" | "stale") => void;
};

export function createGuestPageCache({
  generation,
  onLookup,
  maxBytes = 32 * 1024 * 1024,
  maxAgeMs = 10 * 60_000,
  now = Date.now,
}: GuestPageCacheOptions): GuestPageCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.size;
  };
  const keep = (key: string, entry: Entry) => {
    forget(key);
    if (entry.size > maxBytes / 8) return;
    entries.set(key, entry);
    bytes += entry.size;
    for (const [oldest] of entries) {
      if (bytes <= maxBytes) break;
      forget(oldest);
    }
  };

  const serveOrRender = (req: Marked, res: ServerResponse, next: () => void, key: string, current: string) => {
    const entry = entries.get(key);
    if (entry && entry.generation === current && entry.expiresAt > now()) {
      onLookup?.("hit");
      res.writeHead(200, entry.headers);
      res.end(entry.body);
      return;
    }
    onLookup?.(entry ? "stale" : "miss");
    if (entry) forget(key);
    req[PENDING] = { key, generation: current };
    next();
  };

  return {
    handle(req, res, next) {
      const key = guestPageKey(req);
      if (key === null) return next();
      // A page that is not kept yet needs the generation too: the one read before it is rendered.
      let current: Promise<string> | string;
      try {
        current = generation.current();
      } catch {
        return next();
      }
      if (typeof current === "string") return serveOrRender(req, res, next, key, current);
      current.then(
        (value) => serveOrRender(req, res, next, key, value),
        () => next(),
      );
    },

    capture(req, res, next) {
      const pending = (req as Marked)[PENDING];
      if (!pending) return next();
      res.locals.cspNonce = "";
      res.setHeader("X-Guest-Cache", "miss");
      keepWhenSent(res, (body) => {
        const kept = responseToKeep(res, body);
        if (kept) keep(pending.key, { ...kept, generation: pending.generation, expiresAt: now() + maxAgeMs });
      });
      next();
    },
  };
}

/**
 * Holds back what React Router writes until the end, so the policy can be
 * given the page's script hashes before the headers go out; then sends it
 * and hands the body to `sent`.
 */
function keepWhenSent(res: ServerResponse, sent: (body: Buffer) => void) {
  const pieces: Buffer[] = [];
  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    pieces.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
  };
  const end = res.end.bind(res) as (body: Buffer, callback?: () => void) => ServerResponse;
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    collect(chunk, encoding);
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") process.nextTick(done as () => void);
    return true;
  }) as ServerResponse["write"];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    collect(chunk, encoding);
    const done = [chunk, encoding, callback].find((arg) => typeof arg === "function") as (() => void) | undefined;
    const body = Buffer.concat(pieces);
    const isHtml = String(res.getHeader("Content-Type") ?? "").startsWith("text/html");
    const policy = res.getHeader("Content-Security-Policy");
    let html: string | null = null;
    if (!res.headersSent && isHtml && typeof policy === "string") {
      html = decoded(body, res.getHeader("Content-Encoding"));
      if (html !== null) res.setHeader("Content-Security-Policy", policyWithScriptHashes(policy, html));
      // An undecodable page keeps the nonce policy, which no script of it matches: it fails closed.
    }
    end(body, done);
    if (html !== null) sent(body);
    return res;
  }) as ServerResponse["end"];
}

function decoded(body: Buffer, encoding: unknown): string | null {
  try {
    if (encoding === "br") return zlib.brotliDecompressSync(body).toString("utf8");
    if (encoding === "gzip") return zlib.gunzipSync(body).toString("utf8");
    if (encoding === undefined) return body.toString("utf8");
  } catch {
    // fall through: not kept
  }
  return null;
}

/** The response as it went out, if it may be sent to the next guest: a 200 without cookies, not private. */
function responseToKeep(res: ServerResponse, body: Buffer): Pick<Entry, "headers" | "body" | "size"> | null {
  if (res.statusCode !== 200 || res.hasHeader("Set-Cookie")) return null;
  const cacheControl = String(res.getHeader("Cache-Control") ?? "");
  if (/private|no-store/i.test(cacheControl)) return null;
  const headers: string[] = [];
  let size = body.length;
  // Names as they were written (getHeaders() would lower-case them), values as sent.
  for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
    const value = res.getHeader(name);
    // The render's request id names that request alone; each hit is sent its own (server/platform/http/request-id.ts).
    if (value === undefined || name.toLowerCase() === REQUEST_ID_HEADER.toLowerCase()) continue;
    const shown = name.toLowerCase() === "x-guest-cache" ? "hit" : value;
    for (const one of Array.isArray(shown) ? shown : [shown]) {
      headers.push(name, String(one));
      size += name.length + String(one).length;
    }
  }
  return { headers, body, size };
}
