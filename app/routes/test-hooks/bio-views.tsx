import { and, eq, sql } from "drizzle-orm";
import { data } from "react-router";
import { bioPageDailyViews, bioPageLinkClicks, bioPageViews, bioPages } from "#server/db/schema";
import type { Route } from "./+types/bio-views";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only): a bio page's views record,
 * today's views and today's clicks per link, after writing the views this
 * process still counts in memory, so a spec can check exact numbers.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const ending = new URL(request.url).searchParams.get("ending") ?? "";
  await context.viewCounter.flush();
  const [page] = await context.db
    .select({ id: bioPages.id, views: bioPageViews.count })
    .from(bioPages)
    .leftJoin(bioPageViews, eq(bioPageViews.pageId, bioPages.id))
    .where(eq(bioPages.customEnding, ending));
  if (!page) throw data(null, { status: 404 });
  const today = sql`(now() at time zone 'utc')::date`;
  const [day] = await context.db
    .select({ count: bioPageDailyViews.count })
    .from(bioPageDailyViews)
    .where(and(eq(bioPageDailyViews.pageId, page.id), eq(bioPageDailyViews.day, today)));
  const clicks = await context.db
    .select({ linkType: bioPageLinkClicks.linkType, count: bioPageLinkClicks.count })
    .from(bioPageLinkClicks)
    .where(and(eq(bioPageLinkClicks.pageId, page.id), eq(bioPageLinkClicks.day, today)));
  return Response.json({ views: page.views ?? 0, today: day?.count ?? 0, clicks: Object.fromEntries(clicks.map((c) => [c.linkType, c.count])) });
}
