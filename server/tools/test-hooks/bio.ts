import { and, eq, sql } from "drizzle-orm";
import { Router } from "express";
import { createViewCounter } from "#server/domains/bio/host/view-counter";
import { parseBioPageForm } from "#server/domains/bio/form";
import { createBioPage } from "#server/domains/bio/pages";
import type { LinkType } from "#server/domains/bio/links";
import type { Db } from "#server/platform/db/client";
import { bioPageDailyViews, bioPageLinkClicks, bioPageViews, bioPages } from "#server/platform/db/schema";
import { HOOK_PATHS, type BioViewsAnswer, type InsightsPageAnswer } from "./contract";
import { hook, HookRefusal, queryOf, signedInUser, type TestHooksDeps } from "./http";

const DAY_MS = 86_400_000;
/** Views per day, counted back from today (0 = today); 40 days ago lies outside the 30-day chart. */
const SEEDED_VIEWS: Record<number, number> = { 0: 5, 3: 12, 10: 17, 20: 3, 29: 1, 40: 50 };
/** The sites those views came from, by day back from today; the others are Direct. */
const SEEDED_SITES: Record<number, string> = { 3: "instagram.com", 10: "youtube.com" };
/** Clicks per link type and day back from today. */
const SEEDED_CLICKS: { type: LinkType; daysAgo: number; count: number }[] = [
  { type: "youtube", daysAgo: 1, count: 9 },
  { type: "youtube", daysAgo: 45, count: 4 },
  { type: "website", daysAgo: 5, count: 2 },
];

/**
 * Counts a page's views and clicks of a day in the past through the bio host's
 * own counter (the one writer of the views, daily views and clicks tables), its
 * clock set to that day: what the counter would have written had people come then.
 */
async function countOnDay(db: Db, daysAgo: number, count: (counter: ReturnType<typeof createViewCounter>) => void): Promise<void> {
  const at = Date.now() - daysAgo * DAY_MS;
  let failure: unknown = null;
  const counter = createViewCounter(db, { now: () => at, onError: (error) => (failure = error) });
  count(counter);
  await counter.close();
  if (failure) throw failure;
}

/**
 * - `insights-page` (signed in, verified): a bio page made through createBioPage
 *   with three links (Instagram never clicked), and unless `empty` its views and
 *   clicks of the last 45 days, counted as the bio host counts them.
 * - `bio-views`: a page's views record, today's views and today's clicks per link
 *   (read only), after the views this process still holds in memory are written.
 */
export function bioHooks(deps: TestHooksDeps): Router {
  const router = Router();

  router.get(
    HOOK_PATHS.insightsPage,
    hook(async (req): Promise<InsightsPageAnswer> => {
      const me = await signedInUser(req, deps, { verified: true });
      const query = queryOf(req);
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
      const created = await createBioPage(deps.db, { uid: me.id }, parsed.form);
      if (created.kind !== "SUCCESS") throw new HookRefusal(409, created.message);
      const pageId = created.id;
      if (!query.has("empty")) {
        for (const [daysAgo, views] of Object.entries(SEEDED_VIEWS)) {
          await countOnDay(deps.db, Number(daysAgo), (counter) => {
            for (let i = 0; i < views; i++) counter.view(pageId, null, SEEDED_SITES[Number(daysAgo)]);
          });
        }
        for (const click of SEEDED_CLICKS) {
          await countOnDay(deps.db, click.daysAgo, (counter) => {
            for (let i = 0; i < click.count; i++) counter.click(pageId, click.type, null);
          });
        }
      }
      return { id: pageId, customEnding: created.customEnding };
    }),
  );

  router.get(
    HOOK_PATHS.bioViews,
    hook(async (req): Promise<BioViewsAnswer> => {
      const ending = queryOf(req).get("ending") ?? "";
      await deps.viewCounter.flush();
      const [page] = await deps.db
        .select({ id: bioPages.id, views: bioPageViews.count })
        .from(bioPages)
        .leftJoin(bioPageViews, eq(bioPageViews.pageId, bioPages.id))
        .where(eq(bioPages.customEnding, ending));
      if (!page) throw new HookRefusal(404, "No such page");
      const today = sql`(now() at time zone 'utc')::date`;
      const [day] = await deps.db
        .select({ count: bioPageDailyViews.count })
        .from(bioPageDailyViews)
        .where(and(eq(bioPageDailyViews.pageId, page.id), eq(bioPageDailyViews.day, today)));
      const clicks = await deps.db
        .select({ linkType: bioPageLinkClicks.linkType, count: bioPageLinkClicks.count })
        .from(bioPageLinkClicks)
        .where(and(eq(bioPageLinkClicks.pageId, page.id), eq(bioPageLinkClicks.day, today)));
      return { views: page.views ?? 0, today: day?.count ?? 0, clicks: Object.fromEntries(clicks.map((c) => [c.linkType, c.count])) };
    }),
  );
  return router;
}
