import { ROBOTS_APP_RULES } from "#page-kit/public-app-paths";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const body = [
    "User-agent: *",
    "Allow: /",
    // Signed-in areas, APIs and the development mailbox are not for crawlers;
    // the opportunity marketplace under /app is public (SPEC §2.1). The longer rule wins.
    "Disallow: /app/",
    ...ROBOTS_APP_RULES,
    "Disallow: /api/",
    "Disallow: /dev/",
    // SPEC's short address of the bio page form (signed-in only).
    "Disallow: /edit/",
    "Disallow: /__test/",
    "",
    `Sitemap: ${context.config.PUBLIC_ORIGIN}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
