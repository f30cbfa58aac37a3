import { and, count, eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { notifications } from "#server/db/schema";

/** The number in the user menu's "Notifications (n)" (partial index notifications_uid_unread_idx). */
export async function countUnreadNotifications(db: Db, uid: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notifications).where(and(eq(notifications.uid, uid), eq(notifications.unread, true)));
  return row?.n ?? 0;
}
