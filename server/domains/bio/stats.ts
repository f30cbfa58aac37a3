import { and, desc, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";
import { DEFAULT_INSIGHTS_PERIOD, type InsightsPeriod } from "#isomorphic/insights-periods";
import type { Db } from "#server/platform/db/client";
import { bioPageDailyReferrers, bioPageDailyViews, bioPageLinkClicks, bioPages, bioPageViews, sponsorSessions } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { isBioPageId } from "./endings";
import { isLinkType, isShown, LINK_LABELS, linkTitle, type LinkType } from "./links";

/** How many UTC days the owner's charts cover unless they chose another period, today included (docs/decisions/0018-bio-insights.md). */
export const INSIGHTS_DAYS = DEFAULT_INSIGHTS_PERIOD;

/** How many referring sites are named; the rest are summed as "other sites". */
export const TOP_SITES = 10;

/** A tip counts once it was paid, also when later refunded or disputed: the fan did tip. */
const PAID_TIP_STATUSES = ["completed", "refunded", "disputed"] as const;

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

export type ReferringSite = { /** A normalised host, or "Direct". */ site: string; views: number };

export type BioPageInsights = {
  page: { id: string; name: string; customEnding: string; updatedAt: Date };
  /** How many UTC days the window holds, today included. */
  period: InsightsPeriod;
  /** One entry per UTC day of the window, oldest first, 0 on days without a view. */
  days: DailyViews[];
  viewsInWindow: number;
  /** Link clicks in the window, all links. */
  clicksInWindow: number;
  /** Paid tips to this page started in the window. */
  tipsInWindow: number;
  /** Tips ÷ views in the window; null without views. */
  conversion: number | null;
  /** The most frequent referring sites of the window's views, most first. */
  sites: ReferringSite[];
  /** Views of the window from sites past the top ones. */
  otherSites: number;
  /** Views of the window with no site recorded (counted before sites were). */
  unrecordedSites: number;
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

/** Tips per view, as a fraction; null when there were no views to divide by. */
export function conversionRate(tips: number, views: number): number | null {
  return views > 0 ? tips / views : null;
}

/**
 * Views per day, clicks per link, paid tips, conversion and referring sites of
 * one of the owner's pages over the last `period` UTC days. Views, clicks and
 * sites come from the daily tables only (a year is 365 rows of a page at
 * most, read by primary key ranges); tips from the page's payments (indexed
 * by page and time). Someone else's page is "not found", as a missing one
 * (as getOwnPage in pages.ts).
 */
export async function readBioPageInsights(
  db: Db,
  owner: { uid: string },
  pageId: string,
  { period = DEFAULT_INSIGHTS_PERIOD, now = new Date() }: { period?: InsightsPeriod; now?: Date } = {},
): Promise<{ kind: "SUCCESS"; insights: BioPageInsights } | InsightsError> {
  if (!isBioPageId(pageId)) return NOT_FOUND;
  const [page] = await db
    .select({ id: bioPages.id, name: bioPages.name, customEnding: bioPages.customEnding, links: bioPages.links, updatedAt: bioPages.updatedAt })
    .from(bioPages)
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)));
  if (!page) return NOT_FOUND;

  const dayList = windowDays(now, period);
  const [first, last] = [dayList[0]!, dayList.at(-1)!];
  const inWindow = sql`${bioPageLinkClicks.day} between ${first} and ${last}`;
  const siteViews = sql<number>`sum(${bioPageDailyReferrers.count})::int`.mapWith(Number);
  const [[record], daily, clicked, sites, [tips]] = await Promise.all([
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
    db
      .select({ site: bioPageDailyReferrers.site, views: siteViews })
      .from(bioPageDailyReferrers)
      .where(and(eq(bioPageDailyReferrers.pageId, pageId), gte(bioPageDailyReferrers.day, first), lte(bioPageDailyReferrers.day, last)))
      .groupBy(bioPageDailyReferrers.site)
      .orderBy(desc(siteViews), bioPageDailyReferrers.site),
    db
      .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
      .from(sponsorSessions)
      .where(
        and(
          eq(sponsorSessions.bioPageId, pageId),
          eq(sponsorSessions.kind, "tip"),
          inArray(sponsorSessions.status, [...PAID_TIP_STATUSES]),
          gte(sponsorSessions.created, new Date(`${first}T00:00:00Z`)),
          lt(sponsorSessions.created, new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000)),
        ),
      ),
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

  const viewsInWindow = days.reduce((sum, day) => sum + day.views, 0);
  const tipsInWindow = tips?.count ?? 0;
  const top = sites.slice(0, TOP_SITES);
  const siteTotal = sites.reduce((sum, row) => sum + row.views, 0);
  return {
    kind: "SUCCESS",
    insights: {
      page: { id: page.id, name: page.name, customEnding: page.customEnding, updatedAt: page.updatedAt },
      period,
      days,
      viewsInWindow,
      clicksInWindow: clicks.reduce((sum, link) => sum + link.lastDays, 0),
      tipsInWindow,
      conversion: conversionRate(tipsInWindow, viewsInWindow),
      sites: top,
      otherSites: siteTotal - top.reduce((sum, row) => sum + row.views, 0),
      unrecordedSites: Math.max(0, viewsInWindow - siteTotal),
      totalViews: record?.count ?? 0,
      clicks,
    },
  };
}
