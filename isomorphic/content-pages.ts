/**
 * Public pages whose body is a Markdown file in content/. Shared by the
 * route table, the page loaders and the sitemap.
 */
export const CONTENT_PAGES = [
  { path: "/support", collection: "pages", slug: "support", section: "Support" },
  { path: "/support/code-of-conduct", collection: "pages", slug: "code-of-conduct", section: "Support" },
  { path: "/support/reporting", collection: "pages", slug: "reporting", section: "Support" },
  { path: "/support/payments", collection: "pages", slug: "payments", section: "Support" },
  { path: "/legal/privacy-policy", collection: "pages", slug: "privacy-policy", section: "Legal" },
  { path: "/legal/terms-of-service", collection: "pages", slug: "terms-of-service", section: "Legal" },
  { path: "/about", collection: "pages", slug: "about", section: "About" },
  { path: "/finding-the-best-sponsorships", collection: "guides", slug: "finding-the-best-sponsorships", section: "Guide" },
  { path: "/youtube-sponsorships", collection: "guides", slug: "youtube-sponsorships", section: "Guide" },
  { path: "/podcast-sponsorships", collection: "guides", slug: "podcast-sponsorships", section: "Guide" },
  { path: "/gamer-sponsorships", collection: "guides", slug: "gamer-sponsorships", section: "Guide" },
] as const;

export type ContentPageRoute = (typeof CONTENT_PAGES)[number];

export function contentPageFor(pathname: string): ContentPageRoute | undefined {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return CONTENT_PAGES.find((page) => page.path === normalised);
}
