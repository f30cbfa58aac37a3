import Negotiator from "negotiator";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * The HTML documents React renders are complete before they are sent
 * (app/entry.server.tsx), so they are compressed here in one pass and sent
 * with a Content-Length. The `compression` middleware would instead run its
 * stream through three zlib passes (write, the adapter's flush, end), each a
 * round trip to the thread pool, and send the result chunked; that cost about
 * 10 % of a list page's throughput (bench/README.md). The middleware still
 * compresses everything else and leaves an encoded body alone.
 */

export type DocumentEncoding = "br" | "gzip";
// zlib's results live in ordinary ArrayBuffers; the type says so, for Response.
type Bytes = Buffer<ArrayBuffer>;
export type EncodedDocument = { body: Bytes; encoding: DocumentEncoding | null };

// What the middleware offers and prefers when the client likes several equally.
const AVAILABLE = ["br", "gzip", "identity"];
const PREFERRED = ["br", "gzip"];
/** Brotli quality for pages here and for everything else in the middleware (server/main/app.ts). */
export const BROTLI_PARAMS = { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 };

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

// negotiator 0.6.4 takes the server's order for ties as a second argument,
// which its type definitions leave out.
type EncodingNegotiator = { encoding(available: string[], preferred: string[]): string | undefined };

/** The encoding to send a document in, from the request's Accept-Encoding; null for none. */
export function documentEncoding(acceptEncoding: string | null): DocumentEncoding | null {
  // No header, no compression: what the middleware does too, and what curl expects.
  if (!acceptEncoding) return null;
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }) as unknown as EncodingNegotiator;
  const chosen = negotiator.encoding(AVAILABLE, PREFERRED);
  return chosen === "br" || chosen === "gzip" ? chosen : null;
}

/** The document compressed as the request accepts, on the thread pool. */
export async function encodeDocument(html: Bytes, acceptEncoding: string | null): Promise<EncodedDocument> {
  const encoding = documentEncoding(acceptEncoding);
  if (encoding === "br") {
    const params = { ...BROTLI_PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length };
    return { body: (await brotliCompress(html, { params })) as Bytes, encoding };
  }
  if (encoding === "gzip") return { body: (await gzip(html)) as Bytes, encoding };
  return { body: html, encoding: null };
}
