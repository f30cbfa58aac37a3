import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPageDailyViews, bioPageLinkClicks, bioPages, bioPageViews } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { isBioPageId } from "./endings";
import { isLinkType, isShown, LINK_LABELS, linkTitle, type LinkType } from "./links";

/** How many UTC days the owner's charts cover, today included (docs/decisions/0018-bio-insights.md). */
export const INSIGHTS_DAYS = 30;

export type DailyViews = { /** A UTC day, YYYY-MM-DD. */ day: string; views: number };

export type LinkClicks = {
  type: LinkType;
  /** The link's own title, else its type's label. */
  label: string;
  /** The link's address on the page now; null when the link was removed after it was clicked. */
  url: string | null;
  /** False while the owner has the link switched off (it stays in the editor, off the page). */
  shown: boolean;
  lastDays: number;
  allTime: number;
};

export type BioPageInsights = {
  page: { id: string; name: string; customEnding: string; updatedAt: Date };
  /** One entry per UTC day of the window, oldest first, 0 on days without a view. */
  days: DailyViews[];
  viewsInWindow: number;
  /** The page's views record (SPEC §3), which also holds views from before the window. */
  totalViews: number;
  /** The page's links in its order, clicked or not, then removed links that still have clicks. */
  clicks: LinkClicks[];
};

export type InsightsError = DomainError<"not-found">;

const NOT_FOUND = domainError("not-found", "This page doesn't exist or was deleted.");

/** The UTC day of an instant, as the stats tables store it. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The window's days, oldest first, ending with `now`'s UTC day. */
export function windowDays(now: Date, length = INSIGHTS_DAYS): string[] {
  const [year, month, date] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
  return Array.from({ length }, (_, i) => utcDay(new Date(Date.UTC(year, month, date - (length - 1 - i)))));
}

/**
 * Views per day and clicks per link of one of the owner's pages. Someone
 * else's page is "not found", as a missing one (as getOwnPage in pages.ts).
 */
export async function readBioPageInsights(
  db: Db,
  owner: { uid: string },
  pageId: string,
  now = new Date(),
): Promise<{ kind: "SUCCESS"; insights: BioPageInsights } | InsightsError> {
  if (!isBioPageId(pageId)) return NOT_FOUND;
  const [page] = await db
    .select({ id: bioPages.id, name: bioPages.name, customEnding: bioPages.customEnding, links: bioPages.links, updatedAt: bioPages.updatedAt })
    .from(bioPages)
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)));
  if (!page) return NOT_FOUND;

  const dayList = windowDays(now);
  const [first, last] = [dayList[0]!, dayList.at(-1)!];
  const inWindow = sql`${bioPageLinkClicks.day} between ${first} and ${last}`;
  const [[record], daily, clicked] = await Promise.all([
    db.select({ count: bioPageViews.count }).from(bioPageViews).where(eq(bioPageViews.pageId, pageId)),
    db
      .select({ day: bioPageDailyViews.day, count: bioPageDailyViews.count })
      .from(bioPageDailyViews)
      .where(and(eq(bioPageDailyViews.pageId, pageId), gte(bioPageDailyViews.day, first), lte(bioPageDailyViews.day, last))),
    db
      .select({
        linkType: bioPageLinkClicks.linkType,
        allTime: sql<number>`coalesce(sum(${bioPageLinkClicks.count}), 0)`.mapWith(Number),
        lastDays: sql<number>`coalesce(sum(${bioPageLinkClicks.count}) filter (where ${inWindow}), 0)`.mapWith(Number),
      })
      .from(bioPageLinkClicks)
      .where(eq(bioPageLinkClicks.pageId, pageId))
      .groupBy(bioPageLinkClicks.linkType),
  ]);

  const viewsByDay = new Map(daily.map((row) => [row.day, row.count]));
  const days = dayList.map((day) => ({ day, views: viewsByDay.get(day) ?? 0 }));
  const clicksByType = new Map(clicked.map((row) => [row.linkType, row]));
  // The form only saves known types; a row written some other way is left out rather than unnamed.
  const links = page.links.filter((link) => isLinkType(link.type));
  const onPage = new Set<string>(links.map((link) => link.type));
  const clicks: LinkClicks[] = [
    ...links.map((link) => ({
      type: link.type,
      label: linkTitle(link),
      url: link.url,
      shown: isShown(link),
      lastDays: clicksByType.get(link.type)?.lastDays ?? 0,
      allTime: clicksByType.get(link.type)?.allTime ?? 0,
    })),
    ...clicked
      .filter((row) => !onPage.has(row.linkType) && isLinkType(row.linkType) && row.allTime > 0)
      .sort((a, b) => b.allTime - a.allTime || a.linkType.localeCompare(b.linkType))
      .map((row) => ({ type: row.linkType, label: LINK_LABELS[row.linkType], url: null, shown: false, lastDays: row.lastDays, allTime: row.allTime })),
  ];

  return {
    kind: "SUCCESS",
    insights: {
      page: { id: page.id, name: page.name, customEnding: page.customEnding, updatedAt: page.updatedAt },
      days,
      viewsInWindow: days.reduce((sum, day) => sum + day.views, 0),
      totalViews: record?.count ?? 0,
      clicks,
    },
  };
}
