import { and, count, gte, lt, ne, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { hearts, notificationDigests, opportunityPosts } from "#server/platform/db/schema";
import { sendNotification, type NotificationDeps } from "./send";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day before `now`, as YYYY-MM-DD, with its bounds. */
export function previousUtcDay(now: Date): { day: string; start: Date; end: Date } {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const start = new Date(end.getTime() - DAY_MS);
  return { day: start.toISOString().slice(0, 10), start, end };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The daily roll-up of hearts: for every person whose
 * opportunities were hearted during the previous UTC day (by someone else;
 * hearts taken back since are not counted), ONE notification with the count — never
 * one per heart. Each person's notification is written with their
 * notification_digests (uid, day) row in one transaction, so a second run,
 * or another process running at the same time, writes nothing twice.
 * Returns how many notifications it wrote. Run once a day by the job scheduler
 * (server/main/scheduled-jobs.ts), shortly after midnight UTC.
 */
export async function runHeartsDigest(db: Db, deps: NotificationDeps, now = new Date()): Promise<number> {
  const { day, start, end } = previousUtcDay(now);
  const rows = await db
    .select({ uid: opportunityPosts.posterUid, hearts: count() })
    .from(hearts)
    .innerJoin(opportunityPosts, eq(opportunityPosts.id, hearts.postId))
    .where(and(gte(hearts.createdAt, start), lt(hearts.createdAt, end), ne(hearts.uid, opportunityPosts.posterUid)))
    .groupBy(opportunityPosts.posterUid);
  let written = 0;
  for (const row of rows) {
    const wrote = await db.transaction(async (tx) => {
      const [claimed] = await tx.insert(notificationDigests).values({ uid: row.uid, day, hearts: row.hearts }).onConflictDoNothing().returning({ uid: notificationDigests.uid });
      if (!claimed) return false;
      const label = new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" });
      await sendNotification(
        tx,
        {
          uid: row.uid,
          kind: "hearts-daily",
          title: `Your opportunities got ${plural(row.hearts, "heart", "hearts")} yesterday`,
          message: `People saved your opportunities ${plural(row.hearts, "time", "times")} on ${label} (UTC). See them in My Posts.`,
          buttonText: "My Posts",
          buttonDestination: "/app/account/opportunities",
        },
        deps,
      );
      return true;
    });
    if (wrote) written += 1;
  }
  return written;
}
