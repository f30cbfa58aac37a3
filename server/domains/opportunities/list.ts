import { and, asc, desc, eq, getTableName, gt, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { hearts, opportunityPosts, totals } from "#server/platform/db/schema";
import { OPPORTUNITY_POSTS_TOTAL } from "./totals";
import { PAGE_SIZE, type ListQuery } from "./list-query";
import { hasEveryTag } from "./tag-keys";

export type OpportunitySummary = {
  id: string;
  title: string;
  organization: string;
  minContributionCents: number;
  currency: string;
  applicationDeadline: string | null;
  /** The zone the poster typed the deadline in (shown with it); null for older posts. */
  applicationDeadlineTimeZone: string | null;
  tags: string[];
  totalHearts: number;
  liked: boolean;
};

export type ListResult = {
  kind: "SUCCESS";
  message: "RESULTS_AVAILABLE" | "NO_RESULTS_FOUND";
  items: OpportunitySummary[];
  hasNext: boolean;
  hasPrevious: boolean;
  total: number;
};

export const summaryColumns = {
  id: opportunityPosts.id,
  title: opportunityPosts.title,
  organization: opportunityPosts.organization,
  minContributionCents: opportunityPosts.minContributionCents,
  currency: opportunityPosts.currency,
  applicationDeadline: opportunityPosts.applicationDeadline,
  applicationDeadlineTimeZone: opportunityPosts.applicationDeadlineTimeZone,
  tags: opportunityPosts.tags,
  totalHearts: opportunityPosts.totalHearts,
};

type SummaryRow = Omit<OpportunitySummary, "liked" | "applicationDeadline"> & { applicationDeadline: Date | null };

/** Which of `postIds` the viewer has hearted (one indexed lookup). */
export async function heartedAmong(db: Db, viewerUid: string | null, postIds: string[]): Promise<Set<string>> {
  if (!viewerUid || postIds.length === 0) return new Set();
  const rows = await db
    .select({ postId: hearts.postId })
    .from(hearts)
    .where(and(eq(hearts.uid, viewerUid), inArray(hearts.postId, postIds)));
  return new Set(rows.map((row) => row.postId));
}

export async function withLikedFlags(db: Db, viewerUid: string | null, rows: SummaryRow[]): Promise<OpportunitySummary[]> {
  const liked = await heartedAmong(db, viewerUid, rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, applicationDeadline: row.applicationDeadline?.toISOString() ?? null, liked: liked.has(row.id) }));
}

/**
 * One page, newest first. Keyset pagination on the primary key (ids sort
 * newest first): `after` reads forward from the last id seen, `before` reads
 * backwards from the first, so page 500 costs what page 0 does. Tag filters
 * go through the GIN indexes of tags, tag pairs or tag triples (hasEveryTag).
 * A disabled account's posts are left out (ownerIsActive). The page shows 20;
 * the API lets its caller choose (`pageSize`).
 */
export async function listOpportunities(db: Db, query: ListQuery, viewerUid: string | null, pageSize = PAGE_SIZE): Promise<ListResult> {
  const conditions: SQL[] = [ownerIsActive(opportunityPosts.posterUid), isNull(opportunityPosts.removedAt)];
  const tagFilter = hasEveryTag(query.tags);
  if (tagFilter) conditions.push(tagFilter);
  if (query.after) conditions.push(gt(opportunityPosts.id, query.after));
  if (query.before) conditions.push(lt(opportunityPosts.id, query.before));
  const backwards = query.before !== null;

  // One round trip: the page, the viewer's heart on each card (read live, never from a cache)
  // and the posts total. Only an empty page needs a second query for the total.
  const rows = await db
    .select({ ...summaryColumns, liked: likedBy(viewerUid), total: postsTotal })
    .from(opportunityPosts)
    .where(and(...conditions))
    .orderBy(backwards ? desc(opportunityPosts.id) : asc(opportunityPosts.id))
    .limit(pageSize + 1);
  const total = rows[0]?.total ?? (await readPostsTotal(db));
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  if (backwards) page.reverse();
  const items = page.map(({ total: _total, ...row }) => ({ ...row, applicationDeadline: row.applicationDeadline?.toISOString() ?? null }));
  return {
    kind: "SUCCESS",
    message: items.length > 0 ? "RESULTS_AVAILABLE" : "NO_RESULTS_FOUND",
    items,
    hasNext: backwards ? true : more,
    hasPrevious: backwards ? more : query.after !== null,
    total: Number(total),
  };
}

/** Whether the viewer has hearted the row's post (the hearts (post_id, uid) unique index); false for a guest. */
function likedBy(viewerUid: string | null): SQL<boolean> {
  if (!viewerUid) return sql<boolean>`false`;
  // Spelled out: in a one-table select drizzle leaves columns unqualified, and a bare "id" in the
  // subquery would be the heart's own id.
  const postId = sql`${sql.identifier(getTableName(opportunityPosts))}.${sql.identifier(opportunityPosts.id.name)}`;
  return sql<boolean>`exists (select 1 from ${hearts} where ${hearts.postId} = ${postId} and ${hearts.uid} = ${viewerUid})`;
}

const postsTotal = sql<number>`(select ${totals.total} from ${totals} where ${totals.name} = ${OPPORTUNITY_POSTS_TOTAL})`;

async function readPostsTotal(db: Db): Promise<number> {
  const [counter] = await db.select({ total: totals.total }).from(totals).where(eq(totals.name, OPPORTUNITY_POSTS_TOTAL));
  return counter?.total ?? 0;
}
