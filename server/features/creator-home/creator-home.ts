import { and, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPageDailyViews } from "#server/platform/db/schema";
import { success, type Success } from "#server/platform/errors";
import { heldInDeals } from "#server/domains/payments/records/deal-earnings";
import { earningsByMonth, latestSupporters, type CurrencyEarnings, type Supporter } from "#server/domains/payments/records/earnings";
import type { OwnBioPage } from "#server/domains/bio/pages";
import { ownPagesWithReadiness, type PageReadiness, type SetupProgress } from "#server/domains/bio/readiness";
import { windowDays, type DailyViews } from "#server/domains/bio/stats";
import { memberFigures, type MemberFigures } from "#server/domains/memberships/creator-view";

export type CreatorHome = {
  /** The page the home is about: the one updated last (the dashboard's first row). */
  page: OwnBioPage & { readiness: PageReadiness; setup: SetupProgress };
  pageCount: number;
  earnings: CurrencyEarnings[];
  supporters: Supporter[];
  /** Money sponsors paid for the creator's booked deals, not yet released to them, per currency (none when nothing is held). */
  heldInDeals: { currency: string; amount: number }[];
  /** Views of all the owner's pages: per UTC day for the insights window, and all time. */
  views: { days: DailyViews[]; inWindow: number; allTime: number };
  /** Members now, recurring revenue and who joined this month; null for a creator with no tier and no member ever. */
  members: MemberFigures | null;
};

/**
 * What the signed-in home shows a creator above the SPEC's cards: `home: null`
 * for someone without a bio page (the home is then SPEC's dashboard alone).
 * Reads only `uid`'s own pages, payments, deals and views.
 */
export async function readCreatorHome(db: Db, uid: string, now = new Date()): Promise<Success<{ home: CreatorHome | null }>> {
  const pages = await ownPagesWithReadiness(db, uid);
  const first = pages[0];
  if (!first) return success({ home: null });
  const ids = pages.map((p) => p.id);
  const dayList = windowDays(now);
  const [earnings, supporters, held, daily, members] = await Promise.all([
    earningsByMonth(db, uid, now),
    latestSupporters(db, uid),
    heldInDeals(db, uid),
    db
      .select({ day: bioPageDailyViews.day, views: sql<number>`sum(${bioPageDailyViews.count})::int` })
      .from(bioPageDailyViews)
      .where(and(inArray(bioPageDailyViews.pageId, ids), gte(bioPageDailyViews.day, dayList[0]!), lte(bioPageDailyViews.day, dayList.at(-1)!)))
      .groupBy(bioPageDailyViews.day),
    memberFigures(db, uid, null, now),
  ]);
  const byDay = new Map(daily.map((row) => [row.day, row.views]));
  const days = dayList.map((day) => ({ day, views: byDay.get(day) ?? 0 }));
  return success({
    home: {
      page: first,
      pageCount: pages.length,
      earnings,
      supporters,
      heldInDeals: held,
      // Each page's all-time count came with the page (bio_page_views has one row per page).
      // A creator who never offered a tier is not shown an empty members card.
      members: pages.some((p) => p.offersTiers) || members.running > 0 || members.lostThisMonth > 0 ? members : null,
      views: { days, inWindow: days.reduce((s, d) => s + d.views, 0), allTime: pages.reduce((s, p) => s + p.views, 0) },
    },
  });
}
