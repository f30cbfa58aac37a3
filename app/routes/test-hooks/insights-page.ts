import { eq } from "drizzle-orm";
import { data } from "react-router";
import { requireVerifiedUser } from "#server/auth/session";
import { parseBioPageForm } from "#server/bio/form";
import { createBioPage } from "#server/bio/pages";
import { utcDay } from "#server/bio/stats";
import { bioPageDailyViews, bioPageLinkClicks, bioPageViews } from "#server/db/schema";
import type { Route } from "./+types/insights-page";

/** Views per day, counted back from today (0 = today); 40 days ago lies outside the 30-day chart. */
const SEEDED_VIEWS: Record<number, number> = { 0: 5, 3: 12, 10: 17, 20: 3, 29: 1, 40: 50 };
/** Clicks per link type and day back from today. */
const SEEDED_CLICKS: { type: "youtube" | "website"; daysAgo: number; count: number }[] = [
  { type: "youtube", daysAgo: 1, count: 9 },
  { type: "youtube", daysAgo: 45, count: 4 },
  { type: "website", daysAgo: 5, count: 2 },
];

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only): creates a bio page for the
 * signed-in user with three links (Instagram never clicked) and seeds its
 * views and clicks, as the bio host's counter would have written them
 * (none with `empty=1`).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await requireVerifiedUser(request, context);
  const query = new URL(request.url).searchParams;
  const parsed = parseBioPageForm({
    name: query.get("name") ?? "Insights test page",
    customEnding: "",
    blurb: "",
    links: [
      { type: "youtube", url: "https://youtube.com/@insights" },
      { type: "website", url: "https://insights.example" },
      { type: "instagram", url: "https://instagram.com/insights" },
    ],
    sponsorships: [],
  });
  if (parsed.kind !== "SUCCESS") throw new Error(JSON.stringify(parsed.fieldErrors));
  const created = await createBioPage(context.db, { uid: user.id }, parsed.form);
  if (created.kind !== "SUCCESS") return Response.json(created, { status: 409 });

  const pageId = created.id;
  if (query.has("empty")) return Response.json({ id: pageId, customEnding: created.customEnding });
  const day = (daysAgo: number) => utcDay(new Date(Date.now() - daysAgo * 86_400_000));
  const views = Object.entries(SEEDED_VIEWS).map(([daysAgo, count]) => ({ pageId, day: day(Number(daysAgo)), count }));
  await context.db.insert(bioPageDailyViews).values(views);
  await context.db
    .update(bioPageViews)
    .set({ count: views.reduce((sum, v) => sum + v.count, 0) })
    .where(eq(bioPageViews.pageId, pageId));
  await context.db.insert(bioPageLinkClicks).values(SEEDED_CLICKS.map((c) => ({ pageId, linkType: c.type, day: day(c.daysAgo), count: c.count })));
  return Response.json({ id: pageId, customEnding: created.customEnding });
}
