import type { DomainError } from "#server/platform/errors";
import { and, eq, isNull, sql } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { hearts, opportunityPosts } from "#server/platform/db/schema";
import { isPostId } from "./ids";

export type HeartResult = { kind: "SUCCESS"; result: "added" | "removed"; totalHearts: number } | DomainError<"not-found">;

/**
 * SPEC §4 heart toggle: removes the heart if it exists, else adds it, and
 * moves total_hearts by one in the same transaction. The post row's update
 * lock orders concurrent toggles, so the count always equals the heart rows.
 */
export async function toggleHeart(db: Db, postId: string, uid: string): Promise<HeartResult> {
  if (!isPostId(postId)) return { kind: "ERROR", code: "not-found", message: "This opportunity doesn't exist or was deleted." };
  const heartId = `${postId}_${uid}`;
  const result = await db.transaction(async (tx) => {
    // Lock the post first: every toggle on it queues here, and a missing (or hidden: its poster is disabled) post is a clean not-found.
    const [post] = await tx
      .select({ id: opportunityPosts.id })
      .from(opportunityPosts)
      .where(and(eq(opportunityPosts.id, postId), ownerIsActive(opportunityPosts.posterUid), isNull(opportunityPosts.removedAt)))
      .for("update");
    if (!post) return { kind: "ERROR", code: "not-found", message: "This opportunity doesn't exist or was deleted." } as const;

    const removed = await tx
      .delete(hearts)
      .where(and(eq(hearts.id, heartId), eq(hearts.uid, uid)))
      .returning({ id: hearts.id });
    if (removed.length === 0) await tx.insert(hearts).values({ id: heartId, postId, uid });
    const delta = removed.length === 0 ? 1 : -1;
    const [updated] = await tx
      .update(opportunityPosts)
      .set({ totalHearts: sql`${opportunityPosts.totalHearts} + ${delta}` })
      .where(eq(opportunityPosts.id, postId))
      .returning({ totalHearts: opportunityPosts.totalHearts });
    return { kind: "SUCCESS", result: delta === 1 ? "added" : "removed", totalHearts: updated!.totalHearts } as const;
  });
  return result;
}
