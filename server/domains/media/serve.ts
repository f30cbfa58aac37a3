import type { Db } from "#server/platform/db/client";
import type { GenerationSource } from "#server/platform/page-cache/generation";
import type { PhotoSize } from "#isomorphic/profile-photo";
import type { PhotoFormat } from "./process";
import { readPhotoVariant } from "./photos";

/** `/media/photos/{id}-{size}.{format}` (isomorphic/profile-photo.ts), on the app host and the bio host. */
export const PHOTO_PATH = /^\/media\/photos\/([0-9a-f]{32})-(96|192|384)\.(webp|avif)$/;
export const PHOTO_PATH_PREFIX = "/media/photos/";

const CONTENT_TYPES: Record<PhotoFormat, string> = { webp: "image/webp", avif: "image/avif" };
/** An address names its bytes for good (the id is their hash): a year, never asked again. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const MISSING = Buffer.from("There is no photo at this address.\n");

/** Status, headers (name, value, …) and body; the host adds its own security headers. */
export type PhotoAnswer = { status: 200 | 304 | 404; headers: string[]; body: Buffer };

export type PhotoServer = {
  answer(path: string, ifNoneMatch: string | undefined): PhotoAnswer | Promise<PhotoAnswer>;
  stats(): { entries: number; bytes: number; reads: number };
};

type Entry = { bytes: Buffer; etag: string; contentType: string; generation: string };

/**
 * Serves photos from the database through a small cache of their bytes (least
 * recently used first out past `maxBytes`), so a popular photo costs a Map
 * lookup. Bytes under an address never change; what can change is that the
 * photo is removed. An entry is trusted for the guest page generation it was
 * read at; a removal moves it (the profiles trigger), and the next request
 * reads the row again, on this process or any other.
 */
export function createPhotoServer({ db, generation, maxBytes = 32 * 1024 * 1024 }: { db: Db; generation: GenerationSource; maxBytes?: number }): PhotoServer {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let reads = 0;

  const notFound = (): PhotoAnswer => ({ status: 404, headers: ["Content-Type", "text/plain; charset=utf-8", "Cache-Control", "no-cache"], body: MISSING });
  const found = (entry: Entry, ifNoneMatch: string | undefined): PhotoAnswer => {
    const headers = ["Content-Type", entry.contentType, "Cache-Control", IMMUTABLE, "ETag", entry.etag];
    return ifNoneMatch === entry.etag ? { status: 304, headers, body: Buffer.alloc(0) } : { status: 200, headers, body: entry.bytes };
  };
  const forget = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    entries.delete(key);
    bytes -= old.bytes.length;
  };
  const keep = (key: string, entry: Entry) => {
    forget(key);
    entries.set(key, entry);
    bytes += entry.bytes.length;
    for (const [oldest] of entries) {
      if (bytes <= maxBytes) break;
      forget(oldest);
    }
  };

  const read = async (key: string, id: string, size: PhotoSize, format: PhotoFormat, now: string, ifNoneMatch: string | undefined) => {
    reads += 1;
    const stored = await readPhotoVariant(db, id, size, format);
    if (!stored) {
      forget(key);
      return notFound();
    }
    const entry = { bytes: stored, etag: `"${id}-${size}-${format}"`, contentType: CONTENT_TYPES[format], generation: now };
    keep(key, entry);
    return found(entry, ifNoneMatch);
  };

  const answerAt = (key: string, now: string, id: string, size: PhotoSize, format: PhotoFormat, ifNoneMatch: string | undefined) => {
    const entry = entries.get(key);
    if (entry && entry.generation === now) {
      // Most recently used goes to the end of the Map's order.
      entries.delete(key);
      entries.set(key, entry);
      return found(entry, ifNoneMatch);
    }
    return read(key, id, size, format, now, ifNoneMatch);
  };

  return {
    answer(path, ifNoneMatch) {
      const match = PHOTO_PATH.exec(path);
      if (!match) return notFound();
      const [key, id, size, format] = [match[0], match[1]!, Number(match[2]) as PhotoSize, match[3] as PhotoFormat];
      const now = generation.current();
      return typeof now === "string" ? answerAt(key, now, id, size, format, ifNoneMatch) : now.then((at) => answerAt(key, at, id, size, format, ifNoneMatch));
    },
    stats: () => ({ entries: entries.size, bytes, reads }),
  };
}
