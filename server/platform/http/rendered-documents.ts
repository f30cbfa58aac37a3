import { createHash } from "node:crypto";

/**
 * Documents React rendered, kept by exactly what they were rendered from, so the same page with
 * the same data is not rendered again (item 24: a signed-in list page spent a quarter
 * of its CPU in React).
 *
 * Nothing here is read from the database or invalidated: every request still runs its loaders,
 * and the key is a hash of the request's address and of ALL its loader data, so a page changes the
 * moment its data does (a heart, a new post, an unread notification, another person's name) and a
 * person is only ever sent a document rendered from data identical to their own. Only routes
 * whose rendering reads nothing but that data opt in (`handle = { rendersFromDataOnly: true }`),
 * and only data that serialises one way (plain objects, arrays, strings, finite numbers,
 * booleans, null) makes a key; anything else is rendered as before.
 *
 * The one part of a document that is per request is its CSP nonce: a kept document is sent with
 * its nonce replaced by the request's own (a fresh random value the data, read before it existed,
 * cannot contain).
 */
export type RenderedDocument = { html: string; nonce: string | null };

export type RenderedDocuments = {
  /** The key of a render, or null when this render must not be kept. */
  keyOf(input: RenderInput): string | null;
  /** A kept document with `nonce` in place of the one it was rendered with. */
  take(key: string, nonce: string | null): string | null;
  keep(key: string, document: RenderedDocument): void;
};

export type RenderInput = {
  method: string;
  url: string;
  status: number;
  /** Whether the deepest matched route opted in. */
  optedIn: boolean;
  loaderData: unknown;
  actionData: unknown;
  errors: unknown;
  nonce: string | null;
};

const NOT_PLAIN = new Error("not plain data");

/** JSON that only one value can have produced, or null (a Map, a Date, undefined, NaN …). */
export function plainJson(value: unknown): string | null {
  try {
    return JSON.stringify(value, function (this: Record<string, unknown>, key, converted: unknown) {
      const original = key === "" ? value : this[key];
      if (original === null || typeof original === "string" || typeof original === "boolean") return converted;
      if (typeof original === "number") {
        if (!Number.isFinite(original) || Object.is(original, -0)) throw NOT_PLAIN;
        return converted;
      }
      if (typeof original !== "object") throw NOT_PLAIN;
      if (Array.isArray(original)) return converted;
      const prototype = Object.getPrototypeOf(original);
      if (prototype !== Object.prototype && prototype !== null) throw NOT_PLAIN;
      return converted;
    });
  } catch {
    return null;
  }
}

/** Keeps nothing: every page is rendered (development, where the components change under the same data). */
export const neverKept: RenderedDocuments = { keyOf: () => null, take: () => null, keep: () => {} };

export function createRenderedDocuments({ maxBytes = 16 * 1024 * 1024 }: { maxBytes?: number } = {}): RenderedDocuments {
  // Insertion order is recency: a hit moves its entry to the end, the oldest go first.
  const kept = new Map<string, RenderedDocument>();
  let bytes = 0;
  const sizeOf = (document: RenderedDocument) => document.html.length * 2;

  return {
    keyOf(input) {
      if (!input.optedIn || input.method !== "GET" || input.status !== 200) return null;
      if (input.errors || input.actionData) return null;
      const data = plainJson(input.loaderData);
      if (data === null) return null;
      // Whether a nonce is used changes the document (a page rendered without one has no nonces).
      return createHash("sha256").update(`${input.nonce ? "nonce" : "none"}\n${input.url}\n${data}`).digest("base64url");
    },
    take(key, nonce) {
      const document = kept.get(key);
      if (!document) return null;
      kept.delete(key);
      kept.set(key, document);
      if (document.nonce === null || nonce === null) return document.html;
      return document.html.split(document.nonce).join(nonce);
    },
    keep(key, document) {
      const size = sizeOf(document);
      if (size > maxBytes / 8) return;
      const previous = kept.get(key);
      if (previous) {
        bytes -= sizeOf(previous);
        kept.delete(key);
      }
      kept.set(key, document);
      bytes += size;
      for (const [oldest, entry] of kept) {
        if (bytes <= maxBytes) break;
        kept.delete(oldest);
        bytes -= sizeOf(entry);
      }
    },
  };
}
