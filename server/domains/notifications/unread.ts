import { and, count, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { notifications } from "#server/platform/db/schema";

/** The number in the user menu's "Notifications (n)" (partial index notifications_uid_unread_idx). */
export async function countUnreadNotifications(db: Db, uid: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notifications).where(and(eq(notifications.uid, uid), eq(notifications.unread, true)));
  return row?.n ?? 0;
}

/**
 * The same count as a column of another query (the signed-in lookup reads it with the session,
 * in one round trip): a subquery on the same partial index.
 */
export function unreadNotificationsColumn(uid: AnyColumn): SQL<number> {
  return sql<number>`(select count(*)::int from ${notifications} where ${notifications.uid} = ${uid} and ${notifications.unread})`;
}
