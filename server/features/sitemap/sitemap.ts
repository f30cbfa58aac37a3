import { and, count, desc, isNull } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { opportunityPosts } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";

/** The sitemaps protocol's limit of addresses per file. */
export const SITEMAP_MAX_URLS = 50_000;

export type SitemapEntry = { path: string; lastmod?: string };
/** The file, or no such part: then an empty urlset is still the body (a crawler reads XML either way). */
export type SitemapResponse = Result<{ xml: string }, Refusal<"not-found", "NO_SUCH_PART", { xml: string }>>;

const escapeXml = (value: string) => value.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

function urlset(origin: string, entries: SitemapEntry[]): string {
  const urls = entries
    .map((e) => `  <url><loc>${escapeXml(origin + e.path)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ""}</url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

const noSuchPart = (origin: string) => refusal("not-found", "NO_SUCH_PART", "This part of the sitemap does not exist.", { xml: urlset(origin, []) });

function sitemapIndex(origin: string, parts: number): string {
  const items = Array.from({ length: parts }, (_, i) => `  <sitemap><loc>${escapeXml(`${origin}/sitemap.xml?part=${i + 1}`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</sitemapindex>\n`;
}

/** Opportunity detail pages, newest first (ids sort by posting time), one slice of them; none of a disabled account. */
async function opportunityEntries(db: Db, offset: number, limit: number): Promise<SitemapEntry[]> {
  const rows = await db
    .select({ id: opportunityPosts.id, updatedAt: opportunityPosts.updatedAt })
    .from(opportunityPosts)
    .where(and(ownerIsActive(opportunityPosts.posterUid), isNull(opportunityPosts.removedAt)))
    .orderBy(desc(opportunityPosts.id))
    .offset(offset)
    .limit(limit);
  return rows.map((row) => ({ path: `/app/opportunities/${row.id}`, lastmod: row.updatedAt.toISOString().slice(0, 10) }));
}

/**
 * /sitemap.xml: the public pages and every opportunity. While all of them fit
 * in one file it is one urlset; beyond `maxUrls` it becomes a sitemap index of
 * `/sitemap.xml?part=N` files: part 1 holds the public pages and the newest
 * opportunities, each further part the next `maxUrls` older ones. Every
 * response is bounded, however many posts exist.
 */
export async function buildSitemap(
  db: Db,
  options: { origin: string; pages: SitemapEntry[]; part: string | null; maxUrls?: number },
): Promise<SitemapResponse> {
  const { origin, pages } = options;
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  const firstRoom = Math.max(0, maxUrls - pages.length);

  if (options.part === null) {
    const newest = await opportunityEntries(db, 0, firstRoom + 1);
    if (newest.length <= firstRoom) return success({ xml: urlset(origin, [...pages, ...newest]) });
    const [row] = await db.select({ posts: count() }).from(opportunityPosts).where(and(ownerIsActive(opportunityPosts.posterUid), isNull(opportunityPosts.removedAt)));
    const parts = 1 + Math.ceil(Math.max(0, (row?.posts ?? 0) - firstRoom) / maxUrls);
    return success({ xml: sitemapIndex(origin, parts) });
  }

  const part = /^[1-9][0-9]{0,5}$/.test(options.part) ? Number(options.part) : 0;
  if (part === 0) return noSuchPart(origin);
  if (part === 1) return success({ xml: urlset(origin, [...pages, ...(await opportunityEntries(db, 0, firstRoom))]) });
  const entries = await opportunityEntries(db, firstRoom + (part - 2) * maxUrls, maxUrls);
  return entries.length > 0 ? success({ xml: urlset(origin, entries) }) : noSuchPart(origin);
}
