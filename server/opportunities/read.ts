import { and, asc, desc, eq, gt, lt, or } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { hearts, logs, opportunityPosts } from "#server/db/schema";
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
};

export async function getOpportunity(db: Db, id: string, viewerUid: string | null): Promise<OpportunityDetail | null> {
  const [row] = await db.select().from(opportunityPosts).where(eq(opportunityPosts.id, id));
  if (!row) return null;
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
 * load. The cursor is the last heart's time and id.
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

/** SPEC §7.2: each tag search is logged as `search` / `tag_<tag>`. */
export async function logTagSearch(db: Db, uid: string | null, tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  await db.insert(logs).values(
    tags.map((tag) => ({ uid, collection: "opportunity_posts", description: "search", subtype: `tag_${tag}`, type: "search" })),
  );
}
