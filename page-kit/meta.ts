import type { MetaDescriptor } from "react-router";
import { isPublicAppPath } from "./public-app-paths";
import type { SiteInfo } from "./site";

type MetaArgsLike = {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
};

export const DEFAULT_DESCRIPTION =
  "Find sponsors, post paid sponsorship opportunities and collect tips on your own link-in-bio page. Built for creators and the brands that back them.";

export function siteFromMatches(matches: MetaArgsLike["matches"]): SiteInfo | undefined {
  const root = matches.find((match) => match?.id === "root");
  return (root?.data as { site?: SiteInfo } | undefined)?.site;
}

/**
 * Title `<page> | <APP_NAME>`, description, share card (Open Graph/Twitter)
 * and canonical URL. App, auth and error pages pass `noindex`; everything
 * under /app is noindex too, except the marketplace pages SPEC §2.1 opens to
 * guests (the opportunity list and each opportunity), which search engines
 * should find.
 */
export function pageMeta(
  args: MetaArgsLike,
  page: { title: string; description?: string; noindex?: boolean; type?: "website" | "article" },
): MetaDescriptor[] {
  const site = siteFromMatches(args.matches);
  const appName = site?.appName ?? "Sponsorgrid";
  const origin = site?.publicOrigin ?? "";
  const title = `${page.title} | ${appName}`;
  const description = page.description ?? DEFAULT_DESCRIPTION;
  const url = `${origin}${args.location.pathname}`;
  const image = `${origin}/og-default.png`;
  const path = args.location.pathname;
  const signedInArea = (path === "/app" || path.startsWith("/app/")) && !isPublicAppPath(path);
  const noindex = page.noindex || signedInArea;
  return [
    { title },
    { name: "description", content: description },
    { property: "og:site_name", content: appName },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: `${appName}: sponsorships for creators` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
    ...(noindex ? [{ name: "robots", content: "noindex, nofollow" }] : [{ tagName: "link", rel: "canonical", href: url }]),
  ];
}
