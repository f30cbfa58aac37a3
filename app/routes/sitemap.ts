import { listBlogPosts } from "#server/domains/content/library";
import { buildSitemap } from "#server/features/sitemap/sitemap";
import { apiResourceLinks } from "#server/features/api/reference";
import { CONTENT_PAGES } from "#isomorphic/content-pages";
import { rawAnswer } from "#page-kit/respond.server";
import type { Route } from "./+types/sitemap";

/** Every indexable public page: home, content pages, blog, featured, the sponsor directory's guest pages, the opportunity list and each opportunity, the API reference's overview and resource pages, and the webhooks guide. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const built = await buildSitemap(context.db, {
    origin: context.config.PUBLIC_ORIGIN,
    part: new URL(request.url).searchParams.get("part"),
    pages: [
      { path: "/" },
      ...CONTENT_PAGES.map((page) => ({ path: page.path })),
      { path: "/blog" },
      ...listBlogPosts().map((post) => ({ path: `/blog/${post.slug}`, lastmod: post.date ?? undefined })),
      { path: "/featured" },
      { path: "/app/sponsors" },
      { path: "/app/sponsors/previews" },
      { path: "/app/opportunities" },
      { path: "/developers/api" },
      ...apiResourceLinks(context.config.PUBLIC_ORIGIN).map((resource) => ({ path: `/developers/api/${resource.slug}` })),
      { path: "/developers/webhooks" },
    ],
  });
  const headers = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" };
  return rawAnswer(built.xml, headers, built.kind === "ERROR" ? built : undefined);
}
