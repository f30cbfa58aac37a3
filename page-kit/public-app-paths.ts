// Which pages under /app are open to guests (SPEC §2.1) and so belong in
// search results; everything else under /app is signed-in only and noindex.
// Used by page meta (page-kit/meta.ts) and robots.txt, so the two never disagree.
// /app/sponsors (for guests: what the directory is), /app/sponsors/previews
// (the preview sample) and /app/profiles are open too; the directory's other
// pages are for verified or Pro members.

/** Signed-in-only pages that sit under the public list's path. */
const OPPORTUNITY_SUBPAGES = ["new", "edit", "sponsor"] as const;

const OPEN_APP_PAGES = new Set(["/app/sponsors", "/app/sponsors/previews", "/app/profiles", "/app/opportunities"]);

/** True for /app/opportunities, /app/opportunities/{docId}, /app/sponsors, /app/sponsors/previews and /app/profiles. */
export function isPublicAppPath(pathname: string): boolean {
  if (OPEN_APP_PAGES.has(pathname)) return true;
  const detail = /^\/app\/opportunities\/([^/]+)$/.exec(pathname);
  return detail !== null && !(OPPORTUNITY_SUBPAGES as readonly string[]).includes(detail[1]!);
}

/** robots.txt lines: the public list and details allowed, the signed-in pages beside them not. */
export const ROBOTS_APP_RULES = [
  "Allow: /app/opportunities",
  ...OPPORTUNITY_SUBPAGES.map((page) => `Disallow: /app/opportunities/${page}`),
  "Disallow: /app/opportunities/*/heart",
  "Allow: /app/profiles",
  "Allow: /app/sponsors",
  "Allow: /app/sponsors/previews",
  "Disallow: /app/sponsors/",
];
