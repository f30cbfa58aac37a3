import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { notifications } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { isNotificationId } from "./ids";

/**
 * SPEC §7.3 markAsRead(docId) and deleteNotification(docId), plus "mark all as read".
 * Every statement is bounded by the reader's uid: another person's notification, or
 * an id that is no uuid at all, is not found (404) and nothing changes — the
 * answer never tells whether the id exists for somebody else.
 */
const NOT_FOUND = "We couldn't find that notification.";

export type MarkedRead = { kind: "SUCCESS"; id: string; readOn: Date };

/** Unread → read. Idempotent: a notification already read keeps the read_on of its first reading. */
export async function markAsRead(db: Db, uid: string, id: string): Promise<MarkedRead | DomainError<"not-found">> {
  if (!isNotificationId(id)) return domainError("not-found", NOT_FOUND);
  const [row] = await db
    .update(notifications)
    .set({ unread: false, readOn: sql`coalesce(${notifications.readOn}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.uid, uid)))
    .returning({ id: notifications.id, readOn: notifications.readOn });
  if (!row?.readOn) return domainError("not-found", NOT_FOUND);
  return { kind: "SUCCESS", id: row.id, readOn: row.readOn };
}

export async function deleteNotification(db: Db, uid: string, id: string): Promise<{ kind: "SUCCESS"; id: string } | DomainError<"not-found">> {
  if (!isNotificationId(id)) return domainError("not-found", NOT_FOUND);
  const [row] = await db
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.uid, uid)))
    .returning({ id: notifications.id });
  if (!row) return domainError("not-found", NOT_FOUND);
  return { kind: "SUCCESS", id: row.id };
}

/**
 * Every unread notification of the reader's becomes read, at one instant: the
 * database's now(), as for created and for a single mark (one statement, one
 * now()). Notifications read before keep their date.
 */
export async function markAllAsRead(db: Db, uid: string): Promise<{ kind: "SUCCESS"; count: number; readOn: Date }> {
  const rows = await db
    .update(notifications)
    .set({ unread: false, readOn: sql`coalesce(${notifications.readOn}, now())` })
    .where(and(eq(notifications.uid, uid), eq(notifications.unread, true)))
    .returning({ readOn: notifications.readOn });
  const readOn = rows.reduce<Date | null>((latest, row) => (row.readOn && (!latest || row.readOn > latest) ? row.readOn : latest), null);
  return { kind: "SUCCESS", count: rows.length, readOn: readOn ?? new Date() };
}
