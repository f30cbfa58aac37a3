import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages, contentReports, opportunityPosts } from "#server/platform/db/schema";
import type { ReportTargetType } from "#isomorphic/report-reasons";

/** One of the account's items with open reports: what the reports queue shows for it, and where its reports are read. */
export type OpenReportedItem = { type: ReportTargetType; id: string; title: string; reports: number; reasons: string[]; oldest: Date };

/** Enough for any account staff read; the queue itself lists the rest. */
export const ACCOUNT_REPORTS_LIMIT = 50;

const openReports = (type: ReportTargetType, id: typeof bioPages.id | typeof opportunityPosts.id) =>
  and(eq(contentReports.targetType, type), eq(contentReports.targetId, id), eq(contentReports.status, "open"));

const columns = {
  reports: sql<number>`count(*)`.mapWith(Number),
  reasons: sql<string[]>`array_agg(distinct ${contentReports.reason})`,
  oldest: sql<Date>`min(${contentReports.createdAt})`.mapWith((value) => new Date(value as string)),
};

/**
 * The account's bio pages and opportunities that have open reports, oldest report first; each
 * found from the account by its owner index, its reports by content_reports_target_idx.
 */
export async function openReportsOnAccount(db: Db, uid: string): Promise<OpenReportedItem[]> {
  const [pages, posts] = await Promise.all([
    db
      .select({ id: bioPages.id, title: bioPages.name, ...columns })
      .from(bioPages)
      .innerJoin(contentReports, openReports("bio_page", bioPages.id))
      .where(eq(bioPages.uid, uid))
      .groupBy(bioPages.id, bioPages.name)
      .limit(ACCOUNT_REPORTS_LIMIT),
    db
      .select({ id: opportunityPosts.id, title: opportunityPosts.title, ...columns })
      .from(opportunityPosts)
      .innerJoin(contentReports, openReports("opportunity", opportunityPosts.id))
      .where(eq(opportunityPosts.posterUid, uid))
      .groupBy(opportunityPosts.id, opportunityPosts.title)
      .limit(ACCOUNT_REPORTS_LIMIT),
  ]);
  return [...pages.map((row) => ({ type: "bio_page" as const, ...row })), ...posts.map((row) => ({ type: "opportunity" as const, ...row }))]
    .map((row) => ({ ...row, reasons: [...row.reasons].sort() }))
    .sort((a, b) => a.oldest.getTime() - b.oldest.getTime())
    .slice(0, ACCOUNT_REPORTS_LIMIT);
}
