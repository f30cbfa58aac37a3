import { listBlogPosts } from "#server/content/library";
import { CONTENT_PAGES } from "#app/content-routes";
import type { Route } from "./+types/sitemap";

const escapeXml = (value: string) => value.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Every indexable public page: home, content pages, blog, featured. */
export function loader({ context }: Route.LoaderArgs) {
  const origin = context.config.PUBLIC_ORIGIN;
  const entries: { path: string; lastmod?: string }[] = [
    { path: "/" },
    ...CONTENT_PAGES.map((page) => ({ path: page.path })),
    { path: "/blog" },
    ...listBlogPosts().map((post) => ({ path: `/blog/${post.slug}`, lastmod: post.date ?? undefined })),
    { path: "/featured" },
  ];
  const urls = entries
    .map(
      (entry) =>
        `  <url><loc>${escapeXml(origin + entry.path)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ""}</url>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
