// Which pages under /app are open to guests (SPEC §2.1) and so belong in
// search results; everything else under /app is signed-in only and noindex.
// Used by page meta (app/lib/meta.ts) and robots.txt, so the two never disagree.
// When /app/sponsors, /app/sponsors/recent, /app/sponsors/previews and
// /app/profiles are built, they join this list.

/** Signed-in-only pages that sit under the public list's path. */
const OPPORTUNITY_SUBPAGES = ["new", "edit", "sponsor"] as const;

/** True for /app/opportunities and /app/opportunities/{docId}. */
export function isPublicAppPath(pathname: string): boolean {
  if (pathname === "/app/opportunities") return true;
  const detail = /^\/app\/opportunities\/([^/]+)$/.exec(pathname);
  return detail !== null && !(OPPORTUNITY_SUBPAGES as readonly string[]).includes(detail[1]!);
}

/** robots.txt lines: the public list and details allowed, the signed-in pages beside them not. */
export const ROBOTS_APP_RULES = [
  "Allow: /app/opportunities",
  ...OPPORTUNITY_SUBPAGES.map((page) => `Disallow: /app/opportunities/${page}`),
  "Disallow: /app/opportunities/*/heart",
];
