import { and, count, eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { alerts } from "#server/db/schema";

/** The number in the user menu's "Notifications (n)" (partial index alerts_uid_unread_idx). */
export async function countUnreadAlerts(db: Db, uid: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(alerts).where(and(eq(alerts.uid, uid), eq(alerts.unread, true)));
  return row?.n ?? 0;
}
