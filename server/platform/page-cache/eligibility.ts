import type { IncomingMessage } from "node:http";
import { CONTENT_PAGES } from "#isomorphic/content-pages";
import { localeFrom } from "#isomorphic/format";
import { documentEncoding } from "#server/platform/http/document-encoding";

/**
 * Which requests the guest page cache may answer or fill, and the key that
 * names everything that changes a guest page's bytes.
 *
 * Only pages whose content comes from files or from the opportunity tables
 * (whose every write moves the generation, by a database trigger) are listed; a page that shows
 * anything else (/featured, the sponsor directory, account pages) is not.
 */
const STATIC_PATHS = new Set<string>(["/", "/blog", ...CONTENT_PAGES.map((page) => page.path)]);
const BLOG_POST = /^\/blog\/[a-z0-9-]{1,120}$/;
const OPPORTUNITY_LIST = "/app/opportunities";
// An opportunity id: digits, underscore, letters and digits. No dot, so `.data` requests never match.
const OPPORTUNITY_DETAIL = /^\/app\/opportunities\/[0-9]{1,12}_[A-Za-z0-9]{1,40}$/;

function cacheablePath(pathname: string, query: string): boolean {
  if (STATIC_PATHS.has(pathname) || BLOG_POST.test(pathname) || OPPORTUNITY_DETAIL.test(pathname)) return true;
  // A tag search on the list is logged on every request (SPEC §7.2): those always render.
  if (pathname === OPPORTUNITY_LIST) return !query.includes("tags");
  return false;
}

/**
 * The cache key of a guest's page request, or null when the request must be
 * rendered: not a GET, any cookie (a session, a toast or anything else: who
 * sends one may see personal bytes), credentials, or a page not listed above.
 * The key holds host, forwarded protocol (HSTS), path and query, the
 * compressed variant sent back, and the locale the pages format dates in
 * (`localeFrom`, as their loaders do): Accept-Language headers that resolve to
 * one locale share one copy.
 */
export function guestPageKey(req: IncomingMessage): string | null {
  if (req.method !== "GET") return null;
  const headers = req.headers;
  if (headers.cookie !== undefined || headers.authorization !== undefined) return null;
  const url = req.url ?? "";
  if (url.length > 1024 || url.includes("%00")) return null;
  const queryAt = url.indexOf("?");
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!cacheablePath(pathname, queryAt === -1 ? "" : url.slice(queryAt))) return null;
  const encoding = encodingVariant(headers["accept-encoding"] ?? "");
  const proto = headers["x-forwarded-proto"] ?? "";
  const locale = localeFrom(headers["accept-language"] ?? null);
  return `${headers.host ?? ""}\n${proto}\n${url}\n${encoding}\n${locale}`;
}

// Browsers send a handful of distinct Accept-Encoding values: remember what each negotiates to (pure, bounded).
const variants = new Map<string, string>();
function encodingVariant(acceptEncoding: string): string {
  let variant = variants.get(acceptEncoding);
  if (variant === undefined) {
    variant = documentEncoding(acceptEncoding || null) ?? "identity";
    if (variants.size < 100 && acceptEncoding.length <= 200) variants.set(acceptEncoding, variant);
  }
  return variant;
}
