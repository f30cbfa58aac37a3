import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { couldBeEnding } from "#server/domains/bio/endings";
import { readPublicPage, type PublicBioPage } from "#server/domains/bio/public-page";
import type { Db } from "#server/platform/db/client";
import type { GenerationSource } from "#server/platform/page-cache/generation";
import { renderBioPage, type BioSite } from "./page-html";
import { renderShareImage } from "./share-image";
import { bioCspFor } from "./style";

/**
 * Bio pages rendered once per version and kept as bytes.
 *
 * An entry remembers the generation (server/platform/page-cache/generation.ts) it was
 * checked at. Every bio and opportunity write moves the generation; when a
 * request sees it moved, the page is read again (one read per ending and
 * generation, however many requests wait) and rendered again only if what it
 * shows changed. So the request after an edit, on this process or another on
 * the same PostgreSQL, gets the new page; the rest of the time a request costs
 * a Map lookup. Unknown endings are kept as misses the same way, so a flood of
 * requests for one wrong address is one query per generation, not per request.
 * Memory is bounded: least recently used entries go past `maxBytes`.
 */
export type RenderedPage = {
  page: PublicBioPage;
  /** The page's own Content-Security-Policy: the hashes of its style elements. */
  csp: string;
  /** Strong validator of the HTML (per encoding, suffixed by the sender). */
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** The share image's version, in its URL (og:image) so a changed page gets a new image everywhere. */
  shareVersion: string;
  /** Link type → address, for the counted redirect. */
  links: Map<string, string>;
  /** The share image, made on first request. */
  shareImage(): Promise<Buffer>;
  /** Its size once made (0 before), counted in the store's budget. */
  imageBytes: number;
};

/** A page, "unavailable" (its owner's account is disabled: nothing of it is rendered or kept), or null (none). */
export type PageLookup = RenderedPage | "unavailable" | null;

type Entry = { generation: string; checkedAt: number; value: PageLookup; fingerprint: string; size: number };

export type RenderedPagesOptions = {
  db: Db;
  generation: GenerationSource;
  site: BioSite;
  maxBytes?: number;
  /** Read again after this long even with no generation change (a setting no write signals, e.g. payments switched off). */
  maxAgeMs?: number;
  now?: () => number;
  read?: (db: Db, ending: string) => Promise<PublicBioPage | null>;
};

export type RenderedPages = {
  /**
   * The page at `ending` as of now (null: none); synchronous when nothing needed reading.
   * `synced`: as of every change committed before the call, in any process (ADR 0046).
   */
  get(ending: string, options?: { synced?: boolean }): PageLookup | Promise<PageLookup>;
  stats(): { entries: number; bytes: number; reads: number; renders: number };
};

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const MISS_SIZE = 200;

export function createRenderedPages({
  db,
  generation,
  site,
  maxBytes = 16 * 1024 * 1024,
  maxAgeMs = 60_000,
  now = Date.now,
  read = readPublicPage,
}: RenderedPagesOptions): RenderedPages {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<PageLookup>>();
  let bytes = 0;
  let reads = 0;
  let renders = 0;

  const keep = (ending: string, entry: Entry) => {
    const old = entries.get(ending);
    if (old) {
      entries.delete(ending);
      bytes -= old.size;
    }
    entries.set(ending, entry);
    bytes += entry.size;
    evict();
  };
  const evict = () => {
    for (const [oldest, kept] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(oldest);
      bytes -= kept.size;
    }
  };
  // A share image made later counts against the same budget as its page, while the page is kept.
  const grew = (ending: string, value: RenderedPage, added: number) => {
    const entry = entries.get(ending);
    if (entry?.value !== value) return;
    entry.size += added;
    bytes += added;
    evict();
  };

  const load = (ending: string, current: string): Promise<PageLookup> => {
    const key = `${ending}\n${current}`;
    let pending = loading.get(key);
    if (!pending) {
      pending = (async () => {
        reads += 1;
        const page = await read(db, ending);
        const fingerprint = page?.ownerActive ? fingerprintOf(page) : "";
        const before = entries.get(ending);
        let value: PageLookup = page && !page.ownerActive ? "unavailable" : null;
        if (page?.ownerActive) {
          if (before?.value && before.value !== "unavailable" && before.fingerprint === fingerprint) value = before.value;
          else {
            renders += 1;
            value = await render(page, site, (value, added) => grew(ending, value, added));
          }
        }
        const size = value && value !== "unavailable" ? value.identity.length + value.br.length + value.gzip.length + value.imageBytes + 1024 : MISS_SIZE;
        keep(ending, { generation: current, checkedAt: now(), value, fingerprint, size });
        return value;
      })().finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  };

  const answer = (ending: string, current: string) => {
    const entry = entries.get(ending);
    if (entry && entry.generation === current && now() - entry.checkedAt < maxAgeMs) {
      // Most recently used goes last: the Map's order is the eviction order.
      entries.delete(ending);
      entries.set(ending, entry);
      return entry.value;
    }
    return load(ending, current);
  };

  return {
    get(ending, { synced = false } = {}) {
      if (!couldBeEnding(ending)) return null;
      const current = synced && generation.synced ? generation.synced() : generation.current();
      return typeof current === "string" ? answer(ending, current) : current.then((value) => answer(ending, value));
    },
    stats: () => ({ entries: entries.size, bytes, reads, renders }),
  };
}

/**
 * Everything the page shows; equal fingerprints render to equal bytes. The
 * whole read but its time stamp, so a field a new part of the page shows
 * can't be left out of it by mistake.
 */
function fingerprintOf(page: PublicBioPage): string {
  const { updatedAt: _updatedAt, ...shown } = page;
  return JSON.stringify(shown);
}

const hash = (text: string | Buffer) => crypto.createHash("sha256").update(text).digest("base64url");

async function render(page: PublicBioPage, site: BioSite, grew: (value: RenderedPage, added: number) => void): Promise<RenderedPage> {
  const shareVersion = hash(JSON.stringify([page.name, page.blurb, page.customEnding, page.theme, site.bioOrigin, site.appName])).slice(0, 12);
  const html = renderBioPage(page, site, shareVersion);
  const identity = Buffer.from(html, "utf8");
  // Compressed once per version, so at the best ratio rather than the fastest.
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip(identity, { level: 9 }),
  ]);
  let image: Promise<Buffer> | null = null;
  const rendered: RenderedPage = {
    page,
    csp: bioCspFor(html),
    etag: hash(identity).slice(0, 22),
    identity,
    br,
    gzip: gz,
    shareVersion,
    links: new Map(page.links.map((link) => [link.type, link.url])),
    imageBytes: 0,
    shareImage() {
      image ??= renderShareImage(page, site).then(
        (png) => {
          rendered.imageBytes = png.length;
          grew(rendered, png.length);
          return png;
        },
        (error: unknown) => {
          image = null;
          throw error;
        },
      );
      return image;
    },
  };
  return rendered;
}
