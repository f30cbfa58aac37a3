import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { notifications } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { isNotificationId } from "./ids";

/**
 * SPEC §7.2/§7.3 getNotifications(uid): a person's notifications, newest first, a page at a
 * time. Keyset paging on (created, id), both descending, so a page never
 * repeats or skips a notification when notifications arrive or go between two loads
 * (an offset would shift). ADR 0026. `unreadOnly` keeps the same order and cursors (the
 * public API's `unread` filter).
 */
export const NOTIFICATIONS_PAGE_SIZE = 12;

export type NotificationView = {
  id: string;
  /** What it is about (kinds.ts); any text on rows written before kinds existed is "general". */
  kind: string;
  title: string;
  message: string;
  unread: boolean;
  created: Date;
  readOn: Date | null;
  buttonText: string | null;
  buttonDestination: string | null;
};

export type NotificationPage = { kind: "SUCCESS"; notifications: NotificationView[]; nextCursor: string | null };

// `created` is kept to the microsecond; a JavaScript Date has milliseconds. The
// cursor carries the microseconds as an integer so that the next page starts
// exactly after the last notification shown, not a fraction of a millisecond off.
const createdMicros = sql<string>`(extract(epoch from ${notifications.created}) * 1000000)::bigint::text`;

/** `<microseconds since 1970>_<uuid>` of the last notification on a page. */
const CURSOR = /^(\d{1,17})_([0-9a-f-]{36})$/i;

export function parseCursor(cursor: string): { micros: string; id: string } | null {
  const match = CURSOR.exec(cursor);
  if (!match || !isNotificationId(match[2])) return null;
  return { micros: match[1]!, id: match[2]!.toLowerCase() };
}

export async function listNotifications(
  db: Db,
  uid: string,
  options: { cursor?: string | null; pageSize?: number; unreadOnly?: boolean } = {},
): Promise<NotificationPage | DomainError<"invalid-argument">> {
  const pageSize = options.pageSize ?? NOTIFICATIONS_PAGE_SIZE;
  let after = undefined;
  if (options.cursor) {
    const cursor = parseCursor(options.cursor);
    if (!cursor) return domainError("invalid-argument", "That page of notifications does not exist. Start again from the newest.");
    after = sql`(${notifications.created}, ${notifications.id}) < (timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`;
  }
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      message: notifications.message,
      unread: notifications.unread,
      created: notifications.created,
      readOn: notifications.readOn,
      buttonText: notifications.buttonText,
      buttonDestination: notifications.buttonDestination,
      micros: createdMicros,
    })
    .from(notifications)
    .where(and(eq(notifications.uid, uid), options.unreadOnly ? eq(notifications.unread, true) : undefined, after))
    .orderBy(desc(notifications.created), desc(notifications.id))
    // One row more than shown says whether a next page exists, without a count.
    .limit(pageSize + 1);
  const shown = rows.slice(0, pageSize);
  const last = shown[shown.length - 1];
  return {
    kind: "SUCCESS",
    notifications: shown.map(({ micros: _micros, ...notification }) => notification),
    nextCursor: rows.length > pageSize && last ? `${last.micros}_${last.id}` : null,
  };
}
