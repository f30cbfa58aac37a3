import { z } from "zod";
import { refusal } from "#server/platform/errors";
import { publicNotificationSchema, toPublicNotification } from "#server/domains/notifications/public-notification";
import type { AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { deleteNotification } from "#server/features/operations/notifications/delete";
import { listNotifications } from "#server/features/operations/notifications/list";
import { markAllNotificationsRead, markNotificationRead } from "#server/features/operations/notifications/mark-read";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";

const TAG = "Notifications";

// An id that is no uuid names no notification: the router answers it 404, as the domain would.
const notificationPath = z.object({ id: z.uuid().meta({ description: "The notification's id." }) });

const listQuery = pageQuery.extend({
  unread: z.enum(["true", "false"]).optional().meta({ description: "true: only unread notifications; false or absent: all." }),
});

// The notification list's own cursor (server/domains/notifications/list.ts), wrapped as every API cursor is.
const cursorShape = z.object({ after: z.string().min(1).max(200) });

// The API's own words for its cursor, whether its wrapping or the list's cursor inside is wrong.
const invalidCursor = () => refusal("invalid-argument", "INVALID_CURSOR", "This cursor is not one of ours. Start again from the first page.");

const markedReadSchema = z
  .object({
    id: z.uuid(),
    unread: z.literal(false),
    readAt: z.iso.datetime().meta({ description: "When it was first marked read: marking it again keeps this time." }),
  })
  .meta({ id: "NotificationRead" });

const allReadSchema = z
  .object({
    count: z.int().min(0).meta({ description: "How many unread notifications this marked read." }),
    readAt: z.iso.datetime(),
  })
  .meta({ id: "NotificationsRead" });

export const notificationOperations: AnyApiOperation[] = [
  apiOperationOf(listNotifications, {
    id: "listNotifications",
    method: "get",
    path: "/notifications",
    tag: TAG,
    summary: "List your notifications",
    description: "Your notifications, newest first, as on the Notifications page.",
    scope: "notifications:read",
    query: listQuery,
    success: { status: 200, description: "A page of notifications.", schema: pageOf(publicNotificationSchema, "NotificationPage") },
    // invalid_cursor: a cursor that is not one of ours.
    refuse: ({ query }) => (query.cursor !== undefined && decodeCursor(query.cursor, cursorShape) === null ? invalidCursor() : null),
    input: ({ query }) => {
      const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor, cursorShape);
      return { cursor: cursor?.after ?? null, pageSize: query.limit, unreadOnly: query.unread === "true" };
    },
    reword: invalidCursor,
    answer: (page, { deps }) => ({
      data: page.notifications.map((notification) => toPublicNotification(notification, deps.config.PUBLIC_ORIGIN)),
      nextCursor: page.nextCursor ? encodeCursor({ after: page.nextCursor }) : null,
    }),
  }),
  // Before /notifications/{id}, whose pattern this path also fits (the request-time histogram names a request by the first, routes.ts).
  apiOperationOf(markAllNotificationsRead, {
    id: "markAllNotificationsRead",
    method: "post",
    path: "/notifications/read-all",
    tag: TAG,
    summary: "Mark all notifications read",
    description: "Every unread notification of yours becomes read. Notifications read before keep their time.",
    scope: "notifications:write",
    success: { status: 200, description: "How many were marked read.", schema: allReadSchema },
    input: () => ({}),
    answer: (marked) => ({ count: marked.count, readAt: marked.readOn.toISOString() }),
  }),
  apiOperationOf(markNotificationRead, {
    id: "markNotificationRead",
    method: "post",
    path: "/notifications/{id}/read",
    tag: TAG,
    summary: "Mark a notification read",
    description: "Idempotent: a notification read before stays read with its first time.",
    scope: "notifications:write",
    params: notificationPath,
    success: { status: 200, description: "The notification is read.", schema: markedReadSchema },
    input: ({ params }) => ({ notificationId: params.id }),
    answer: (marked) => ({ id: marked.id, unread: false as const, readAt: marked.readOn.toISOString() }),
  }),
  apiOperationOf(deleteNotification, {
    id: "deleteNotification",
    method: "delete",
    path: "/notifications/{id}",
    tag: TAG,
    summary: "Delete a notification",
    scope: "notifications:write",
    params: notificationPath,
    success: { status: 204, description: "Deleted." },
    input: ({ params }) => ({ notificationId: params.id }),
    answer: () => undefined,
  }),
];
