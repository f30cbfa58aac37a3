import { and, asc, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { hearts, opportunityPosts, type OpportunityKind } from "#server/platform/db/schema";
import type { SearchLog } from "#server/platform/search-log/search-log";
import { isPostId } from "./ids";
import { heartedAmong, summaryColumns, withLikedFlags, type OpportunitySummary } from "./list";

export const ACCOUNT_PAGE_SIZE = 50;

export type OpportunityDetail = OpportunitySummary & {
  description: string;
  bullets: string[];
  website: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  datePosted: string;
  posterUid: string;
  posterName: string;
  /** Which way it runs: a sponsor's brief creators apply to, or a creator's request sponsors make offers on. */
  kind: OpportunityKind;
  /** Set only for its poster when staff took it down: why. */
  removedReason: string | null;
};

/**
 * A post by its id; null when there is none, or its poster's account is disabled, or staff took
 * it down (server/domains/moderation/) and the viewer is not its poster, who still sees it, marked removed.
 */
export async function getOpportunity(db: Db, id: string, viewerUid: string | null): Promise<OpportunityDetail | null> {
  if (!isPostId(id)) return null;
  const [row] = await db.select().from(opportunityPosts).where(and(eq(opportunityPosts.id, id), ownerIsActive(opportunityPosts.posterUid)));
  if (!row) return null;
  if (row.removedAt && row.posterUid !== viewerUid) return null;
  const liked = await heartedAmong(db, viewerUid, [id]);
  return {
    id: row.id,
    title: row.title,
    organization: row.organization,
    minContributionCents: row.minContributionCents,
    currency: row.currency,
    applicationDeadline: row.applicationDeadline?.toISOString() ?? null,
    applicationDeadlineTimeZone: row.applicationDeadlineTimeZone,
    tags: row.tags,
    totalHearts: row.totalHearts,
    liked: liked.has(id),
    description: row.description,
    bullets: row.bullets ?? [],
    website: row.website,
    contactName: row.contactName,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    datePosted: row.datePosted.toISOString(),
    posterUid: row.posterUid,
    posterName: row.posterName,
    kind: row.kind,
    removedReason: row.removedAt ? (row.removedReason ?? "") : null,
  };
}

export type AccountPage = { items: OpportunitySummary[]; nextCursor: string | null };

/** My Posts: the user's own posts, newest first, 50 per load. */
export async function listPostsBy(db: Db, uid: string, after: string | null): Promise<AccountPage> {
  const rows = await db
    .select(summaryColumns)
    .from(opportunityPosts)
    .where(and(eq(opportunityPosts.posterUid, uid), after ? gt(opportunityPosts.id, after) : undefined))
    .orderBy(asc(opportunityPosts.id))
    .limit(ACCOUNT_PAGE_SIZE + 1);
  const page = rows.slice(0, ACCOUNT_PAGE_SIZE);
  return {
    items: await withLikedFlags(db, uid, page),
    nextCursor: rows.length > ACCOUNT_PAGE_SIZE ? page[page.length - 1]!.id : null,
  };
}

/**
 * Liked Posts: posts the user hearted, most recently hearted first, 50 per
 * load. The cursor is the last heart's time and id. A disabled account's
 * posts are left out while it is disabled; the hearts stay for when it returns.
 */
export async function listLikedBy(db: Db, uid: string, after: string | null): Promise<AccountPage> {
  const cursor = after ? parseHeartCursor(after) : null;
  const rows = await db
    .select({ ...summaryColumns, heartedAt: hearts.createdAt, heartId: hearts.id })
    .from(hearts)
    .innerJoin(opportunityPosts, eq(opportunityPosts.id, hearts.postId))
    .where(
      and(
        eq(hearts.uid, uid),
        ownerIsActive(opportunityPosts.posterUid),
        isNull(opportunityPosts.removedAt),
        cursor
          ? or(lt(hearts.createdAt, cursor.at), and(eq(hearts.createdAt, cursor.at), lt(hearts.id, cursor.id)))
          : undefined,
      ),
    )
    .orderBy(desc(hearts.createdAt), desc(hearts.id))
    .limit(ACCOUNT_PAGE_SIZE + 1);
  const page = rows.slice(0, ACCOUNT_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    items: page.map(({ heartedAt: _at, heartId: _id, ...row }) => ({
      ...row,
      applicationDeadline: row.applicationDeadline?.toISOString() ?? null,
      liked: true,
    })),
    nextCursor: rows.length > ACCOUNT_PAGE_SIZE && last ? `${last.heartedAt.toISOString()}|${last.heartId}` : null,
  };
}

function parseHeartCursor(value: string): { at: Date; id: string } | null {
  const [at, id] = value.split("|");
  const date = new Date(at ?? "");
  return id && !Number.isNaN(date.getTime()) ? { at: date, id } : null;
}

/**
 * SPEC §7.2: each tag search is logged as `search` / `tag_<tag>`. The log is
 * batched and aggregated (server/platform/search-log/): this only counts in memory, so
 * a page view never waits on, or writes, a log row of its own.
 */
export function logTagSearch(searchLog: Pick<SearchLog, "record">, uid: string | null, tags: string[]): void {
  if (tags.length === 0) return;
  searchLog.record(uid, "opportunity_posts", tags.map((tag) => `tag_${tag}`));
}
